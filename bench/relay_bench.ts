/**
 * Relay benchmark, every party in its own process (`deno run -A bench/relay_bench.ts`): the dev relay, the
 * local server (a remote-control session in front of an echo app server) and the remote client (larkit's own
 * `RemoteClient`). Each process's peak RSS is the kernel's (VmHWM in /proc/<pid>/status), read before it is
 * stopped; each scenario gets fresh processes, so a peak belongs to one scenario. No asserts: it prints what it
 * times, the numbers, and the goals of issue 16 beside them.
 *
 *  Each line also gives the CPU time (user + system, from /proc) every process spent on the scenario: under
 *  other load, wall times swing several-fold while CPU costs hold. Big also gives each process's minor page
 *  faults: fresh memory the kernel mapped in, about 2 µs each on a virtual machine.
 *
 *  raw           one-way WebSocket send of 100 MiB (150 KiB text frames) from one process to another, timed
 *                from the first send until the receiver reports the last byte: the baseline.
 *  big           one 100 MiB result, server → relay → client, timed from the request until the client holds
 *                the reassembled message.
 *  rtt           2,000 echo requests one at a time (each waits for its answer): round trips per second.
 *  pipelined     10,000 echo requests sent at once: answers per second.
 *  head-of-line  client A sends a 100 MiB request while client B, in a process of its own (another device),
 *                sends small requests one at a time: B's worst round trip overlapping A's request (from A's
 *                send until its answer), against B's median before it.
 *  floor         what the same three processes and sockets cost before any of larkit's work: a relay that
 *                forwards each text frame as it is (native WebSocket server), a server that echoes it (`npm:ws`,
 *                as the relay client), a client sending small frames one at a time, then all at once, through
 *                `npm:ws` (as `RemoteClient`) and through the native `WebSocket`. The rtt and pipelined figures
 *                can be no better than this on the machine at hand. Then the server writes the 100 MiB message's
 *                1,024 segment frames (built once, written as larkit writes a segment's bytes) and the client
 *                counts them: what big's frames cost the three processes before any of larkit's work. Last, the
 *                protocol floor of big: the server frames the 100 MiB result with larkit's `frameMessage` (the
 *                protocol's segments and base64) and writes each frame's bytes; the relay forwards them; the
 *                client decodes every segment's base64 into one buffer and makes the one string. No buffer, acks,
 *                streams, validation or reassembly checks: the least any client of the protocol must do.
 *
 *  accept        issue 35's goals as ratios, each the median of five pairs run back to back: rtt against the
 *                floor on npm:ws (>= 0.9x), big against raw (<= 3x) beside the protocol floor of big against
 *                raw, the server's peak RSS during big against the message (<= 2.5x). Both rtt and the floor are
 *                timed after the same warm-up, long enough for the JIT to settle on either path.
 *
 *  `deno run -A bench/relay_bench.ts --cpu-prof=DIR --only head-of-line` also writes every process's CPU profile
 *  to DIR (open in Chrome DevTools); `--v8-flags=--trace-gc` passes V8 flags to every process.
 */
import { Session } from "node:inspector";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { abortableSleep } from "../cli/provider.ts";
import type { AppServer, Connection, Origin, Outbound } from "../rpc/connection.ts";
import { DevRelay } from "../relay/dev_relay.ts";
import { asciiText, frameMessage } from "../relay/segments.ts";
import { RemoteClient } from "../relay/remote_client.ts";
import { RemoteControlSession } from "../relay/session.ts";
import { openWsSocket, type RelaySocket } from "../relay/socket.ts";
import { EnrollmentStore } from "../relay/store.ts";
import { normalizeRelayBaseUrl } from "../relay/url.ts";

const MiB = 1024 * 1024;
const BIG = 100 * MiB - 64;
const RTT_COUNT = 2_000;
const PIPELINED_COUNT = 10_000;
const SELF = fileURLToPath(import.meta.url);

/** The big result's JSON text (the echo app's and the protocol floor's): `size` x's as one string value. */
function bigResultText(id: number, size: number): string {
  return `{"id":${id},"result":"${"x".repeat(size)}"}`;
}

// ---- roles (child processes) ------------------------------------------------------------------------------

