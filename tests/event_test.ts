/**
 * `larkit event …` end to end through `main.ts` against the emulator: the first consume starts the app's
 * background hub, a user's message reaches the bot's consumer as one NDJSON line, `--timeout`, `--jq`, stdin
 * EOF, two consumers, `event status` and `event stop`. Processes are the point for the consumers (the hub is
 * a detached child, stdin EOF is a pipe closing), so they run as subprocesses; the sends, `event status` and
 * `event stop` that only talk to the suite or the hub's socket run in-process.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Emulator, fixtures, startEmulator, userToken } from "./helpers/emulator.ts";
import { eventEnv, hubsLeft, quickReconnects } from "./helpers/event_hub.ts";
import { ENDPOINT_PATH } from "../cli/event/connection.ts";
import { runCli } from "./helpers/run_cli.ts";
import { MAIN, REPO, runMain, type RunResult } from "./helpers/run_main.ts";

interface Suite {
  emu: Emulator;
  env: Record<string, string>;
  configDir: string;
  /** larkit in-process. */
  larkit(args: string[], opts?: { asUser?: boolean }): Promise<RunResult>;
  /** `main.ts` as a process, its stdin closed at once. */
  spawn(args: string[]): Promise<RunResult>;
  consume(args: string[], opts?: { cwd?: string }): Consumer;
  /** Alice posts `text` to CHAT as herself (the event the consumers wait for); fails the test if refused. */
  post(text: string): Promise<RunResult>;
}

/** A running `larkit event consume`, stdin kept open until `closeStdin`. */
class Consumer {
  readonly child: Deno.ChildProcess;
  readonly #stdin: WritableStreamDefaultWriter<Uint8Array>;
  #stderr = "";
  readonly #output: Promise<{ code: number; stdout: string; stderr: string }>;
  #readyWaiters: (() => void)[] = [];

  constructor(args: string[], env: Record<string, string>, cwd = REPO) {
    this.child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", MAIN, ...args],
      cwd,
      env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#stdin = this.child.stdin.getWriter();
    const stdout = new Response(this.child.stdout).text();
    const child = this.child;
    const stderr = (async () => {
      const dec = new TextDecoder();
      for await (const chunk of child.stderr) {
        this.#stderr += dec.decode(chunk, { stream: true });
        if (this.#stderr.includes("[event] ready")) { for (const w of this.#readyWaiters.splice(0)) w(); }
      }
      return this.#stderr;
    })();
    this.#output = Promise.all([this.child.status, stdout, stderr]).then(([s, out, err]) => ({
      code: s.code,
      stdout: out,
      stderr: err,
    }));
  }

  /** Resolves once `[event] ready` is on stderr; rejects when the process ended first. */
  ready(): Promise<void> {
    if (this.#stderr.includes("[event] ready")) return Promise.resolve();
    return Promise.race([
      new Promise<void>((resolve) => this.#readyWaiters.push(resolve)),
      this.#output.then((o) => {
        throw new Error(`consume ended before it was ready (exit ${o.code}): ${o.stderr}`);
      }),
    ]);
  }

  async closeStdin(): Promise<void> {
    await this.#stdin.close();
  }

  async done(): Promise<{ code: number; stdout: string; stderr: string }> {
    const out = await this.#output;
    try {
      await this.#stdin.close();
    } catch {
      // Already closed.
    }
    return out;
  }
}

async function withEvents(fn: (s: Suite) => Promise<void>): Promise<void> {
  const emu = await startEmulator({ timeZone: "UTC" });
  quickReconnects(emu, 0.05);
  const configDir = await Deno.makeTempDir({ prefix: "larkit-ev-" });
  const uat = (await userToken(emu)).access_token;
  // A hub a failed test leaves behind exits on its own.
  const env = eventEnv(emu, configDir, 30_000);
  const suite: Suite = {
    emu,
    env,
    configDir,
    larkit: (args, opts = {}) =>
      runCli(args, { configDir, env: { ...env, ...(opts.asUser ? { LARKIT_USER_ACCESS_TOKEN: uat } : {}) } }),
    spawn: (args) => runMain(args, { configDir, stdin: "", env }),
    consume: (args, opts = {}) => new Consumer(["event", "consume", ...args], env, opts.cwd),
    async post(text) {
      const sent = await suite.larkit([
        "im",
        "+messages-send",
        "--chat-id",
        CHAT,
        "--text",
        text,
        "--as",
        "user",
      ], {
        asUser: true,
      });
      assert.equal(sent.code, 0, sent.stderr);
      return sent;
    },
  };
  let passed = false;
  try {
    await fn(suite);
    await stopped(suite);
    passed = true;
  } finally {
    // After a failure, only a best effort: the failure is the news.
    if (!passed) await suite.larkit(["event", "stop"]);
    await emu.stop();
    await Deno.remove(configDir, { recursive: true });
  }
}

