import assert from "node:assert/strict";
import { errorEnvelope, successEnvelope } from "../cli/output/envelope.ts";
import { errors } from "../cli/output/errors.ts";
import type { Provider } from "../cli/provider.ts";
import { testProvider } from "../cli/test_provider.ts";
import type { Runner } from "./command_run.ts";
import type { AppServer } from "./connection.ts";
import { RPC_CODES, RpcError } from "./errors.ts";
import { DEFAULT_POLICY } from "./policy.ts";
import { type AppServerOptions, createAppServer, defineMethod } from "./server.ts";
import { InProcessClient, type InProcessOptions, type ServerMessage } from "./transports/in-process.ts";

/**
 * A runner standing in for the CLI's: resolves argv to a two-word path (`config …` is a machine-changing
 * builtin), lets the gate refuse it, then echoes argv as a success envelope or acts on a few magic words.
 */
const fakeRunner: Runner = async (argv, p, { gate }) => {
  const refusal = gate({
    path: argv.slice(0, 2),
    layer: argv[0] === "config" ? "builtin" : "shortcut",
    service: argv[0] === "config" ? undefined : argv[0],
    turn: { allowed: argv[0] !== "config", reason: "fake" },
  });
  if (refusal) throw refusal;
  if (argv[0] === "write") {
    const decision = await p.approver?.({
      argv,
      command: argv.slice(0, 1),
      service: "im",
      risk: "write",
      summary: {},
    });
    if (decision !== "accept") {
      throw errors.confirmationRequired(`not approved (${decision})`);
    }
  }
  if (argv[0] === "slow") {
    await new Promise<void>((_, reject) => p.signal.addEventListener("abort", () => reject(p.signal.reason)));
  }
  if (argv[0] === "fail") {
    const failure = errorEnvelope(errors.usage("bad"));
    await p.stderr.write(JSON.stringify(failure) + "\n");
    p.documents?.error(failure);
    return 2;
  }
  // As cli/output does: the bytes to stdout, the envelope itself to the host.
  const success = successEnvelope({ data: { argv } });
  await p.stdout.write(JSON.stringify(success) + "\n");
  p.documents?.result(success);
  return 0;
};

function setup(extra: Partial<AppServerOptions> = {}, p: Provider = testProvider()) {
  const server = createAppServer({ provider: p, runner: fakeRunner, ...extra });
  return { server, p };
}

/** An in-process client of `server`, initialized. */
async function initialized(server: AppServer, opts?: InProcessOptions): Promise<InProcessClient> {
  const c = new InProcessClient(server, opts);
  await c.initialize();
  return c;
}

/** A new thread, started by `c`. */
async function newThread(c: InProcessClient): Promise<{ id: string }> {
  return (await c.request("thread/start") as { thread: { id: string } }).thread;
}

async function rpcError(promise: Promise<unknown>): Promise<RpcError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof RpcError) return e;
    throw e;
  }
  assert.fail("expected an error response");
}

const methods = (msgs: ServerMessage[]) => msgs.filter((m) => m.id === undefined).map((m) => m.method);

Deno.test("handshake: not initialized, initialize, already initialized; connection keeps working", async () => {
  const { server } = setup();
  const c = new InProcessClient(server);
  assert.equal((await rpcError(c.request("thread/list", {}))).message, "Not initialized");
  const init = await c.initialize("probe") as {
    serverInfo: { name: string };
    connection: { origin: string };
  };
  assert.equal(init.serverInfo.name, "larkit");
  assert.equal(init.connection.origin, "InProcess");
  const again = await rpcError(c.request("initialize", { clientInfo: { name: "x", version: "1" } }));
  assert.deepEqual([again.code, again.message], [RPC_CODES.invalidRequest, "Already initialized"]);
  assert.deepEqual(await c.request("thread/list", {}), { data: [], nextCursor: null });
  await server.close();
});

Deno.test("protocol errors: parse, invalid request, unknown method, invalid params", async () => {
  const { server } = setup();
  const c = await initialized(server);
  await c.send("{not json");
  const parse = await c.waitFor((m) => m.error?.code === RPC_CODES.parseError);
  assert.equal(parse.id, null);
  await c.send({ id: 7, method: 3 });
  const invalid = await c.waitFor((m) => m.id === 7);
  assert.equal(invalid.error?.code, RPC_CODES.invalidRequest);
  assert.equal((await rpcError(c.request("no/such"))).code, RPC_CODES.methodNotFound);
  const bad = await rpcError(c.request("turn/start", { threadId: "t" }));
  assert.equal(bad.code, RPC_CODES.invalidParams);
  assert.equal((await rpcError(c.request("thread/read", { threadId: "nope" }))).code, RPC_CODES.notFound);
  assert.deepEqual(await c.request("thread/list", {}), { data: [], nextCursor: null });
  await server.close();
});

