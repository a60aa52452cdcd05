/**
 * The agent server's trust boundary, attacked the way issue 14 describes, through the real pieces: the app
 * server with the CLI's own runner (`runCli` with the server's gate, exactly what `larkit app-server` hands it),
 * a configured and logged-in larkit against the suite emulator, and a trap HTTP server standing for an
 * attacker's host. Every attack must fail with evidence that nothing happened (trap and emulator request
 * counts, files unchanged or absent); the legitimate paths in the same tests must still work.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli as runCliIn } from "../cli/run.ts";
import { remotePolicyArgs, remotePolicyOf } from "../cli/commands/app_server.ts";
import { DevRelay } from "../relay/dev_relay.ts";
import type { RemoteClient } from "../relay/remote_client.ts";
import { pairDevice, type PairedDevice } from "./helpers/pair_device.ts";
import { testSession } from "./helpers/relay_host.ts";
import { until } from "./helpers/until.ts";
import { DEFAULT_POLICY, type RemotePolicy } from "../rpc/policy.ts";
import { createAppServer, type LarkitAppServer } from "../rpc/server.ts";
import { InProcessClient, type InProcessOptions } from "../rpc/transports/in-process.ts";
import { type Emulator, fixtures, startEmulator } from "./helpers/emulator.ts";
import { initAndLogin } from "./helpers/login.ts";
import { cliProvider } from "./helpers/run_cli.ts";

interface World {
  emu: Emulator;
  server: LarkitAppServer;
  configDir: string;
  stateDir: string;
  /** The server process's own working directory: turns must never touch it. */
  serverCwd: string;
  trapUrl: string;
  trapHits: string[];
  logged: { event: string; fields: Record<string, unknown> }[];
  configText(): Promise<string>;
  client(opts?: InProcessOptions): Promise<InProcessClient>;
}

async function withWorld(policy: RemotePolicy, fn: (w: World) => Promise<void>): Promise<void> {
  const emu = await startEmulator({});
  const trapHits: string[] = [];
  const trap = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    trapHits.push(`${req.method} ${new URL(req.url).pathname}`);
    return Response.json({ code: 0, tenant_access_token: "stolen", expire: 7200 });
  });
  const configDir = await Deno.makeTempDir({ prefix: "larkit-sec-" });
  const serverCwd = await Deno.makeTempDir({ prefix: "larkit-sec-cwd-" });
  const clients: InProcessClient[] = [];
  let server: LarkitAppServer | undefined;
  try {
    await initAndLogin(emu, configDir);
    const p = cliProvider({ configDir, cwd: serverCwd });
    const logged: World["logged"] = [];
    server = createAppServer({
      provider: p,
      policy,
      runner: (argv, rp, opts) => runCliIn(argv, rp, opts),
      log: (event, fields) => logged.push({ event, fields }),
    });
    const s = server;
    emu.clearRequests();
    await fn({
      emu,
      server: s,
      configDir,
      stateDir: p.paths.stateDir,
      serverCwd,
      trapUrl: `http://127.0.0.1:${trap.addr.port}`,
      trapHits,
      logged,
      configText: () => Deno.readTextFile(join(configDir, "config.json")),
      async client(opts = {}) {
        const c = new InProcessClient(s, opts);
        clients.push(c);
        await c.initialize();
        return c;
      },
    });
  } finally {
    for (const c of clients) c.close();
    await server?.close();
    await trap.shutdown();
    await emu.stop();
  }
}

interface TurnView {
  id: string;
  status: string;
  exitCode: number;
  result?: { ok: boolean; data: Record<string, unknown> };
  error?: { ok: false; error: { type: string; subtype: string; message: string } };
}

async function newThread(c: InProcessClient): Promise<{ id: string; cwd: string }> {
  return (await c.request("thread/start") as { thread: { id: string; cwd: string } }).thread;
}

/** Starts a turn and returns it once completed. */
async function turn(c: InProcessClient, threadId: string, text: string): Promise<TurnView> {
  const from = c.received.length;
  const { turn } = await c.request("turn/start", { threadId, input: [{ type: "text", text }] }) as {
    turn: { id: string };
  };
  const done = await c.waitFor(
    (m) => m.method === "turn/completed" && (m.params as { turn: { id: string } }).turn.id === turn.id,
    from,
  );
  return (done.params as { turn: TurnView }).turn;
}

