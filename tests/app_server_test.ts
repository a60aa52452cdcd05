/**
 * `larkit app-server` end to end: `main.ts` as a subprocess over stdio and over a Unix socket, driving turns
 * that run real larkit commands against the suite emulator.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { lineSplitter } from "../rpc/framing.ts";
import { probeSocket } from "../rpc/transports/unix.ts";
import { type Emulator, emulatorEnv, fixtures, startEmulator } from "./helpers/emulator.ts";
import { MAIN, REPO } from "./helpers/run_main.ts";
import { handshakeStatus } from "./helpers/ws_handshake.ts";

interface Msg {
  id?: number | string | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A line-oriented JSON-RPC client over any byte stream pair, with a deadline on every wait. */
class NdjsonClient {
  readonly received: Msg[] = [];
  #waiters: { test: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  #next = 1;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly done: Promise<void>;

  constructor(readable: ReadableStream<Uint8Array>, writable: WritableStream<Uint8Array>) {
    this.#writer = writable.getWriter();
    this.done = (async () => {
      const split = lineSplitter();
      for await (const chunk of readable) {
        for (const e of split.push(chunk)) if (e.kind === "line") this.#take(JSON.parse(e.text));
      }
    })();
  }

  #take(value: unknown): void {
    for (const m of (Array.isArray(value) ? value : [value]) as Msg[]) {
      this.received.push(m);
      this.#waiters = this.#waiters.filter((w) => !(w.test(m) && (w.resolve(m), true)));
    }
  }

  wait(test: (m: Msg) => boolean, what: string, ms = 20_000): Promise<Msg> {
    const seen = this.received.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
      this.#waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  async sendRaw(text: string): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(text + "\n"));
  }

  async call(method: string, params?: unknown): Promise<Msg> {
    const id = this.#next++;
    await this.sendRaw(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    return this.wait((m) => m.id === id && m.method === undefined, `reply to ${method}`);
  }

  async initialize(): Promise<void> {
    const r = await this.call("initialize", { clientInfo: { name: "e2e", version: "1.0" } });
    assert.ok(r.result, JSON.stringify(r));
    await this.sendRaw(JSON.stringify({ method: "initialized" }));
  }

  async turn(threadId: string, text: string): Promise<{ turnId: string; completed: () => Promise<Msg> }> {
    const r = await this.call("turn/start", { threadId, input: [{ type: "text", text }] });
    assert.ok(r.result, JSON.stringify(r));
    const turnId = (r.result.turn as { id: string }).id;
    return {
      turnId,
      completed: () =>
        this.wait(
          (m) => m.method === "turn/completed" && (m.params?.turn as { id: string }).id === turnId,
          `turn/completed of ${text}`,
        ),
    };
  }

  eventsOf(turnId: string): Msg[] {
    return this.received.filter((m) => m.method !== undefined && m.params?.turnId === turnId);
  }

  async close(): Promise<void> {
    await this.#writer.close().catch(() => {});
  }
}