Deno.test("batches: mixed batch answers requests only; empty batch is invalid; notification-only gets nothing", async () => {
  const { server } = setup();
  const c = await initialized(server);
  const before = c.received.length;
  await c.send([
    { id: "b1", method: "thread/list" },
    { method: "initialized" },
    { id: "b2", method: "nope" },
    42,
  ]);
  await c.waitFor((m) => m.id === null, before);
  const replies = c.received.slice(before);
  assert.equal(replies.length, 3);
  assert.deepEqual(replies.map((r) => r.error?.code ?? "ok"), [
    "ok",
    RPC_CODES.methodNotFound,
    RPC_CODES.invalidRequest,
  ]);
  await c.send([]);
  assert.equal((await c.waitFor((m) => m.id === null, before + 3)).error?.code, RPC_CODES.invalidRequest);
  const count = c.received.length;
  await c.send([{ method: "initialized" }, { method: "whatever" }]);
  assert.deepEqual(await c.request("thread/list", {}), { data: [], nextCursor: null });
  assert.equal(c.received.length, count + 1);
  await server.close();
});

Deno.test("a turn runs the command line and emits its events in order", async () => {
  const { server } = setup();
  const c = await initialized(server);
  const { thread } = await c.request("thread/start", {}) as { thread: { id: string } };
  const from = c.received.length;
  const { turn } = await c.request("turn/start", {
    threadId: thread.id,
    input: [{ type: "text", text: `larkit calendar +agenda --start "next monday"` }],
  }) as { turn: { id: string; status: string } };
  assert.equal(turn.status, "inProgress");
  const done = await c.waitForNotification("turn/completed", from);
  const events = methods(c.received.slice(from));
  assert.deepEqual(events, [
    "thread/status/changed",
    "turn/started",
    "item/started",
    "item/completed",
    "item/started",
    "command/exec/outputDelta",
    "item/completed",
    "thread/status/changed",
    "turn/completed",
  ]);
  const completed = done.params as {
    turn: { status: string; exitCode: number; result: { data: { argv: string[] } } };
  };
  assert.equal(completed.turn.status, "completed");
  assert.equal(completed.turn.exitCode, 0);
  assert.deepEqual(completed.turn.result.data.argv, ["calendar", "+agenda", "--start", "next monday"]);
  const delta = c.received.find((m) => m.method === "command/exec/outputDelta")?.params as Record<
    string,
    unknown
  >;
  assert.equal(delta.stream, "stdout");
  assert.equal(delta.turnId, turn.id);
  const read = await c.request("thread/read", { threadId: thread.id }) as {
    thread: { preview: string; turns: { items: { type: string }[] }[] };
  };
  assert.equal(read.thread.preview, `larkit calendar +agenda --start "next monday"`);
  assert.deepEqual(read.thread.turns[0].items.map((i) => i.type), ["userMessage", "commandExecution"]);
  await server.close();
});

Deno.test("turn/start refuses shell syntax with -32602 and runs nothing", async () => {
  const { server } = setup();
  const c = await initialized(server);
  const thread = await newThread(c);
  const e = await rpcError(
    c.request("turn/start", { threadId: thread.id, input: [{ type: "text", text: "a | b" }] }),
  );
  assert.equal(e.code, RPC_CODES.invalidParams);
  const read = await c.request("thread/read", { threadId: thread.id }) as { thread: { turns: unknown[] } };
  assert.equal(read.thread.turns.length, 0);
  await server.close();
});

for (const decision of ["accept", "decline"] as const) {
  Deno.test(`a write asks the client first: ${decision}`, async () => {
    const { server } = setup();
    const asked: unknown[] = [];
    const c = new InProcessClient(server, {
      onServerRequest: (method, params) => {
        asked.push({ method, params });
        return { decision };
      },
    });
    await c.initialize();
    const thread = await newThread(c);
    await c.request("turn/start", { threadId: thread.id, input: [{ type: "text", text: "write hi" }] });
    const done = await c.waitForNotification("turn/completed");
    const turn = (done.params as { turn: { status: string; exitCode: number } }).turn;
    assert.equal(asked.length, 1);
    assert.equal((asked[0] as { method: string }).method, "item/commandExecution/requestApproval");
    assert.equal(turn.status, decision === "accept" ? "completed" : "failed");
    assert.ok(c.received.some((m) => m.method === "serverRequest/resolved"));
    await server.close();
  });
}