/** Longer than this to stop, or for a hub to exit after `event stop`, fails the test (a hub's idle time is 30 s). */
const STOP_BOUND_MS = 20_000;

/**
 * `event stop` succeeds and leaves nothing behind: no socket, and (where /proc tells) no hub process of this
 * config dir, not even one that lost the start race and would listen once the winner stopped.
 */
async function stopped({ larkit, configDir }: Suite): Promise<{ stopped: boolean }> {
  const stop = await larkit(["event", "stop"]);
  assert.equal(stop.code, 0, stop.stderr);
  const data = stop.json<{ data: { stopped: boolean; socket: string } }>().data;
  if (Deno.build.os === "linux") assert.deepEqual(await hubsLeft(configDir, STOP_BOUND_MS), []);
  await assert.rejects(Deno.lstat(data.socket), Deno.errors.NotFound);
  return data;
}

const CHAT = fixtures.CHATS.engineering;

Deno.test("event consume: a user's message to the bot's chat is printed as one NDJSON line", async () => {
  await withEvents(async ({ larkit, consume, configDir, post }) => {
    const c = consume(["im.message.receive_v1", "--max-events", "1"]);
    await c.ready();
    const sent = await post("deploy done");
    const messageId = sent.json<{ data: { message_id: string } }>().data.message_id;
    const out = await c.done();
    assert.equal(out.code, 0, out.stderr);
    const lines = out.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 1);
    const event = JSON.parse(lines[0]);
    assert.equal(event.header.event_type, "im.message.receive_v1");
    assert.equal(event.event.message.message_id, messageId);
    assert.equal(event.event.message.chat_id, CHAT);
    assert.equal(JSON.parse(event.event.message.content).text, "deploy done");
    assert.equal(event.event.sender.sender_id.open_id, fixtures.USERS.alice.open_id);

    const status = await larkit(["event", "status"]);
    const data =
      status.json<{ data: { running: boolean; hub: { acked: number; connection: string } } }>().data;
    assert.equal(data.running, true);
    assert.equal(data.hub.connection, "connected");
    assert.equal(data.hub.acked, 1);
    const socket = await Deno.lstat(join(configDir, "state", "events", "cli_a0b1c2d3e4f50617.sock"));
    assert.equal(socket.mode! & 0o777, 0o600, "the hub socket is the user's alone");
  });
});

Deno.test("event consume: --timeout with no event exits 4 with a timeout error; stdin at its end stops nothing", async () => {
  await withEvents(async ({ emu, spawn, consume, post }) => {
    emu.clearRequests();
    // runMain closes stdin at once (cron, `< /dev/null`, an agent's harness): the consumer still runs to --timeout.
    const timedOut = await spawn(["event", "consume", "task.task.updated_v1", "--timeout", "300ms"]);
    assert.equal(timedOut.code, 4, timedOut.stderr);
    assert.equal(timedOut.stdout, "");

    const c = consume(["task.task.updated_v1", "--timeout", "400ms"]);
    const out = await c.done();
    assert.equal(out.code, 4, out.stderr);
    const envelope = JSON.parse(out.stderr.slice(out.stderr.indexOf("{")));
    // The class is `timeout` (the envelope's type, or its subtype under the v2 error contract).
    assert.ok([envelope.error.type, envelope.error.subtype].includes("timeout"), out.stderr);
    assert.equal(out.stdout, "");

    // Its stdin closed, a consumer still takes the next event (--max-events), and a signal stops one.
    const eof = consume(["im.message.receive_v1", "--max-events", "1", "--jq", ".event.message.chat_id"]);
    const stopped = consume(["task.task.updated_v1"]);
    await Promise.all([eof.ready(), stopped.ready()]);
    await Promise.all([eof.closeStdin(), stopped.closeStdin()]);
    await post("after eof");
    const ended = await eof.done();
    assert.equal(ended.code, 0, ended.stderr);
    assert.equal(ended.stdout, `${CHAT}\n`);
    stopped.child.kill("SIGTERM");
    const killed = await stopped.done();
    assert.equal(killed.code, 143, killed.stderr);
    assert.equal(killed.stdout, "");

    // Every request says larkit/<version>: the tenant token's, the event endpoint's and the socket's included.
    const requests = emu.requests();
    assert.ok(requests.some((r) => r.path === ENDPOINT_PATH), requests.map((r) => r.path).join(" "));
    for (const r of requests) {
      assert.match(r.headers["user-agent"] ?? "", /larkit\/\d/, `${r.method} ${r.path}`);
    }
  });
});