class EchoApp implements AppServer {
  connect(origin: Origin, out: Outbound): Connection {
    return {
      id: crypto.randomUUID(),
      origin,
      receive: async (text) => {
        // A 100 MiB request is not parsed: the echo app is not what is measured, only its id and method are read.
        const m = text.length > MiB
          ? {
            id: Number(/"id":(\d+)/.exec(text.slice(0, 200))?.[1]),
            method: /"method":"([^"]+)"/.exec(text.slice(0, 200))?.[1],
            params: undefined,
          }
          : JSON.parse(text) as { id?: number; method?: string; params?: { size?: number } };
        if (m.id === undefined) return;
        // The big result's JSON text is written once, as an app that streams its output would.
        if (m.method === "big") {
          return await out.send(bigResultText(m.id, m.params?.size ?? 0));
        }
        const result = m.method === "sink" ? { bytes: text.length } : m.params ?? {};
        await out.send(JSON.stringify({ id: m.id, result }));
      },
      close: () => {},
    };
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function say(line: unknown): void {
  console.log(JSON.stringify(line));
}

async function untilStdinEnds(): Promise<void> {
  for await (const _ of Deno.stdin.readable) {
    // Nothing is sent on stdin; its end is the signal to stop.
  }
}

async function roleRelay(): Promise<void> {
  // The bench's clients (other processes) connect without pairing: it measures the relay path, not admission.
  const relay = DevRelay.start({ allowUnpaired: true });
  say({ baseUrl: relay.baseUrl });
  await untilStdinEnds();
  await relay.close();
}

async function roleServer(baseUrl: string): Promise<void> {
  const session = new RemoteControlSession({
    urls: normalizeRelayBaseUrl(baseUrl),
    appServer: new EchoApp(),
    getAccount: () => Promise.resolve({ accountId: "bench", accessToken: "t", kind: "user" }),
    store: new EnrollmentStore(new DatabaseSync(":memory:")),
    clock: { now: () => Date.now(), sleep: abortableSleep },
    random: { uuid: () => crypto.randomUUID(), bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) },
    fetch: (i, init) => fetch(i, init),
    server: { name: "bench", os: Deno.build.os, arch: Deno.build.arch, appServerVersion: "bench" },
    clientName: "",
  });
  await session.enable();
  while (session.status.current.status !== "connected") await new Promise((r) => setTimeout(r, 5));
  say({ connected: true });
  await untilStdinEnds();
  await session.close();
}

async function initialized(baseUrl: string, clientId: string) {
  const url = new URL(baseUrl);
  const client = await RemoteClient.connect(
    `ws://${url.host}/dev/client?client_id=${encodeURIComponent(clientId)}`,
    clientId,
  );
  const stream = client.stream("s1");
  await stream.request("initialize", {});
  return { client, stream };
}

/**
 * Round trips before the timed ones, as the floor's client makes: both are timed at steady state. After 200,
 * larkit's longer path was still tiering up (230-300 µs of CPU per round trip against 160-166 µs later, while
 * the floor had settled), so the ratio measured the JIT's progress more than the path.
 */
const WARM_UP = 3_000;

async function roleClient(baseUrl: string, scenario: string): Promise<void> {
  const { client, stream } = await initialized(baseUrl, "bench");
  if (scenario === "rtt" || scenario === "pipelined") {
    for (let i = 0; i < WARM_UP; i++) await stream.request("echo", { i });
  }
  // The conductor reads every process's CPU time here, so start-up is not counted in the scenario's.
  say({ ready: true });
  await new Promise((r) => setTimeout(r, 100));
  if (scenario === "big") {
    const t0 = performance.now();
    const result = await stream.request("big", { size: BIG });
    const ms = performance.now() - t0;
    if (typeof result !== "string" || result.length !== BIG) {
      throw new Error("100 MiB result arrived damaged");
    }
    say({ ms });
  } else if (scenario === "rtt") {
    const t0 = performance.now();
    for (let i = 0; i < RTT_COUNT; i++) await stream.request("echo", { i });
    say({ perSecond: RTT_COUNT / ((performance.now() - t0) / 1000) });
  } else if (scenario === "pipelined") {
    const t0 = performance.now();
    const all: Promise<unknown>[] = [];
    for (let i = 0; i < PIPELINED_COUNT; i++) all.push(stream.request("echo", { i }));
    await Promise.all(all);
    say({ perSecond: PIPELINED_COUNT / ((performance.now() - t0) / 1000) });
  } else if (scenario === "head-of-line") {
    // Client B is another process (another device): A's own JSON encoding of its 100 MiB must not count.
    const startAt = Date.now();
    await stream.request("sink", { data: "y".repeat(BIG) });
    say({ startAt, endAt: Date.now() });
  }
  client.close();
  // Alive until the conductor has read this process's peak RSS and CPU time from /proc.
  await untilStdinEnds();
}

