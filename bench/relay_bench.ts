/**
 * Relay throughput against a raw WebSocket echo, in one run: small request/response messages and one 100 MB
 * message (time and peak RSS). Prints a table with ratios; no asserts. `deno run -A bench/relay_bench.ts`.
 */
import { DatabaseSync } from "node:sqlite";
import { abortableSleep } from "../cli/provider.ts";
import type { AppServer, Connection, Origin, Outbound } from "../rpc/connection.ts";
import { DevRelay } from "../relay/dev_relay.ts";
import { RemoteClient } from "../relay/remote_client.ts";
import { RemoteControlSession } from "../relay/session.ts";
import { EnrollmentStore } from "../relay/store.ts";
import { normalizeRelayBaseUrl } from "../relay/url.ts";

const SMALL = 2000;
const BIG = 100 * 1024 * 1024 - 64;

let peak = 0;
const sampler = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 5);
function resetPeak(): void {
  peak = Deno.memoryUsage().rss;
}

async function measure(run: () => Promise<void>): Promise<{ ms: number; peakMb: number }> {
  resetPeak();
  const t0 = performance.now();
  await run();
  return { ms: performance.now() - t0, peakMb: peak / 2 ** 20 };
}

async function rawEcho(): Promise<
  { small: { ms: number; peakMb: number }; big: { ms: number; peakMb: number } }
> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onmessage = (ev) => socket.send(ev.data);
    return response;
  });
  const ws = new WebSocket(`ws://127.0.0.1:${server.addr.port}/`);
  await new Promise((r) => ws.onopen = r);
  const small = await measure(async () => {
    let got = 0;
    const done = new Promise<void>((r) => ws.onmessage = () => ++got === SMALL && r());
    for (let i = 0; i < SMALL; i++) ws.send(JSON.stringify({ id: i, method: "echo", params: { i } }));
    await done;
  });
  const frame = "x".repeat(150 * 1024);
  const frames = Math.ceil(BIG / frame.length);
  const big = await measure(async () => {
    let got = 0;
    const done = new Promise<void>((r) => ws.onmessage = () => ++got === frames && r());
    for (let i = 0; i < frames; i++) ws.send(frame);
    await done;
  });
  ws.close();
  await server.shutdown();
  return { small, big };
}

class EchoServer implements AppServer {
  connect(origin: Origin, out: Outbound): Connection {
    return {
      id: "1",
      origin,
      receive: async (text) => {
        const m = JSON.parse(text) as { id?: number; method?: string; params?: unknown };
        if (m.id === undefined) return;
        const result = m.method === "big" ? "x".repeat(BIG) : m.params ?? {};
        await out.send(JSON.stringify({ id: m.id, result }));
      },
      close: () => {},
    };
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

async function throughRelay(): Promise<
  { small: { ms: number; peakMb: number }; big: { ms: number; peakMb: number } }
> {
  const relay = DevRelay.start();
  const session = new RemoteControlSession({
    urls: normalizeRelayBaseUrl(relay.baseUrl),
    appServer: new EchoServer(),
    getAccount: () => Promise.resolve({ accountId: "bench", accessToken: "t", kind: "user" }),
    store: new EnrollmentStore(new DatabaseSync(":memory:")),
    clock: { now: () => Date.now(), sleep: abortableSleep },
    random: { uuid: () => crypto.randomUUID(), bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) },
    fetch: (i, init) => fetch(i, init),
    server: { name: "bench", os: Deno.build.os, arch: Deno.build.arch, appServerVersion: "bench" },
  });
  await session.enable();
  while (!relay.serverConnected) await new Promise((r) => setTimeout(r, 5));
  const client = await RemoteClient.connect(relay.clientUrl("bench"), "bench");
  const stream = client.stream("s1");
  await stream.request("initialize", {});
  const small = await measure(async () => {
    const all: Promise<unknown>[] = [];
    for (let i = 0; i < SMALL; i++) all.push(stream.request("echo", { i }));
    await Promise.all(all);
  });
  const big = await measure(async () => {
    const result = await stream.request("big");
    if (typeof result !== "string" || result.length !== BIG) {
      throw new Error("100 MB message arrived damaged");
    }
  });
  client.close();
  await session.close();
  await relay.close();
  return { small, big };
}

const raw = await rawEcho();
const viaRelay = await throughRelay();
clearInterval(sampler);
const fmt = (n: number) => n.toFixed(1);
console.log(`relay benchmark (${Deno.build.os}/${Deno.build.arch}, Deno ${Deno.version.deno})`);
console.log(`scenario                    raw echo          via relay          ratio`);
console.log(
  `${SMALL} small round trips     ${fmt(raw.small.ms)} ms`.padEnd(46) +
    `${fmt(viaRelay.small.ms)} ms`.padEnd(19) +
    `${fmt(viaRelay.small.ms / raw.small.ms)}x`,
);
console.log(
  `100 MB message (time)       ${fmt(raw.big.ms)} ms`.padEnd(46) + `${fmt(viaRelay.big.ms)} ms`.padEnd(19) +
    `${fmt(viaRelay.big.ms / raw.big.ms)}x`,
);
console.log(
  `100 MB message (peak RSS)   ${fmt(raw.big.peakMb)} MiB`.padEnd(46) +
    `${fmt(viaRelay.big.peakMb)} MiB`.padEnd(19) +
    `${fmt(viaRelay.big.peakMb / raw.big.peakMb)}x`,
);