Deno.test("event consume: --jq shapes each line; two consumers both receive the event", async () => {
  await withEvents(async (suite) => {
    const { emu, consume, post } = suite;
    const a = consume(["im.message.receive_v1", "--max-events", "1", "--jq", ".event.message.chat_id"]);
    const b = consume(["im.message.receive_v1", "--max-events", "1", "--param", `message.chat_id=${CHAT}`]);
    await Promise.all([a.ready(), b.ready()]);
    // Started at the same moment, they still share one hub and the app's one long connection.
    assert.equal(emu.events.connections(), 1);
    await post("hi both");
    const [outA, outB] = await Promise.all([a.done(), b.done()]);
    assert.equal(outA.code, 0, outA.stderr);
    assert.equal(outA.stdout, `${CHAT}\n`);
    assert.equal(outB.code, 0, outB.stderr);
    assert.equal(JSON.parse(outB.stdout).event.message.chat_id, CHAT);
    // Acknowledged to the suite once the first consumer had it (the ack frame is on its way, not awaited).
    const deadline = Date.now() + 10_000;
    while (emu.events.unacked() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(emu.events.unacked(), 0);
    // The consumer that lost the race to start the hub does not leave its hub behind to listen after the stop.
    assert.equal((await stopped(suite)).stopped, true);
    assert.equal(emu.events.connections(), 1);
  });
});

Deno.test("event +subscribe: the shortcut streams through event consume, --jq passed on", async () => {
  await withEvents(async ({ env, post }) => {
    const c = new Consumer(
      [
        "event",
        "+subscribe",
        "--event-types",
        "im.message.receive_v1",
        "--max-events",
        "1",
        "--jq",
        ".event.message.chat_id",
      ],
      env,
    );
    await c.ready();
    await post("shortcut");
    const out = await c.done();
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, `${CHAT}\n`);
  });
});

Deno.test("event consume --output-dir writes one file per event; event stop ends the hub and its socket", async () => {
  await withEvents(async ({ larkit, consume, configDir }) => {
    // --output-dir is relative to the working directory.
    const c = consume(["task.task.updated_v1", "--max-events", "1", "--output-dir", "events"], {
      cwd: configDir,
    });
    await c.ready();
    const created = await larkit(["task", "+create", "--summary", "write the docs", "--as", "user"], {
      asUser: true,
    });
    assert.equal(created.code, 0, created.stderr);
    const out = await c.done();
    assert.equal(out.code, 0, out.stderr);
    const line = JSON.parse(out.stdout);
    assert.equal(line.event_type, "task.task.updated_v1");
    const file = JSON.parse(await Deno.readTextFile(line.file));
    assert.equal(file.header.event_id, line.event_id);
    assert.equal(line.file, join(configDir, "events", `${line.event_id}.json`));

    const stop = await larkit(["event", "stop"]);
    assert.equal(stop.code, 0, stop.stderr);
    assert.equal(stop.json<{ data: { stopped: boolean } }>().data.stopped, true);
    const socket = join(configDir, "state", "events", "cli_a0b1c2d3e4f50617.sock");
    await assert.rejects(Deno.lstat(socket), Deno.errors.NotFound);
    const again = await larkit(["event", "status"]);
    assert.equal(again.json<{ data: { running: boolean } }>().data.running, false);
  });
});