/** Client B of head-of-line: small requests one at a time until stdin ends, then every (start, round trip). */
async function roleClientB(baseUrl: string): Promise<void> {
  const b = await initialized(baseUrl, "bench-b");
  let stop = false;
  void untilStdinEnds().then(() => stop = true);
  say({ ready: true });
  const samples: [number, number][] = [];
  for (let i = 0; i < 1_000_000 && !stop; i++) {
    const at = Date.now();
    const t = performance.now();
    await b.stream.request("echo", {});
    samples.push([at, performance.now() - t]);
  }
  say({ samples });
  b.client.close();
}

async function roleRawReceiver(): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    let bytes = 0;
    socket.onmessage = (ev) => {
      bytes += (ev.data as string).length;
      if (bytes >= BIG) socket.send("done");
    };
    return response;
  });
  say({ port: server.addr.port });
  await untilStdinEnds();
  await server.shutdown();
}

async function roleRawSender(port: string): Promise<void> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
  await new Promise((r) => ws.onopen = r);
  const frame = "x".repeat(150 * 1024);
  const done = new Promise((r) => ws.onmessage = r);
  const t0 = performance.now();
  for (let sent = 0; sent < BIG; sent += frame.length) ws.send(frame);
  await done;
  say({ ms: performance.now() - t0 });
  ws.close();
  // Alive until the conductor has read this process's peak RSS and CPU time from /proc.
  await untilStdinEnds();
}

/** The floor's relay: forwards each frame between the one server socket and the one client socket. */
async function roleFloorRelay(): Promise<void> {
  let server: WebSocket | undefined;
  let client: WebSocket | undefined;
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    if (new URL(req.url).pathname === "/server") {
      server = socket;
      socket.onmessage = (ev) => client?.send(ev.data);
    } else {
      client = socket;
      socket.onmessage = (ev) => server?.send(ev.data);
    }
    return response;
  });
  say({ port: http.addr.port });
  await untilStdinEnds();
  await http.shutdown();
}

/** An `npm:ws` socket as the relay client opens it (relay/socket.ts). */
async function floorWsSocket(url: string, onText: (text: string) => void): Promise<RelaySocket> {
  const socket = await openWsSocket(url, {}, { timeoutMs: 10_000, signal: new AbortController().signal });
  socket.listen({ onText, onBinary: () => {}, onActivity: () => {}, onClose: () => {} });
  return socket;
}

/** The segments of the 100 MiB message as the floor sends them: 1,024 frames of the size larkit's are. */
const BIG_SEGMENTS = 1024;

/** One segment frame's bytes: a `server_message_chunk` envelope around 100 KiB of base64, as larkit writes it. */
function floorSegment(): Uint8Array {
  const b64 = new Uint8Array(Math.ceil(BIG / BIG_SEGMENTS)).fill(0x78).toBase64();
  return new TextEncoder().encode(
    `{"type":"server_message_chunk","segment_id":0,"segment_count":${BIG_SEGMENTS},"message_size_bytes":${BIG},` +
      `"message_chunk_base64":"${b64}","client_id":"bench","stream_id":"s1","seq_id":1}`,
  );
}

async function roleFloorServer(port: string): Promise<void> {
  const segment = floorSegment();
  const socket: RelaySocket = await floorWsSocket(
    `ws://127.0.0.1:${port}/server`,
    // "big" asks for the 100 MiB message's frames as built once; "message" for the message as the protocol
    // carries it, framed here (the echo app's result text, as in big); anything else is echoed.
    (text) => {
      if (text === "big") {
        for (let i = 0; i < BIG_SEGMENTS; i++) socket.sendBytes?.(segment);
      } else if (text === "message") {
        const frames = frameMessage("server", bigResultText(1, BIG), {
          client_id: "bench",
          stream_id: "s1",
          seq_id: 1,
        });
        if (!Array.isArray(frames)) throw frames;
        for (const frame of frames) {
          socket.sendBytes?.(frame.bytes?.() ?? new TextEncoder().encode(frame.text));
        }
      } else {
        socket.send(text);
      }
    },
  );
  say({ connected: true });
  await untilStdinEnds();
  socket.terminate();
}