Deno.test("a pending approval survives disconnect and is re-sent on thread/resume with the same id", async () => {
  const { server } = setup();
  const first = await initialized(server);
  const thread = await newThread(first);
  await first.request("turn/start", { threadId: thread.id, input: [{ type: "text", text: "write hi" }] });
  const asked = await first.waitFor((m) => m.method === "item/commandExecution/requestApproval");
  first.close();
  const second = await initialized(server, { onServerRequest: () => ({ decision: "accept" }) });
  const resumed = await second.request("thread/resume", { threadId: thread.id }) as {
    thread: { status: { activeFlags: string[] } };
  };
  assert.deepEqual(resumed.thread.status.activeFlags, ["waitingOnApproval"]);
  const again = await second.waitFor((m) => m.method === "item/commandExecution/requestApproval");
  assert.equal(again.id, asked.id);
  const done = await second.waitForNotification("turn/completed");
  assert.equal((done.params as { turn: { status: string } }).turn.status, "completed");
  await server.close();
});

Deno.test("turn/interrupt aborts the command and completes the turn as interrupted", async () => {
  const { server } = setup();
  const c = await initialized(server);
  const thread = await newThread(c);
  const { turn } = await c.request("turn/start", {
    threadId: thread.id,
    input: [{ type: "text", text: "slow" }],
  }) as {
    turn: { id: string };
  };
  await c.waitFor((m) =>
    m.method === "item/started" && (m.params as { item: { type: string } }).item.type === "commandExecution"
  );
  const busy = await rpcError(
    c.request("turn/start", { threadId: thread.id, input: [{ type: "text", text: "x" }] }),
  );
  assert.equal(busy.code, RPC_CODES.threadBusy);
  assert.deepEqual(await c.request("turn/interrupt", { threadId: thread.id, turnId: turn.id }), {});
  const done = await c.waitForNotification("turn/completed");
  assert.equal((done.params as { turn: { status: string } }).turn.status, "interrupted");
  await server.close();
});

Deno.test("remote policy: writes and services forbidden for RemoteControl, not for local origins", async () => {
  const { server } = setup({
    policy: { ...DEFAULT_POLICY, forbidWrites: true, forbiddenServices: ["mail"] },
  });
  let asked = 0;
  const remote = new InProcessClient(server, {
    origin: "RemoteControl",
    onServerRequest: () => {
      asked++;
      return { decision: "accept" };
    },
  });
  await remote.initialize();
  const write = await remote.request("command/exec", { command: "write hi" }) as {
    status: string;
    error: { error: { type: string; subtype: string } };
  };
  assert.equal(write.status, "failed");
  assert.deepEqual([write.error.error.type, write.error.error.subtype], ["authorization", "permission"]);
  assert.equal(asked, 0);
  const mail = await remote.request("command/exec", { command: ["larkit", "mail", "+triage"] }) as {
    error: { error: { type: string; subtype: string } };
  };
  assert.deepEqual([mail.error.error.type, mail.error.error.subtype], ["authorization", "permission"]);
  const local = await initialized(server, { onServerRequest: () => ({ decision: "accept" }) });
  const ok = await local.request("command/exec", { command: "mail +triage" }) as { exitCode: number };
  assert.equal(ok.exitCode, 0);
  await server.close();
});

Deno.test("threads persist across servers; a turn cut off by a crash reads back as interrupted", async () => {
  const p = testProvider();
  const a = setup({}, p).server;
  const c = await initialized(a);
  const thread = await newThread(c);
  await c.request("turn/start", { threadId: thread.id, input: [{ type: "text", text: "write" }] });
  await c.waitFor((m) => m.method === "item/commandExecution/requestApproval");
  // No close(): the process "dies" with the turn open. The next server on the same state DB finds it.
  const b = setup({}, p).server;
  const d = await initialized(b);
  const list = await d.request("thread/list", {}) as { data: { id: string }[] };
  assert.deepEqual(list.data.map((t) => t.id), [thread.id]);
  const read = await d.request("thread/read", { threadId: thread.id }) as {
    thread: { turns: { status: string }[] };
  };
  assert.equal(read.thread.turns[0].status, "interrupted");
  await b.close();
  await a.close();
});