function assertRefused(t: TurnView, what: string): void {
  assert.equal(t.status, "failed", `${what}: ${JSON.stringify(t)}`);
  assert.deepEqual(
    [t.error?.error.type, t.error?.error.subtype],
    ["authorization", "permission"],
    `${what}: ${JSON.stringify(t.error)}`,
  );
}

const suitePosts = (emu: Emulator, prefix: string) =>
  emu.requests().filter((r) => r.method === "POST" && r.path.startsWith(prefix)).length;

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

const SEND = `im +messages-send --chat-id ${fixtures.CHATS.engineering} --text "hello from a turn" --as bot`;

Deno.test("attack 1 and quoting tricks: no turn can move base-url; the token never reaches the trap", async () => {
  await withWorld(DEFAULT_POLICY, async (w) => {
    const c = await w.client();
    const { id } = await newThread(c);
    const before = await w.configText();
    const trap = w.trapUrl;
    for (
      const text of [
        `config set base-url ${trap}`,
        `config set base-url https://evil.example`,
        `larkit config set base-url ${trap}`,
        `'con'fig "set" base\\-url ${trap}`,
        `-- config set base-url ${trap}`,
        `--no-color --offline -- config set base-url ${trap}`,
        `--profile default config set base-url ${trap}`,
        `config --profile default set base-url ${trap}`,
        `config set base-url ${trap} --allow-untrusted-endpoint`,
        `config init --app-id x --base-url ${trap}`,
        `config remove --yes`,
      ]
    ) assertRefused(await turn(c, id, text), text);
    // command/exec with an argv array goes through the same gate.
    const exec = await c.request("command/exec", {
      command: ["larkit", "--", "config", "set", "base-url", trap],
    }) as {
      status: string;
      error: { error: { type: string; subtype: string } };
    };
    assert.deepEqual([exec.error.error.type, exec.error.error.subtype], ["authorization", "permission"]);
    assert.equal(await w.configText(), before, "the config file is byte for byte unchanged");

    const agenda = await turn(c, id, "calendar +agenda --as user");
    assert.equal(agenda.status, "completed", JSON.stringify(agenda.error));
    assert.ok(w.emu.requests().some((r) => r.path.startsWith("/open-apis/calendar/")), "the suite answered");
    assert.deepEqual(w.trapHits, [], "the trap never saw a request");
  });
});

Deno.test("attack 2: a download lands in the thread's workspace; it can never become a credential provider", async () => {
  await withWorld(DEFAULT_POLICY, async (w) => {
    const c = await w.client();
    const thread = await newThread(c);
    assert.equal(thread.cwd, join(w.stateDir, "workspaces", thread.id), "thread.cwd is the workspace");
    assert.equal((await Deno.stat(thread.cwd)).mode! & 0o777, 0o700);

    const down = await turn(
      c,
      thread.id,
      `drive +download --file-token ${fixtures.DRIVE.readme} --output provider.sh`,
    );
    assert.equal(down.status, "completed", JSON.stringify(down.error));
    assert.ok(await exists(join(thread.cwd, "provider.sh")), "downloaded into the workspace");
    assert.deepEqual([...Deno.readDirSync(w.serverCwd)], [], "nothing in the server's working directory");

    // Make the downloaded file a provider that would leave a marker if it were ever run.
    const marker = join(w.serverCwd, "provider-ran");
    await Deno.writeTextFile(join(thread.cwd, "provider.sh"), `#!/bin/sh\ntouch ${marker}\necho '{}'\n`);
    await Deno.chmod(join(thread.cwd, "provider.sh"), 0o755);
    const before = await w.configText();
    for (
      const text of [
        `config set credential-providers provider.sh`,
        `config set credential-providers ${join(thread.cwd, "provider.sh")}`,
        `-- config set credential-providers provider.sh`,
      ]
    ) assertRefused(await turn(c, thread.id, text), text);
    assert.equal(await w.configText(), before);
    const next = await turn(c, thread.id, "calendar +agenda --as user");
    assert.equal(next.status, "completed");
    assert.equal(await exists(marker), false, "the provider was never executed");
  });
});