/** The floor's client: `ws` (npm:ws, like RemoteClient) or `native`; one-at-a-time, then pipelined. */
async function roleFloorClient(port: string, kind: string): Promise<void> {
  const url = `ws://127.0.0.1:${port}/client`;
  let send: (text: string) => void;
  let close: () => void;
  let onText: (text: string) => void = () => {};
  if (kind === "native") {
    const ws = new WebSocket(url);
    await new Promise((r) => ws.onopen = r);
    ws.onmessage = (ev) => onText(ev.data);
    send = (text) => ws.send(text);
    close = () => ws.close();
  } else {
    const socket = await floorWsSocket(url, (text) => onText(text));
    send = (text) => socket.send(text);
    close = () => socket.terminate();
  }
  const frame = (i: number) =>
    `{"type":"client_message","client_id":"bench","stream_id":"s1","seq_id":${i},"message":{"jsonrpc":"2.0","id":${i},"method":"echo","params":{"i":${i}}}}`;
  // Warm up, then let the conductor read the CPU times.
  for (let i = 0; i < WARM_UP; i++) await new Promise<void>((r) => (onText = () => r(), send(frame(i))));
  say({ ready: true });
  await new Promise((r) => setTimeout(r, 100));
  let t0 = performance.now();
  for (let i = 0; i < RTT_COUNT; i++) await new Promise<void>((r) => (onText = () => r(), send(frame(i))));
  const rtt = RTT_COUNT / ((performance.now() - t0) / 1000);
  say({ rtt });
  await new Promise((r) => setTimeout(r, 100));
  t0 = performance.now();
  let left = PIPELINED_COUNT;
  const all = new Promise<void>((r) => onText = () => --left === 0 && r());
  for (let i = 0; i < PIPELINED_COUNT; i++) send(frame(i));
  await all;
  say({ pipelined: PIPELINED_COUNT / ((performance.now() - t0) / 1000) });
  await new Promise((r) => setTimeout(r, 100));
  t0 = performance.now();
  left = BIG_SEGMENTS;
  const segments = new Promise<void>((r) => onText = () => --left === 0 && r());
  send("big");
  await segments;
  say({ bigMs: performance.now() - t0 });
  await new Promise((r) => setTimeout(r, 100));
  t0 = performance.now();
  const message = new Promise<string>((r) => onText = protocolReceiver(r));
  send("message");
  if ((await message).length !== bigResultText(1, 0).length + BIG) {
    throw new Error("protocol floor: the message arrived damaged");
  }
  say({ messageMs: performance.now() - t0 });
  close();
}

/**
 * The protocol floor's receiving side: each segment's base64 decoded into one buffer at its place, then the
 * message's one string (ASCII here). Only the fields it needs are read from each frame.
 */
function protocolReceiver(done: (message: string) => void): (frame: string) => void {
  let whole: Uint8Array | undefined;
  let at = 0;
  let left = 0;
  return (frame) => {
    const head = frame.slice(0, 256);
    if (!whole) {
      whole = new Uint8Array(Number(/"message_size_bytes":(\d+)/.exec(head)?.[1]));
      left = Number(/"segment_count":(\d+)/.exec(head)?.[1]);
    }
    const from = frame.indexOf('"message_chunk_base64":"') + '"message_chunk_base64":"'.length;
    at += whole.subarray(at).setFromBase64(frame.slice(from, frame.indexOf('"', from))).written;
    if (--left === 0) done(asciiText(whole.subarray(0, at)));
  };
}

// ---- the conductor ----------------------------------------------------------------------------------------