Deno.test("extra methods: registered against the protocol, experimental, broadcast to initialized connections", async () => {
  const status = { status: "disabled" as const, serverName: "h", installationId: "", environmentId: null };
  const { server } = setup({
    methods: defineMethod("remoteControl/status/read", async (_params, ctx) => {
      await ctx.broadcast("remoteControl/status/changed", status);
      return { ...status, serverName: ctx.connection.origin };
    }),
  });
  const plain = await initialized(server);
  const e = await rpcError(plain.request("remoteControl/status/read"));
  assert.equal(e.message, "remoteControl/status/read requires experimentalApi capability");
  const exp = new InProcessClient(server);
  await exp.initialize("exp", { experimentalApi: true });
  assert.deepEqual(await exp.request("remoteControl/status/read"), { ...status, serverName: "InProcess" });
  await plain.waitForNotification("remoteControl/status/changed");
  await server.close();
});

Deno.test("extra methods must be methods of the protocol module", () => {
  assert.throws(
    () => setup({ methods: { "nope/extra": () => ({}) } as unknown as AppServerOptions["methods"] }),
    /not in the protocol module/,
  );
});

Deno.test("a config command is refused in a turn by the gate, before it runs", async () => {
  const { server } = setup();
  const c = await initialized(server);
  const r = await c.request("command/exec", { command: "config set base-url http://evil" }) as {
    status: string;
    error: { error: { type: string; subtype: string; message: string } };
  };
  assert.equal(r.status, "failed");
  assert.deepEqual([r.error.error.type, r.error.error.subtype], ["authorization", "permission"]);
  assert.match(r.error.error.message, /cannot run inside an agent-server turn/);
  await server.close();
});

/** Starts a write turn from `asker` and waits until its approval is pending. */
async function pendingWrite(asker: InProcessClient) {
  const { thread } = await asker.request("thread/start") as { thread: { id: string; cwd: string } };
  await asker.request("turn/start", { threadId: thread.id, input: [{ type: "text", text: "write hi" }] });
  const ask = await asker.waitFor((m) => m.method === "item/commandExecution/requestApproval");
  return { thread, ask };
}

Deno.test("approvals: ids are unguessable; answers from other, uninitialized or remote connections are ignored", async () => {
  const logged: { event: string; fields: Record<string, unknown> }[] = [];
  const { server } = setup({ log: (event, fields) => logged.push({ event, fields }) });
  const local = await initialized(server);
  const { thread, ask } = await pendingWrite(local);
  assert.match(String(ask.id), /^req-[0-9a-f]{32}$/);

  const stranger = new InProcessClient(server);
  await stranger.send({ id: ask.id, result: { decision: "accept" } });
  await stranger.initialize();
  await stranger.send({ id: ask.id, result: { decision: "accept" } });
  for (let guess = 0; guess < 64; guess++) await stranger.send({ id: guess, result: { decision: "accept" } });
  const remote = await initialized(server, { origin: "RemoteControl" });
  const resumed = remote.received.length;
  await remote.request("thread/resume", { threadId: thread.id });
  await remote.send({ id: ask.id, result: { decision: "accept" } });
  assert.ok(
    !remote.received.slice(resumed).some((m) => m.method === "item/commandExecution/requestApproval"),
    "a remote connection is not sent a local client's approval",
  );
  const reasons = logged.filter((l) => l.event === "response_ignored").map((l) => l.fields.reason);
  assert.deepEqual(reasons, [
    "not initialized",
    "this connection was not asked",
    "this connection was not asked",
  ]);
  const read = await local.request("thread/read", { threadId: thread.id }) as {
    thread: { status: { activeFlags: string[] } };
  };
  assert.deepEqual(
    read.thread.status.activeFlags,
    ["waitingOnApproval"],
    "still pending: nothing approved it",
  );

  await local.send({ id: ask.id, result: { decision: "decline" } });
  const done = await local.waitForNotification("turn/completed");
  assert.equal((done.params as { turn: { status: string } }).turn.status, "failed");
  await server.close();
});