Deno.test("attack 3: -- remote-control, sandbox run/serve, strict mode, logout, profiles, --record/--replay all refused", async () => {
  await withWorld(DEFAULT_POLICY, async (w) => {
    const c = await w.client();
    const thread = await newThread(c);
    const before = await w.configText();
    const recordDir = join(w.serverCwd, "rec");
    for (
      const text of [
        "-- remote-control start",
        "remote-control",
        "-- app-server",
        "sandbox run -- app-server --listen off",
        "sandbox run -- config set base-url http://127.0.0.1:1",
        "sandbox serve",
        "relay dev",
        "config strict-mode off",
        "config default-as bot",
        "auth logout",
        "auth login --no-wait",
        "profile add --name evil --app-id x",
        "profile use default",
        "profile rename default other",
        "profile remove default",
        "event stop",
        `--record ${recordDir} calendar +agenda --as user`,
        `--record=${recordDir} calendar +agenda --as user`,
        `calendar +agenda --as user --record ${recordDir}`,
        `--replay ${recordDir} calendar +agenda`,
      ]
    ) assertRefused(await turn(c, thread.id, text), text);
    assert.equal(await w.configText(), before, "config and profiles unchanged");
    assert.equal(await exists(recordDir), false, "no recording written");
    assert.equal(await exists(join(thread.cwd, "rec")), false);
    assert.equal(await exists(join(w.stateDir, "remote-control.sock")), false, "no daemon started");
    assert.deepEqual(w.trapHits, []);
    assert.equal(suitePosts(w.emu, "/open-apis/"), 0, "nothing reached the suite");
    const agenda = await turn(c, thread.id, "calendar +agenda --as user");
    assert.equal(agenda.status, "completed", "still logged in: logout never ran");
    const reads = await turn(c, thread.id, "auth status");
    assert.equal(reads.status, "completed", "read-only status commands run in turns");
    assert.ok(!JSON.stringify(reads.result).includes(w.emu.app.appSecret), "secrets redacted");
  });
});

Deno.test("attack 4: uninitialized or unsubscribed connections cannot answer; the subscribed client's accept sends once", async () => {
  await withWorld(DEFAULT_POLICY, async (w) => {
    const asked: unknown[] = [];
    const owner = await w.client();
    const thread = await newThread(owner);
    const from = owner.received.length;
    const sending = owner.request("turn/start", {
      threadId: thread.id,
      input: [{ type: "text", text: SEND }],
    });
    const ask = await owner.waitFor((m) => m.method === "item/commandExecution/requestApproval", from);
    await sending;
    asked.push(ask.id);

    const raw = new InProcessClient(w.server);
    for (let id = 0; id < 64; id++) await raw.send({ id, result: { decision: "accept" } });
    await raw.send({ id: ask.id, result: { decision: "accept" } });
    const other = await w.client();
    await other.send({ id: ask.id, result: { decision: "accept" } });
    assert.equal(suitePosts(w.emu, "/open-apis/im/"), 0, "no hijacked approval sent anything");
    assert.ok(w.logged.some((l) => l.event === "response_ignored" && l.fields.reason === "not initialized"));
    assert.ok(
      w.logged.some((l) =>
        l.event === "response_ignored" && l.fields.reason === "this connection was not asked"
      ),
    );

    await owner.send({ id: ask.id, result: { decision: "accept" } });
    const done = await owner.waitFor((m) => m.method === "turn/completed", from);
    assert.equal((done.params as { turn: TurnView }).turn.status, "completed");
    assert.equal(suitePosts(w.emu, "/open-apis/im/"), 1, "the owner's accept sent exactly one message");
    raw.close();
  });
});