/** `larkit app-server --listen stdio` as a subprocess, with a minimal line-oriented JSON-RPC client. */
function appServer(env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, "app-server", "--listen", "stdio"],
    cwd: REPO,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const received: Record<string, unknown>[] = [];
  let wake = () => {};
  const reading = (async () => {
    const dec = new TextDecoder();
    let buf = "";
    for await (const chunk of child.stdout) {
      buf += dec.decode(chunk, { stream: true });
      for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
        received.push(JSON.parse(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
      }
      wake();
    }
  })();
  const wait = async (test: (m: Record<string, unknown>) => boolean, what: string) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const found = received.find(test);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await Promise.race([new Promise<void>((r) => wake = r), new Promise((r) => setTimeout(r, 200))]);
    }
  };
  let id = 0;
  const send = (m: unknown) => writer.write(new TextEncoder().encode(JSON.stringify(m) + "\n"));
  return {
    async call(method: string, params?: unknown) {
      const n = ++id;
      await send({ jsonrpc: "2.0", id: n, method, params });
      return await wait((m) => m.id === n, `reply to ${method}`) as {
        result?: Record<string, unknown>;
        error?: { message: string };
      };
    },
    send,
    wait,
    async close() {
      await writer.close();
      await reading;
      await child.status;
    },
  };
}

Deno.test("agent server: event/subscribe gets event/received; a turn's consume waits for one event", async () => {
  await withEvents(async ({ env, consume, post }) => {
    const server = appServer(env);
    try {
      await server.call("initialize", { clientInfo: { name: "e2e", version: "1.0" } });
      await server.send({ jsonrpc: "2.0", method: "initialized" });
      const thread = await server.call("thread/start", {});
      const threadId = (thread.result?.thread as { id: string }).id;

      // No hub yet: subscribing is refused with the way to start one, and starts nothing.
      const refused = await server.call("event/subscribe", { threadId, keys: ["im.message.receive_v1"] });
      assert.match(refused.error?.message ?? "", /no event hub runs .*larkit event consume/);

      const terminal = consume(["im.message.receive_v1", "--max-events", "1"]);
      await terminal.ready();
      const sub = await server.call("event/subscribe", { threadId, keys: ["im.message.receive_v1"] });
      const subscriptionId = sub.result?.subscriptionId as string;
      assert.ok(subscriptionId, JSON.stringify(sub));
      // A turn may consume from the running hub (a read); its stdin is not watched, --max-events ends it.
      const turn = await server.call("turn/start", {
        threadId,
        input: [{ type: "text", text: "event consume im.message.receive_v1 --max-events 1 --timeout 60s" }],
      });
      const turnId = (turn.result?.turn as { id: string }).id;
      await server.wait(
        (m) =>
          m.method === "command/exec/outputDelta" &&
          (m.params as { delta: string }).delta.includes("[event] ready"),
        "the turn's [event] ready",
      );

      await post("to the agent");
      const note = await server.wait((m) => m.method === "event/received", "event/received") as {
        params: {
          threadId: string;
          subscriptionId: string;
          event: { event: { message: { content: string } } };
        };
      };
      assert.equal(note.params.threadId, threadId);
      assert.equal(note.params.subscriptionId, subscriptionId);
      assert.equal(JSON.parse(note.params.event.event.message.content).text, "to the agent");
      // The terminal's consumer got it too, and so did the turn.
      assert.equal((await terminal.done()).code, 0);
      const done = await server.wait(
        (m) => m.method === "turn/completed" && (m.params as { turn: { id: string } }).turn.id === turnId,
        "turn/completed",
      ) as {
        params: {
          turn: { status: string; exitCode: number; result: { event: { message: { chat_id: string } } } };
        };
      };
      assert.equal(done.params.turn.status, "completed");
      assert.equal(done.params.turn.result.event.message.chat_id, CHAT);

      assert.deepEqual((await server.call("event/unsubscribe", { subscriptionId })).result, {});
      const again = await server.call("event/unsubscribe", { subscriptionId });
      assert.match(again.error?.message ?? "", /no subscription/);
    } finally {
      await server.close();
    }
  });
});

Deno.test("event consume: credentials the suite refuses are an auth error (exit 3) from the hub", async () => {
  await withEvents(async ({ env }) => {
    const c = new Consumer(["event", "consume", "im.message.receive_v1", "--timeout", "30s"], {
      ...env,
      LARKIT_APP_SECRET: "not-the-secret",
    });
    const out = await c.done();
    assert.equal(out.code, 3, out.stderr);
    const envelope = JSON.parse(out.stderr.slice(out.stderr.indexOf("{")));
    assert.ok([envelope.error.type, envelope.error.subtype].includes("auth"), out.stderr);
    assert.match(envelope.error.message, /code 514/);
  });
});