interface Child {
  pid: number;
  /** The next JSON line the child prints. */
  line(): Promise<Record<string, unknown>>;
  /** Peak RSS in MiB so far (the kernel's high-water mark). */
  peakMiB(): number;
  /** CPU time (user + system) in ms so far: what a scenario costs, less sensitive to other load than wall time. */
  cpuMs(): number;
  /** Minor page faults so far: fresh memory the kernel had to map in (large buffers and strings cost these). */
  faults(): number;
  /** Closes the child's stdin (its signal to finish) without waiting for it to exit. */
  stdinEnd(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts one role in its own process; `scenario` names its CPU profile when profiling. */
function spawn(scenario: string, ...args: string[]): Child {
  const passed = [
    ...(options.v8Flags ? [`--v8-flags=${options.v8Flags}`] : []),
    "--quiet",
    SELF,
    ...(options.cpuProf ? [`--cpu-prof=${options.cpuProf}/${scenario}-${args[0]}.cpuprofile`] : []),
  ];
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...passed, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  return {
    pid: child.pid,
    async line() {
      for (let i = 0; i < 1_000_000 && !buf.includes("\n"); i++) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`bench ${args[0]} ended without output`);
        buf += value;
      }
      const nl = buf.indexOf("\n");
      const text = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      return JSON.parse(text);
    },
    peakMiB() {
      const m = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${child.pid}/status`));
      return m ? Number(m[1]) / 1024 : NaN;
    },
    cpuMs() {
      // Fields 14 and 15 of /proc/<pid>/stat (utime, stime) in clock ticks, counted after the command's name.
      const stat = Deno.readTextFileSync(`/proc/${child.pid}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    faults() {
      // Field 10 of /proc/<pid>/stat (minflt), counted after the command's name as above.
      const stat = Deno.readTextFileSync(`/proc/${child.pid}/stat`);
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[7]);
    },
    async stdinEnd() {
      await child.stdin.close().catch(() => {});
    },
    async stop() {
      await child.stdin.close().catch(() => {});
      await child.status;
      reader.releaseLock();
      await child.stdout.cancel().catch(() => {});
    },
  };
}

interface Measured {
  result: Record<string, unknown>;
  /** Each process's peak RSS in MiB. */
  peaks: PerParty;
  /** CPU ms each process spent on the scenario itself (after start-up and the client's initialize). */
  cpu: PerParty;
  /** Minor page faults each process took during the scenario (through the relay only). */
  faults?: PerParty;
}

type Party = "relay" | "server" | "client";
type PerParty = Record<Party, number>;

function perParty(of: (party: Party) => number): PerParty {
  return { relay: of("relay"), server: of("server"), client: of("client") };
}

/**
 * Starts counting what each party spends from now on (`read`: a process's CPU ms or page faults so far; a party
 * may be several processes, as head-of-line's two clients); the function returned gives the amounts since.
 */
function meter(processes: Record<Party, Child[]>, read: (c: Child) => number): () => PerParty {
  const total = (party: Party) => processes[party].reduce((n, c) => n + read(c), 0);
  const start = perParty(total);
  return () => perParty((party) => total(party) - start[party]);
}

const cpuMs = (c: Child) => c.cpuMs();

async function throughRelay(scenario: string): Promise<Measured> {
  const relay = spawn(scenario, "relay");
  const { baseUrl } = await relay.line() as { baseUrl: string };
  const server = spawn(scenario, "server", baseUrl);
  await server.line();
  const client = spawn(scenario, "client", baseUrl, scenario);
  await client.line();
  const processes = { relay: [relay], server: [server], client: [client] };
  const cpuSpent = meter(processes, cpuMs);
  const faultsTaken = meter(processes, (c) => c.faults());
  const result = await client.line();
  const faults = faultsTaken();
  const peaks = { relay: relay.peakMiB(), server: server.peakMiB(), client: client.peakMiB() };
  const cpu = cpuSpent();
  await client.stop();
  await server.stop();
  await relay.stop();
  return { result, peaks, cpu, faults };
}