/** `main.ts app-server` as a process, under umask 022 like a default login shell, on the emulator's app. */
function spawnServer(
  emu: Emulator,
  listen: string,
  configDir: string,
  extra: string[] = [],
): Deno.ChildProcess {
  return new Deno.Command("/bin/sh", {
    args: [
      "-c",
      'umask 022; exec "$@"',
      "sh",
      Deno.execPath(),
      "run",
      "-A",
      "--quiet",
      MAIN,
      "app-server",
      "--listen",
      listen,
      ...extra,
    ],
    cwd: REPO,
    env: {
      HOME: Deno.env.get("HOME") ?? "/tmp",
      PATH: Deno.env.get("PATH") ?? "",
      ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR") as string } : {}),
      NO_COLOR: "1",
      RUST_BACKTRACE: "0",
      LARKIT_CONFIG_DIR: configDir,
      LARKIT_REMOTE_META: "off",
      ...emulatorEnv(emu),
    },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** `app-server` on a unix socket in a fresh directory, on a fresh emulator; stdin closed, the socket is the way in. */
async function unixServer() {
  const emu = await startEmulator({});
  const dir = await Deno.makeTempDir({ prefix: "larkit-e2e-" });
  const sock = join(dir, "rpc.sock");
  const child = spawnServer(emu, `unix:${sock}`, dir);
  const stderr = new Response(child.stderr).text();
  await child.stdin.close();
  return { emu, dir, sock, child, stderr };
}

/** A client of the server listening on `sock`, once the socket answers (the server starts in the background). */
async function connectUnix(sock: string): Promise<NdjsonClient> {
  for (let i = 0; i < 200 && await probeSocket(sock) !== "live"; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const conn = await Deno.connect({ transport: "unix", path: sock });
  return new NdjsonClient(conn.readable, conn.writable);
}

type TurnCompleted = { turn: { status: string; exitCode: number; result?: { ok: boolean; data: unknown } } };

Deno.test("stdio: errors keep the connection usable; a calendar +agenda turn streams items, deltas, completion", async () => {
  const emu = await startEmulator({});
  const child = spawnServer(emu, "stdio", await Deno.makeTempDir({ prefix: "larkit-e2e-" }));
  const stderr = new Response(child.stderr).text();
  const c = new NdjsonClient(child.stdout, child.stdin);
  try {
    const early = await c.call("thread/list", {});
    assert.deepEqual(early.error, { code: -32600, message: "Not initialized" });
    await c.initialize();
    const again = await c.call("initialize", { clientInfo: { name: "e2e", version: "1" } });
    assert.equal(again.error?.message, "Already initialized");
    await c.sendRaw("{this is not json");
    assert.equal((await c.wait((m) => m.error?.code === -32700, "parse error")).id, null);
    assert.equal((await c.call("nope/nothing")).error?.code, -32601);
    assert.equal((await c.call("turn/start", { threadId: 42 })).error?.code, -32602);

    const started = await c.call("thread/start", {});
    const threadId = (started.result?.thread as { id: string }).id;
    const turn = await c.turn(threadId, "larkit calendar +agenda --as bot");
    const done = (await turn.completed()).params as unknown as TurnCompleted;
    assert.equal(done.turn.status, "completed");
    assert.equal(done.turn.exitCode, 0);
    assert.equal(done.turn.result?.ok, true);
    const events = c.eventsOf(turn.turnId).map((m) => m.method);
    assert.deepEqual(events.slice(0, 3), ["item/started", "item/completed", "item/started"]);
    assert.ok(events.includes("command/exec/outputDelta"));
    assert.equal(events.at(-1), "item/completed");
    const deltas = c.eventsOf(turn.turnId).filter((m) => m.method === "command/exec/outputDelta")
      .map((m) => m.params?.delta).join("");
    assert.deepEqual(JSON.parse(deltas), done.turn.result);
    const turnStarted = c.received.findIndex((m) => m.method === "turn/started");
    const reply = c.received.findIndex((m) =>
      (m.result?.turn as { id?: string } | undefined)?.id === turn.turnId
    );
    assert.ok(reply < turnStarted, "turn/start's reply precedes turn/started");
  } finally {
    await c.close();
    assert.equal((await child.status).code, 0);
    await c.done;
    await stderr;
    await emu.stop();
  }
});

Deno.test("unix socket: a write asks for approval — accepted it is sent, declined nothing is sent", async () => {
  const { emu, sock, child, stderr } = await unixServer();
  let c: NdjsonClient | undefined;
  try {
    c = await connectUnix(sock);
    await c.initialize();
    const threadId = ((await c.call("thread/start")).result?.thread as { id: string }).id;
    const send =
      `im +messages-send --chat-id ${fixtures.CHATS.engineering} --text "hello from a turn" --as bot`;
    for (const decision of ["accept", "decline"] as const) {
      emu.clearRequests();
      const turn = await c.turn(threadId, send);
      const ask = await c.wait(
        (m) => m.method === "item/commandExecution/requestApproval" && m.params?.turnId === turn.turnId,
        "approval request",
      );
      assert.equal(ask.params?.risk, "write");
      await c.sendRaw(JSON.stringify({ jsonrpc: "2.0", id: ask.id, result: { decision } }));
      const done = (await turn.completed()).params as unknown as TurnCompleted;
      const posts = emu.requests().filter((r) => r.method === "POST" && r.path.startsWith("/open-apis/im/"));
      if (decision === "accept") {
        assert.equal(done.turn.status, "completed");
        assert.equal(posts.length, 1);
      } else {
        assert.equal(done.turn.status, "failed");
        assert.equal(posts.length, 0);
      }
    }
  } finally {
    await c?.close();
    await c?.done.catch(() => {/* closing the socket cancels its reader */});
    child.kill("SIGINT");
    await child.status;
    await stderr;
    await emu.stop();
  }
});

Deno.test("turn/interrupt cancels a command waiting on a slow suite response", async () => {
  const emu = await startEmulator({});
  const child = spawnServer(emu, "stdio", await Deno.makeTempDir({ prefix: "larkit-e2e-" }));
  const stderr = new Response(child.stderr).text();
  const c = new NdjsonClient(child.stdout, child.stdin);
  try {
    await c.initialize();
    const threadId = ((await c.call("thread/start")).result?.thread as { id: string }).id;
    emu.faults.delay({ path: "/open-apis/calendar", ms: 15_000 });
    const turn = await c.turn(threadId, "calendar +agenda --as bot");
    await c.wait((m) =>
      m.method === "item/started" && m.params?.turnId === turn.turnId &&
      (m.params?.item as { type: string }).type === "commandExecution", "command started");
    await new Promise((r) => setTimeout(r, 300));
    const t0 = performance.now();
    assert.deepEqual((await c.call("turn/interrupt", { threadId, turnId: turn.turnId })).result, {});
    const done = (await turn.completed()).params as unknown as TurnCompleted;
    assert.equal(done.turn.status, "interrupted");
    assert.ok(performance.now() - t0 < 5000, "interrupted well before the slow response");
  } finally {
    emu.faults.clear();
    await c.close();
    await child.status;
    await c.done;
    await stderr;
    await emu.stop();
  }
});

const modeOf = async (path: string) => (await Deno.stat(path)).mode! & 0o777;

Deno.test("unix socket under umask 022: private state; guessed or foreign answers approve nothing, the owner's does", async () => {
  const { emu, dir, sock, child, stderr } = await unixServer();
  const clients: NdjsonClient[] = [];
  try {
    const owner = await connectUnix(sock);
    const stranger = await connectUnix(sock);
    const other = await connectUnix(sock);
    clients.push(owner, stranger, other);
    await owner.initialize();
    const thread = (await owner.call("thread/start")).result?.thread as { id: string; cwd: string };
    const stateDir = join(dir, "state");
    assert.equal(await modeOf(stateDir), 0o700);
    assert.equal(await modeOf(join(stateDir, "state.db")), 0o600);
    assert.equal(await modeOf(thread.cwd), 0o700);
    assert.ok(thread.cwd.startsWith(join(stateDir, "workspaces")), thread.cwd);

    emu.clearRequests();
    const send =
      `im +messages-send --chat-id ${fixtures.CHATS.engineering} --text "hello from a turn" --as bot`;
    const turn = await owner.turn(thread.id, send);
    const ask = await owner.wait(
      (m) => m.method === "item/commandExecution/requestApproval" && m.params?.turnId === turn.turnId,
      "approval request",
    );
    assert.match(String(ask.id), /^req-[0-9a-f]{32}$/);
    // An uninitialized client guessing ids, then answering the real one; an initialized stranger too.
    for (let id = 0; id < 64; id++) {
      await stranger.sendRaw(JSON.stringify({ jsonrpc: "2.0", id, result: { decision: "accept" } }));
    }
    await stranger.sendRaw(JSON.stringify({ jsonrpc: "2.0", id: ask.id, result: { decision: "accept" } }));
    await other.initialize();
    await other.sendRaw(JSON.stringify({ jsonrpc: "2.0", id: ask.id, result: { decision: "accept" } }));
    // A round trip on each connection: their answers were read and handled before we look.
    assert.equal((await stranger.call("thread/list")).error?.message, "Not initialized");
    assert.ok((await other.call("thread/list")).result);
    const read = await owner.call("thread/read", { threadId: thread.id, includeTurns: false });
    assert.deepEqual((read.result?.thread as { status: { activeFlags: string[] } }).status.activeFlags, [
      "waitingOnApproval",
    ]);
    assert.equal(
      emu.requests().filter((r) => r.method === "POST" && r.path.startsWith("/open-apis/im/")).length,
      0,
    );

    await owner.sendRaw(JSON.stringify({ jsonrpc: "2.0", id: ask.id, result: { decision: "accept" } }));
    const done = (await turn.completed()).params as unknown as TurnCompleted;
    assert.equal(done.turn.status, "completed");
    assert.equal(
      emu.requests().filter((r) => r.method === "POST" && r.path.startsWith("/open-apis/im/")).length,
      1,
    );

    const refused = await owner.turn(thread.id, `-- config set base-url http://127.0.0.1:9`);
    const r = (await refused.completed()).params as unknown as {
      turn: { status: string; error: { error: { type: string; subtype: string } } };
    };
    assert.deepEqual([r.turn.error.error.type, r.turn.error.error.subtype], ["authorization", "permission"]);
  } finally {
    for (const c of clients) {
      await c.close();
      await c.done.catch(() => {/* closing the socket cancels its reader */});
    }
    child.kill("SIGINT");
    await child.status;
    const log = await stderr;
    assert.match(log, /response_ignored|connection_opened/);
    await emu.stop();
  }
});

/** Reads a child's stderr as it arrives until `pattern` matches; the rest keeps draining in the background. */
async function stderrUntil(
  child: Deno.ChildProcess,
  pattern: RegExp,
): Promise<{ match: RegExpMatchArray; rest: Promise<string> }> {
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
    const match = text.match(pattern);
    if (match) {
      const rest = (async () => {
        let more = text;
        for (;;) {
          const next = await reader.read();
          if (next.done) return more;
          more += next.value;
        }
      })();
      return { match, rest };
    }
  }
  throw new Error(`stderr never matched ${pattern}: ${text}`);
}

Deno.test("WebSocket listener: foreign Host/Origin get 403, no token 401; the printed token runs a turn", async () => {
  const emu = await startEmulator({});
  const dir = await Deno.makeTempDir({ prefix: "larkit-e2e-" });
  const child = spawnServer(emu, "ws://127.0.0.1:0", dir, ["--ws-allow-origin", "http://localhost:5173"]);
  await child.stdin.close();
  let rest: Promise<string> | undefined;
  try {
    const seen = await stderrUntil(
      child,
      /listening on ws:\/\/127\.0\.0\.1:(\d+)[\s\S]*token ([0-9a-f]{64}) \(also in (\S+)\)/,
    );
    rest = seen.rest;
    const [, portText, token, tokenFile] = seen.match;
    const port = Number(portText);
    assert.equal(await modeOf(tokenFile), 0o600);
    assert.equal((await Deno.readTextFile(tokenFile)).trim(), token);

    const host = `127.0.0.1:${port}`;
    const bearer = { Authorization: `Bearer ${token}` };
    assert.equal(
      await handshakeStatus(port, { Host: `attacker.example:${port}`, ...bearer }),
      403,
      "DNS rebinding",
    );
    assert.equal(await handshakeStatus(port, { Host: host, Origin: "https://evil.example", ...bearer }), 403);
    assert.equal(await handshakeStatus(port, { Host: host }), 401);
    assert.equal(await handshakeStatus(port, { Host: host }, "/?token=wrong"), 401);

    const ws = new WebSocket(`ws://127.0.0.1:${port}/?token=${token}`);
    const messages: Msg[] = [];
    const waitFor = (test: (m: Msg) => boolean) =>
      new Promise<Msg>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("timed out")), 20_000);
        const check = () => {
          const m = messages.find(test);
          if (m) {
            clearTimeout(timer);
            resolve(m);
          } else setTimeout(check, 10);
        };
        check();
      });
    ws.onmessage = (e) => messages.push(JSON.parse(e.data));
    await new Promise((r) => ws.onopen = r);
    ws.send(
      JSON.stringify({ id: 1, method: "initialize", params: { clientInfo: { name: "ws", version: "1" } } }),
    );
    await waitFor((m) => m.id === 1);
    ws.send(JSON.stringify({ id: 2, method: "thread/start" }));
    const threadId = ((await waitFor((m) => m.id === 2)).result?.thread as { id: string }).id;
    ws.send(
      JSON.stringify({
        id: 3,
        method: "turn/start",
        params: { threadId, input: [{ type: "text", text: "calendar +agenda --as bot" }] },
      }),
    );
    const done = await waitFor((m) => m.method === "turn/completed");
    assert.equal((done.params as unknown as TurnCompleted).turn.status, "completed");
    const closed = new Promise((r) => ws.onclose = r);
    ws.close();
    await closed;
  } finally {
    child.kill("SIGINT");
    await child.status;
    await rest;
    await emu.stop();
  }
});