Deno.test("approvals: --remote-read-only remotes cannot answer even a remote turn's approval", async () => {
  const { server } = setup({ policy: { ...DEFAULT_POLICY, forbidWrites: true } });
  const remote = await initialized(server, {
    origin: "RemoteControl",
    onServerRequest: () => ({ decision: "accept" }),
  });
  const thread = await newThread(remote);
  await remote.request("turn/start", { threadId: thread.id, input: [{ type: "text", text: "write hi" }] });
  const done = await remote.waitForNotification("turn/completed");
  const turn =
    (done.params as { turn: { status: string; error: { error: { type: string; subtype: string } } } }).turn;
  assert.equal(turn.status, "failed");
  assert.deepEqual([turn.error.error.type, turn.error.error.subtype], ["authorization", "permission"]);
  assert.ok(!remote.received.some((m) => m.method === "item/commandExecution/requestApproval"));
  await server.close();
});

Deno.test("approvals: command/exec asks only the asking connection and takes only its answer", async () => {
  const { server } = setup();
  const asker = await initialized(server);
  const other = await initialized(server);
  const result = asker.request("command/exec", { command: "write hi" }) as Promise<{ status: string }>;
  const ask = await asker.waitFor((m) => m.method === "item/commandExecution/requestApproval");
  assert.ok(!other.received.some((m) => m.method === "item/commandExecution/requestApproval"));
  await other.send({ id: ask.id, result: { decision: "accept" } });
  await asker.send({ id: ask.id, result: { decision: "decline" } });
  assert.equal((await result).status, "failed");
  await server.close();
});

Deno.test("a thread's workspace is private to it, under the state dir, and reported as cwd", async () => {
  const p = testProvider();
  const seen: string[] = [];
  const { server } = setup({
    runner: async (_argv, rp) => {
      seen.push(rp.cwd);
      await rp.stdout.write("{}\n");
      return 0;
    },
  }, p);
  const c = await initialized(server);
  const { thread } = await c.request("thread/start") as { thread: { id: string; cwd: string } };
  assert.ok(thread.cwd.startsWith(p.paths.stateDir + "/workspaces/"), thread.cwd);
  assert.notEqual(thread.cwd, p.cwd);
  assert.equal((await Deno.stat(thread.cwd)).mode! & 0o777, 0o700);
  await c.request("turn/start", { threadId: thread.id, input: [{ type: "text", text: "calendar +agenda" }] });
  await c.waitForNotification("turn/completed");
  assert.deepEqual(seen, [thread.cwd]);
  await server.close();
});

Deno.test("every result, notification and server request on the wire parses with rpc/protocol.ts's schemas", async () => {
  const { METHODS, NOTIFICATIONS, SERVER_REQUESTS } = await import("./protocol.ts");
  const { server } = setup();
  const c = new InProcessClient(server, { onServerRequest: () => ({ decision: "accept" }) });
  const sent: { method: string; result: unknown }[] = [];
  const call = async (method: keyof typeof METHODS, params?: unknown) => {
    const result = await c.request(method, params);
    sent.push({ method, result });
    return result;
  };
  sent.push({ method: "initialize", result: await c.initialize() });
  const { thread } = await call("thread/start") as { thread: { id: string } };
  await call("turn/start", { threadId: thread.id, input: [{ type: "text", text: "write hi" }] });
  await c.waitForNotification("turn/completed");
  const slow = await call("turn/start", { threadId: thread.id, input: [{ type: "text", text: "slow" }] }) as {
    turn: { id: string };
  };
  await call("turn/interrupt", { threadId: thread.id, turnId: slow.turn.id });
  await c.waitFor((m) =>
    m.method === "turn/completed" && (m.params as { turn: { id: string } }).turn.id === slow.turn.id
  );
  await call("thread/list", {});
  await call("thread/read", { threadId: thread.id });
  await call("thread/resume", { threadId: thread.id });
  await call("command/exec", { command: "calendar +agenda" });
  await call("command/exec", { command: "write hi" });

  for (const { method, result } of sent) METHODS[method as keyof typeof METHODS].result.parse(result);
  const notifications = c.received.filter((m) => m.method !== undefined && m.id === undefined);
  const requests = c.received.filter((m) => m.method !== undefined && m.id !== undefined);
  assert.ok(notifications.length > 10 && requests.length === 2);
  for (const n of notifications) NOTIFICATIONS[n.method as keyof typeof NOTIFICATIONS].parse(n.params);
  for (const r of requests) SERVER_REQUESTS[r.method as keyof typeof SERVER_REQUESTS].params.parse(r.params);
  await server.close();
});