Deno.test("long-lived approvals across reconnects: only a connection that resumes the thread may answer", async () => {
  await withWorld(DEFAULT_POLICY, async (w) => {
    const first = await w.client();
    const thread = await newThread(first);
    await first.request("turn/start", { threadId: thread.id, input: [{ type: "text", text: SEND }] });
    const ask = await first.waitFor((m) => m.method === "item/commandExecution/requestApproval");
    first.close();

    const bystander = await w.client();
    await bystander.send({ id: ask.id, result: { decision: "accept" } });
    assert.equal(suitePosts(w.emu, "/open-apis/im/"), 0);

    const second = await w.client({ onServerRequest: () => ({ decision: "accept" }) });
    await second.request("thread/resume", { threadId: thread.id });
    const again = await second.waitFor((m) => m.method === "item/commandExecution/requestApproval");
    assert.equal(again.id, ask.id);
    const done = await second.waitForNotification("turn/completed");
    assert.equal((done.params as { turn: TurnView }).turn.status, "completed");
    assert.equal(suitePosts(w.emu, "/open-apis/im/"), 1);
  });
});

Deno.test("--remote-read-only: a remote can neither cause nor answer a write, and never answers a local's approval", async () => {
  await withWorld({ ...DEFAULT_POLICY, forbidWrites: true, forbiddenServices: ["mail"] }, async (w) => {
    let remoteAsked = 0;
    const remote = await w.client({
      origin: "RemoteControl",
      onServerRequest: () => {
        remoteAsked++;
        return { decision: "accept" };
      },
    });
    const remoteThread = await newThread(remote);
    assertRefused(await turn(remote, remoteThread.id, SEND), "remote write");
    assertRefused(await turn(remote, remoteThread.id, "mail +messages"), "forbidden service");
    assertRefused(
      await turn(remote, remoteThread.id, "api GET /open-apis/mail/v1/user_mailboxes/me/messages"),
      "forbidden service via api",
    );
    const agenda = await turn(remote, remoteThread.id, "calendar +agenda --as user");
    assert.equal(agenda.status, "completed", "remote reads still work");

    const local = await w.client();
    const thread = await newThread(local);
    await local.request("turn/start", { threadId: thread.id, input: [{ type: "text", text: SEND }] });
    const ask = await local.waitFor((m) => m.method === "item/commandExecution/requestApproval");
    // Under a remote policy the local thread is not the remote's to resume (B.2); its answer is ignored anyway.
    await assert.rejects(remote.request("thread/resume", { threadId: thread.id }), /thread not found/);
    await remote.send({ id: ask.id, result: { decision: "accept" } });
    assert.equal(remoteAsked, 0, "the remote was never sent an approval");
    assert.equal(suitePosts(w.emu, "/open-apis/im/"), 0);
    await local.send({ id: ask.id, result: { decision: "decline" } });
    const done = await local.waitForNotification("turn/completed");
    assert.equal((done.params as { turn: TurnView }).turn.status, "failed");
    assert.equal(suitePosts(w.emu, "/open-apis/im/"), 0, "declined: nothing sent");
  });
});

Deno.test("workspace: upload from it and download into it work; paths and symlinks out of it are refused", async () => {
  await withWorld(DEFAULT_POLICY, async (w) => {
    const c = await w.client({ onServerRequest: () => ({ decision: "accept" }) });
    const thread = await newThread(c);
    await Deno.writeTextFile(join(thread.cwd, "notes.txt"), "hello drive\n");
    const up = await turn(
      c,
      thread.id,
      `drive +upload --file notes.txt --folder-token ${fixtures.DRIVE.folder}`,
    );
    assert.equal(up.status, "completed", JSON.stringify(up.error));
    assert.equal(suitePosts(w.emu, "/open-apis/drive/v1/files/upload_all"), 1);
    const token = (up.result?.data as { file_token: string }).file_token;
    const down = await turn(c, thread.id, `drive +download --file-token ${token} --output copy.txt`);
    assert.equal(down.status, "completed");
    assert.equal(await Deno.readTextFile(join(thread.cwd, "copy.txt")), "hello drive\n");

    // A symlink placed in the workspace (by a careless user, or another process) must not lead out of it.
    await Deno.symlink(w.configDir, join(thread.cwd, "cfg"));
    await Deno.writeTextFile(join(w.serverCwd, "secret.txt"), "do not upload\n");
    await Deno.symlink(join(w.serverCwd, "secret.txt"), join(thread.cwd, "innocent.txt"));
    const uploadsBefore = suitePosts(w.emu, "/open-apis/drive/");
    for (
      const text of [
        "drive +upload --file cfg/config.json",
        "drive +upload --file innocent.txt",
        `drive +upload --file ${join(w.configDir, "config.json")}`,
        "drive +upload --file ../../../config/config.json",
        `drive +download --file-token ${token} --output cfg/planted.json`,
        `drive +download --file-token ${token} --output ../escaped.txt`,
        `drive +download --file-token ${token} --output ${join(w.serverCwd, "abs.txt")}`,
        `im +messages-send --chat-id ${fixtures.CHATS.engineering} --text @cfg/config.json --as bot`,
      ]
    ) {
      const t = await turn(c, thread.id, text);
      assert.equal(t.status, "failed", text);
      assert.equal(t.error?.error.type, "validation", `${text}: ${JSON.stringify(t.error)}`);
    }
    assert.equal(suitePosts(w.emu, "/open-apis/drive/"), uploadsBefore, "nothing uploaded");
    assert.equal(suitePosts(w.emu, "/open-apis/im/"), 0, "nothing sent");
    assert.equal(await exists(join(w.configDir, "planted.json")), false);
    assert.equal(await exists(join(w.stateDir, "workspaces", "escaped.txt")), false);
    assert.equal(await exists(join(w.serverCwd, "abs.txt")), false);
  });
});