/** Head-of-line: B (its own process) runs before, during and after A's 100 MiB request. */
async function headOfLine(): Promise<Measured> {
  const relay = spawn("head-of-line", "relay");
  const { baseUrl } = await relay.line() as { baseUrl: string };
  const server = spawn("head-of-line", "server", baseUrl);
  await server.line();
  const b = spawn("head-of-line", "client-b", baseUrl);
  await b.line();
  const a = spawn("head-of-line", "client", baseUrl, "head-of-line");
  await a.line();
  const cpuSpent = meter({ relay: [relay], server: [server], client: [a, b] }, cpuMs);
  const { startAt, endAt } = await a.line() as { startAt: number; endAt: number };
  const cpu = cpuSpent();
  const peaks = { relay: relay.peakMiB(), server: server.peakMiB(), client: a.peakMiB() };
  await b.stdinEnd();
  const { samples } = await b.line() as { samples: [number, number][] };
  for (const c of [a, b, server, relay]) await c.stop();
  const quiet = samples.filter(([at]) => at < startAt).map(([, ms]) => ms).sort((x, y) => x - y);
  // A round trip overlapping A's request in any way counts as "during".
  const during = samples.filter(([at, ms]) => at + ms >= startAt && at <= endAt);
  const worst = during.reduce((w, x) => x[1] > w[1] ? x : w, [startAt, 0]);
  return {
    result: {
      medianQuietMs: quiet[quiet.length >> 1],
      worstMs: worst[1],
      worstAt: worst[0],
      worstAtMs: worst[0] - startAt,
      transferMs: endAt - startAt,
      samples: during.length,
    },
    peaks,
    cpu,
  };
}

async function raw(): Promise<Measured> {
  const receiver = spawn("raw", "raw-receiver");
  const { port } = await receiver.line() as { port: number };
  const sender = spawn("raw", "raw-sender", String(port));
  const result = await sender.line();
  const peaks = { relay: 0, server: receiver.peakMiB(), client: sender.peakMiB() };
  const cpu = { relay: 0, server: receiver.cpuMs(), client: sender.cpuMs() };
  await sender.stop();
  await receiver.stop();
  return { result, peaks, cpu };
}

/** The floor with one client kind: round trips and pipelined answers per second, CPU per round trip. */
async function floor(
  kind: string,
): Promise<
  { rtt: number; pipelined: number; cpuPerRtt: PerParty; bigMs: number; bigCpu: PerParty; message: Measured }
> {
  const relay = spawn(`floor-${kind}`, "floor-relay");
  const { port } = await relay.line() as { port: number };
  const server = spawn(`floor-${kind}`, "floor-server", String(port));
  await server.line();
  const client = spawn(`floor-${kind}`, "floor-client", String(port), kind);
  await client.line();
  const processes = { relay: [relay], server: [server], client: [client] };
  const rttSpent = meter(processes, cpuMs);
  const { rtt } = await client.line() as { rtt: number };
  const spent = rttSpent();
  const cpuPerRtt = perParty((party) => spent[party] * 1000 / RTT_COUNT);
  const { pipelined } = await client.line() as { pipelined: number };
  const bigSpent = meter(processes, cpuMs);
  const { bigMs } = await client.line() as { bigMs: number };
  const bigCpu = bigSpent();
  const messageSpent = meter(processes, cpuMs);
  const result = await client.line();
  const cpu = messageSpent();
  const peaks = perParty((party) => processes[party][0].peakMiB());
  for (const c of [client, server, relay]) await c.stop();
  return { rtt, pipelined, cpuPerRtt, bigMs, bigCpu, message: { result, cpu, peaks } };
}

/** Pairs measured for the acceptance ratios; each pair runs its two sides back to back. */
const PAIRS = 5;

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Issue 35's goals as ratios, each the median of `PAIRS` pairs whose two sides ran back to back (on a shared
 * machine, load shifts between runs more than the figures differ): one-at-a-time round trips against the floor
 * on npm:ws (the client `RemoteClient` is built on), the 100 MiB message against the raw send, the server's
 * peak RSS against the message.
 */
async function acceptance(): Promise<void> {
  const rttRatios: number[] = [];
  const bigRatios: number[] = [];
  const protocolRatios: number[] = [];
  const rssRatios: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    const { rtt: floorRtt, message } = await floor("ws");
    const rtt = (await throughRelay("rtt")).result.perSecond as number;
    rttRatios.push(rtt / floorRtt);
    const rawMs = (await raw()).result.ms as number;
    const big = await throughRelay("big");
    bigRatios.push((big.result.ms as number) / rawMs);
    // The floor ran before raw: its ratio shares raw with big's, to compare big with the least it could cost.
    protocolRatios.push((message.result.messageMs as number) / rawMs);
    rssRatios.push(big.peaks.server / (BIG / MiB));
  }
  const list = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(" ");
  const verdict = (ok: boolean) => ok ? "met" : "NOT met";
  const r = median(rttRatios);
  const b = median(bigRatios);
  const p = median(protocolRatios);
  const m = median(rssRatios);
  console.log(
    `accept    rtt / floor (npm:ws): ${r.toFixed(2)}x (goal >= 0.9x, ${verdict(r >= 0.9)}; pairs ${
      list(rttRatios)
    })`,
  );
  console.log(
    `accept    100 MiB end to end / raw send: ${b.toFixed(2)}x (goal <= 3x, ${verdict(b <= 3)}; pairs ${
      list(bigRatios)
    })`,
  );
  console.log(
    `accept    (its protocol floor / raw send: ${p.toFixed(2)}x; pairs ${list(protocolRatios)})`,
  );
  console.log(
    `accept    server peak RSS / message: ${m.toFixed(2)}x (goal <= 2.5x, ${verdict(m <= 2.5)}; pairs ${
      list(rssRatios)
    })`,
  );
}

/** `--only rtt,pipelined` runs just those scenarios (raw is always measured: it is the baseline of big). */
async function conduct(only?: string[]): Promise<void> {
  const wanted = (name: string) => only === undefined || only.includes(name);
  const f = (n: unknown, d = 1) => (n as number).toFixed(d);
  const cpuOf = ({ cpu }: Measured, per = 1, unit = "ms") =>
    `CPU ${f((cpu.relay + cpu.server + cpu.client) / per, 0)} ${unit} (relay ${f(cpu.relay / per, 0)}, ` +
    `server ${f(cpu.server / per, 0)}, client ${f(cpu.client / per, 0)})`;
  console.log(
    `relay benchmark (${Deno.build.os}/${Deno.build.arch}, Deno ${Deno.version.deno}); separate processes`,
  );
  const base = await raw();
  const rawMs = base.result.ms as number;
  console.log(
    `raw       one-way 100 MiB WebSocket send: ${f(rawMs)} ms; CPU with start-up ` +
      `${f(base.cpu.server + base.cpu.client, 0)} ms`,
  );
  if (wanted("big")) {
    const big = await throughRelay("big");
    const bigMs = big.result.ms as number;
    console.log(
      `big       100 MiB result server→relay→client: ${f(bigMs)} ms = ${
        f(bigMs / rawMs)
      }x raw (goal ≤ 3x); ` +
        `peak RSS server ${f(big.peaks.server, 0)} MiB = ${
          f(big.peaks.server / 100, 2)
        }x the message (goal ≤ 2.5x), ` +
        `relay ${f(big.peaks.relay, 0)} MiB, client ${f(big.peaks.client, 0)} MiB; ${cpuOf(big)}; ` +
        `page faults relay ${big.faults?.relay}, server ${big.faults?.server}, client ${big.faults?.client}`,
    );
  }
  if (wanted("rtt")) {
    const rtt = await throughRelay("rtt");
    console.log(
      `rtt       ${RTT_COUNT} requests one at a time: ${
        f(rtt.result.perSecond, 0)
      } round trips/s (goal ≥ 5,000); server peak RSS with small messages only: ${
        f(rtt.peaks.server, 0)
      } MiB; ` +
        `${cpuOf(rtt, RTT_COUNT / 1000, "µs per round trip")}`,
    );
  }
  if (wanted("pipelined")) {
    const piped = await throughRelay("pipelined");
    console.log(
      `pipelined ${PIPELINED_COUNT} requests at once: ${
        f(piped.result.perSecond, 0)
      } answers/s (goal ≥ 10,000); ${cpuOf(piped, PIPELINED_COUNT / 1000, "µs per answer")}`,
    );
  }
  if (wanted("floor")) {
    for (const kind of ["ws", "native"]) {
      const { rtt, pipelined, cpuPerRtt: c, bigMs, bigCpu: b, message } = await floor(kind);
      console.log(
        `floor     bare forwarding, client on ${kind === "ws" ? "npm:ws" : "native WebSocket"}: ${
          f(rtt, 0)
        } round trips/s, ${f(pipelined, 0)} pipelined/s; CPU ${f(c.relay + c.server + c.client, 0)} µs ` +
          `per round trip (relay ${f(c.relay, 0)}, server ${f(c.server, 0)}, client ${f(c.client, 0)}); ` +
          `the 100 MiB message's ${BIG_SEGMENTS} segment frames: ${f(bigMs)} ms = ${
            f(bigMs / rawMs)
          }x raw, ` +
          `CPU ${
            f(b.relay + b.server + b.client, 0)
          } ms (relay ${b.relay}, server ${b.server}, client ${b.client})`,
      );
      const messageMs = message.result.messageMs as number;
      console.log(
        `          protocol floor of big (framed, forwarded, decoded into one string; nothing else): ` +
          `${f(messageMs)} ms = ${f(messageMs / rawMs)}x raw; ${cpuOf(message)}`,
      );
    }
  }
  if (wanted("acceptance")) await acceptance();
  if (wanted("head-of-line")) {
    const hol = await headOfLine();
    console.log(
      `head-of-line  B's worst round trip during A's 100 MiB request: ${f(hol.result.worstMs)} ms ` +
        `(median before: ${
          f(hol.result.medianQuietMs, 2)
        } ms, ${hol.result.samples} samples; goal ≤ 100 ms), ` +
        `starting ${f(hol.result.worstAtMs, 0)} ms into A's ${f(hol.result.transferMs, 0)} ms; ` +
        cpuOf(hol),
    );
    if (options.cpuProf) {
      console.log(`              (the worst round trip started at ${hol.result.worstAt} ms since the epoch)`);
    }
  }
}