Deno.test("prompt-injected local agent: shell syntax and chained commands are refused before anything runs", async () => {
  await withWorld(DEFAULT_POLICY, async (w) => {
    const c = await w.client({ onServerRequest: () => ({ decision: "accept" }) });
    const thread = await newThread(c);
    for (
      const text of [
        `${SEND}; config set base-url ${w.trapUrl}`,
        `calendar +agenda && config set base-url ${w.trapUrl}`,
        `calendar +agenda $(config set base-url ${w.trapUrl})`,
        "calendar +agenda `auth logout`",
        `calendar +agenda\nconfig set base-url ${w.trapUrl}`,
        `calendar +agenda > ${join(w.serverCwd, "out.json")}`,
      ]
    ) {
      await assert.rejects(
        c.request("turn/start", { threadId: thread.id, input: [{ type: "text", text }] }),
        /not supported|Invalid params/,
        text,
      );
    }
    assert.equal(suitePosts(w.emu, "/open-apis/"), 0);
    assert.deepEqual(w.trapHits, []);
    assert.deepEqual([...Deno.readDirSync(w.serverCwd)], []);
  });
});

Deno.test("B.1 --remote-forbid-service holds for what a remote turn calls: URLs, //host, encodings, other services' commands", async () => {
  await withWorld({ ...DEFAULT_POLICY, forbiddenServices: ["im", "drive"] }, async (w) => {
    const remote = await w.client({
      origin: "RemoteControl",
      onServerRequest: () => ({ decision: "accept" }),
    });
    const { id } = await newThread(remote);
    const touched = () => w.emu.requests().filter((r) => /^\/open-apis\/(im|drive)\//.test(r.path)).length;
    const data = JSON.stringify({ receive_id: fixtures.CHATS.engineering, msg_type: "text", content: "{}" });
    for (
      const text of [
        `api POST http://127.0.0.1:1/open-apis/im/v1/messages --params '{"receive_id_type":"chat_id"}' --data '${data}' --as bot`,
        "api GET https://x/open-apis/drive/v1/files --as bot",
        "api GET //x/open-apis/drive/v1/files --as bot",
        "api GET HTTPS://x/open-apis/drive/v1/files --as bot",
        "api GET /open-apis/%64rive/v1/files --as bot",
        "api GET /open-apis/DRIVE/v1/files --as bot",
        "api GET /open-apis//drive/v1/files --as bot",
        "api GET '/open-apis/drive;x/v1/files' --as bot",
        // A command of another service whose requests go to a forbidden one.
        `markdown +fetch --file-token ${fixtures.DRIVE.readme} --output readme.md --as bot`,
      ]
    ) {
      const t = await turn(remote, id, text);
      assertRefused(t, text);
      assert.match(t.error?.error.message ?? "", /host|not available to RemoteControl/, text);
    }
    assert.equal(touched(), 0, "no request reached im or drive");

    // The URL operand is refused by name, not rebased; a local client's turn is not restricted by the remote
    // policy (a foreign host is refused for every caller: tests/contract_v3_test.ts).
    const url = await turn(remote, id, "api GET https://x/open-apis/calendar/v4/calendars --as bot");
    assertRefused(url, "a host in a remote turn");
    assert.match(url.error?.error.message ?? "", /names the host "x"/);
    const local = await w.client();
    const mine = await newThread(local);
    const read = await turn(local, mine.id, "api GET /open-apis/drive/v1/files --as bot");
    assert.equal(read.status, "completed", JSON.stringify(read.error));
    assert.equal(touched(), 1);
  });
});

const notFound = (p: Promise<unknown>) => assert.rejects(p, (e: { code?: number }) => e.code === -32000);
const listed = async (c: InProcessClient) =>
  ((await c.request("thread/list")) as { data: { id: string }[] }).data.map((t) => t.id);
const turnsOf = async (c: InProcessClient, threadId: string) =>
  ((await c.request("thread/read", { threadId })) as { thread: { turns: { id: string }[] } }).thread.turns
    .map((
      t,
    ) => t.id);

for (
  const [name, policy] of [
    ["--remote-read-only", { ...DEFAULT_POLICY, forbidWrites: true }],
    ["--remote-forbid-service im", { ...DEFAULT_POLICY, forbiddenServices: ["im"] }],
    ["--remote-own-threads", { ...DEFAULT_POLICY, ownThreads: true }],
  ] satisfies [string, RemotePolicy][]
) {
  Deno.test(`B.2 under ${name} a remote device reaches only the threads and turns it started`, async () => {
    await withWorld(policy, async (w) => {
      let phoneAsked = 0;
      const phone = await w.client({
        origin: "RemoteControl",
        device: "phone",
        onServerRequest: () => {
          phoneAsked++;
          return { decision: "accept" };
        },
      });
      const tablet = await w.client({ origin: "RemoteControl", device: "tablet" });
      const local = await w.client();

      // A local thread with a turn whose output is a forbidden service's (im).
      const localThread = await newThread(local);
      const chats = await turn(local, localThread.id, "api GET /open-apis/im/v1/chats --as bot");
      assert.equal(chats.status, "completed", JSON.stringify(chats.error));
      assert.ok(
        !phone.received.some((m) => JSON.stringify(m).includes(localThread.id)),
        "not even thread/started",
      );
      assert.ok(!(await listed(phone)).includes(localThread.id));
      await notFound(phone.request("thread/read", { threadId: localThread.id }));
      await notFound(phone.request("thread/resume", { threadId: localThread.id }));
      await notFound(phone.request("turn/start", {
        threadId: localThread.id,
        input: [{ type: "text", text: "calendar +agenda --as user" }],
      }));

      // The phone's own thread: its own turns only, and never another device's view of it.
      const phoneThread = await newThread(phone);
      const mine = await turn(phone, phoneThread.id, "calendar +agenda --as user");
      assert.equal(mine.status, "completed", JSON.stringify(mine.error));
      assert.deepEqual(await listed(phone), [phoneThread.id]);
      assert.deepEqual(await listed(tablet), []);
      await notFound(tablet.request("thread/read", { threadId: phoneThread.id }));
      assert.deepEqual(
        (await listed(local)).sort(),
        [localThread.id, phoneThread.id].sort(),
        "local sees all",
      );

      // A local turn in the phone's thread: the phone sees none of it and can neither interrupt nor answer it.
      const from = phone.received.length;
      const { turn: localTurn } = await local.request("turn/start", {
        threadId: phoneThread.id,
        input: [{ type: "text", text: SEND }],
      }) as { turn: { id: string } };
      const ask = await local.waitFor((m) => m.method === "item/commandExecution/requestApproval");
      await notFound(phone.request("turn/interrupt", { threadId: phoneThread.id, turnId: localTurn.id }));
      await phone.send({ id: ask.id, result: { decision: "accept" } });
      assert.equal(suitePosts(w.emu, "/open-apis/im/"), 0, "the phone's answer was ignored");
      await local.send({ id: ask.id, result: { decision: "decline" } });
      await local.waitFor((m) =>
        m.method === "turn/completed" && (m.params as { turn: { id: string } }).turn.id === localTurn.id
      );
      assert.equal(phoneAsked, 0, "the phone was never asked");
      assert.ok(
        !phone.received.slice(from).some((m) =>
          m.method !== undefined && JSON.stringify(m).includes(localTurn.id)
        ),
        "no event of the local turn reached the phone",
      );
      assert.deepEqual(await turnsOf(phone, phoneThread.id), [mine.id]);
      assert.equal((await turnsOf(local, phoneThread.id)).length, 2);
    });
  });
}

Deno.test("B.2 without a remote policy a remote device continues this machine's threads as a local client", async () => {
  await withWorld(DEFAULT_POLICY, async (w) => {
    const local = await w.client();
    const phone = await w.client({ origin: "RemoteControl", device: "phone" });
    const thread = await newThread(local);
    const t = await turn(local, thread.id, "calendar +agenda --as user");
    assert.ok((await listed(phone)).includes(thread.id));
    assert.deepEqual(await turnsOf(phone, thread.id), [t.id]);
    await phone.request("thread/resume", { threadId: thread.id });
    assert.equal((await turn(phone, thread.id, "calendar +agenda --as user")).status, "completed");
  });
});

Deno.test("B.2 through the dev relay: the relay's client id is the device; another device's streams see nothing", async () => {
  await withWorld({ ...DEFAULT_POLICY, ownThreads: true }, async (w) => {
    const relay = DevRelay.start();
    const session = testSession(relay.baseUrl, w.server);
    const clients: RemoteClient[] = [];
    const stream = async (device: PairedDevice, streamId: string) => {
      const client = await device.connect();
      clients.push(client);
      const s = client.stream(streamId);
      await s.request("initialize", { clientInfo: { name: device.clientId, version: "1" } });
      return s;
    };
    const ids = async (s: Awaited<ReturnType<typeof stream>>) =>
      ((await s.request("thread/list", {})) as { data: { id: string }[] }).data.map((t) => t.id);
    try {
      await session.enable();
      await until("connected", () => session.status.current.status === "connected");
      // Two devices, paired the real way; the phone opens two sockets.
      const [phoneDevice, tabletDevice] = [
        await pairDevice(relay, session),
        await pairDevice(relay, session),
      ];
      const phone = await stream(phoneDevice, "s1");
      const { thread } = await phone.request("thread/start", {}) as { thread: { id: string } };
      const phoneAgain = await stream(phoneDevice, "s2");
      const tablet = await stream(tabletDevice, "s1");
      assert.deepEqual(await ids(phoneAgain), [thread.id], "the same device, another stream: its own thread");
      assert.deepEqual(await ids(tablet), []);
      await assert.rejects(tablet.request("thread/read", { threadId: thread.id }), /thread not found/);
      await assert.rejects(tablet.request("thread/resume", { threadId: thread.id }), /thread not found/);
      const opened = w.logged.filter((l) =>
        l.event === "connection_opened" && l.fields.origin === "RemoteControl"
      );
      assert.deepEqual(opened.map((l) => l.fields.device), [
        phoneDevice.clientId,
        phoneDevice.clientId,
        tabletDevice.clientId,
      ]);
    } finally {
      for (const c of clients) c.close();
      await session.close();
      await relay.close();
    }
  });
});

Deno.test("remote-control start hands its --remote-* flags to the daemon it spawns, as app-server reads them", () => {
  for (
    const flags of [
      {},
      { remoteReadOnly: true },
      { remoteForbidService: "im,drive" },
      { remoteOwnThreads: true },
      { remoteReadOnly: true, remoteForbidService: "mail", remoteOwnThreads: true },
    ]
  ) {
    const policy = remotePolicyOf(flags);
    const args = remotePolicyArgs(policy);
    const back = {
      remoteReadOnly: args.includes("--remote-read-only"),
      remoteForbidService: args[args.indexOf("--remote-forbid-service") + 1],
      remoteOwnThreads: args.includes("--remote-own-threads"),
    };
    assert.deepEqual(
      remotePolicyOf(
        args.includes("--remote-forbid-service") ? back : { ...back, remoteForbidService: undefined },
      ),
      policy,
    );
  }
});