/**
 * Options before the role, passed on to every child: `--cpu-prof=DIR` makes each process write its CPU profile
 * (Chrome DevTools format) to `DIR/<scenario>-<role>.cpuprofile` when it ends; `--v8-flags=…` (for example
 * `--trace-gc`) is given to each child's V8.
 */
const options: { cpuProf?: string; v8Flags?: string; profileFile?: string } = {};
const args = [...Deno.args];
for (let opt = args[0]; opt?.startsWith("--cpu-prof=") || opt?.startsWith("--v8-flags="); opt = args[0]) {
  args.shift();
  const value = opt.slice(opt.indexOf("=") + 1);
  if (opt.startsWith("--v8-flags=")) options.v8Flags = value;
  else if (value.endsWith(".cpuprofile")) options.profileFile = value;
  else options.cpuProf = value;
}
const [role, ...rest] = args;
const stopProfile = options.profileFile ? await startProfile() : undefined;
switch (role) {
  case undefined:
    await conduct();
    break;
  case "--only":
    await conduct(rest[0]?.split(","));
    break;
  case "relay":
    await roleRelay();
    break;
  case "server":
    await roleServer(rest[0]);
    break;
  case "client":
    await roleClient(rest[0], rest[1]);
    break;
  case "client-b":
    await roleClientB(rest[0]);
    break;
  case "floor-relay":
    await roleFloorRelay();
    break;
  case "floor-server":
    await roleFloorServer(rest[0]);
    break;
  case "floor-client":
    await roleFloorClient(rest[0], rest[1]);
    break;
  case "raw-receiver":
    await roleRawReceiver();
    break;
  case "raw-sender":
    await roleRawSender(rest[0]);
    break;
  default:
    throw new Error(`unknown bench role ${role}`);
}
await stopProfile?.(options.profileFile as string);

/** Starts V8's sampling profiler in this process; the returned function writes the profile to a file. */
async function startProfile(): Promise<(file: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  const post = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (e: unknown, result: unknown) => e ? reject(e) : resolve(result))
    );
  await post("Profiler.enable");
  // V8's default (1 ms) gives a round trip's tens of µs too few samples to rank functions by.
  await post("Profiler.setSamplingInterval", { interval: 50 });
  await post("Profiler.start");
  // The profile's clock is V8's own: the wall time of its start lets profiles be lined up with the bench's times.
  const wallStartMs = Date.now();
  return async (file) => {
    const { profile } = await post("Profiler.stop") as { profile: object };
    await Deno.writeTextFile(file, JSON.stringify({ ...profile, wallStartMs }));
  };
}
