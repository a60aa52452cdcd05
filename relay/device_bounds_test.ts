/**
 * Bounds per device (issue 33, B.3) on the real app server behind the dev relay: one device opening streams in
 * a loop is refused past its bound with a JSON-RPC error (logged once), the server never holds more than the
 * bounds allow, and another device's `initialize` stays fast. The relay and the attacking device run in a
 * worker thread (as other machines would), so what is measured is the server's event loop. Latency is compared
 * as medians, with the attack itself bounded in count (a few thousand streams, 64 pipelined) and in time. And a
 * device that never acks holds at most its share of the unacked window, so it cannot stall another device.
 */
import assert from "node:assert/strict";
import { until, within } from "../tests/helpers/until.ts";
import { DevRelay } from "./dev_relay.ts";
import { connectRemote, testHost } from "../tests/helpers/relay_host.ts";
import type { RemoteClient } from "./remote_client.ts";
import { pairDevice, pairRemoteClient } from "../tests/helpers/pair_device.ts";
import { DEFAULT_STREAM_LIMITS } from "./streams.ts";

const ATTACK_STREAMS = 3000;
/** The attacking device pipelines this many initializes (a client with a window, not one at a time). */
const IN_FLIGHT = 64;
const SAMPLES = 21;

const INIT = { clientInfo: { name: "phone", version: "1" } };
const initRequest = { jsonrpc: "2.0", method: "initialize", params: INIT };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** `SAMPLES` initializes of `client`, each on a new stream closed afterwards; their round trips in ms. */
async function initializeLatencies(client: RemoteClient, prefix: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const stream = client.stream(`${prefix}-${i}`);
    const t0 = performance.now();
    await within(`initialize ${prefix}-${i}`, stream.request("initialize", INIT), 10_000);
    out.push(performance.now() - t0);
    stream.closeStream();
  }
  return out;
}

Deno.test("one device opening streams in a loop is refused past its bound and cannot slow another's initialize", async () => {
  const worker = new Worker(new URL("../tests/helpers/relay_worker.ts", import.meta.url), { type: "module" });
  const replies: ((data: unknown) => void)[] = [];
  worker.onmessage = (ev) => replies.shift()?.(ev.data);
  const ask = <T>(message: unknown, what: string, ms = 20_000) =>
    within(
      what,
      new Promise<T>((resolve) => {
        replies.push((d) => resolve(d as T));
        worker.postMessage(message);
      }),
      ms,
    );
  const started = await ask<{ baseUrl: string; pairUrl: string; clientUrl: string }>(
    { cmd: "start" },
    "the relay worker",
  );
  // The relay is in the worker: its device URLs from what it told.
  const relay = { ...started, clientUrl: (id: string) => started.clientUrl + encodeURIComponent(id) };
  const log: string[] = [];
  const { host } = testHost(relay.baseUrl, {
    log: (line) => log.push(line),
  });
  let b: RemoteClient | undefined;
  let sampler: ReturnType<typeof setInterval> | undefined;
  try {
    await connectRemote(host.remote);
    const session = await host.remote.session();
    b = await pairRemoteClient(relay, host.remote);
    // Warm-up, then the quiet baseline.
    await initializeLatencies(b, "warm");
    const quiet = await initializeLatencies(b, "quiet");

    let maxOpen = 0;
    sampler = setInterval(() => maxOpen = Math.max(maxOpen, session.streamCounts().open), 1);
    // The attacking device is paired too (the relay admits no other): the server's code, redeemed in the worker.
    const { pairingCode } = await host.remote.pair();
    const attack = ask<{ clientId: string; opened: number; refused: number; other: number }>(
      { cmd: "attack", pairingCode, streams: ATTACK_STREAMS, inFlight: IN_FLIGHT },
      "the attack loop",
      60_000,
    );
    await until("the attack under way", () => session.streamCounts().open > 1);
    const busy = await initializeLatencies(b, "busy");
    const { clientId: attacker, ...counts } = await attack;
    clearInterval(sampler);
    maxOpen = Math.max(maxOpen, session.streamCounts().open);

    assert.deepEqual(counts, {
      opened: DEFAULT_STREAM_LIMITS.perClient,
      refused: ATTACK_STREAMS - DEFAULT_STREAM_LIMITS.perClient,
      other: 0,
    }, "the device got exactly its bound of streams; every other initialize was refused");
    assert.ok(
      maxOpen <= DEFAULT_STREAM_LIMITS.perClient + 1,
      `at most the bound (+ B's one) open: ${maxOpen}`,
    );
    const refusals = log.filter((l) => l.includes(`refusing new streams of ${attacker}`));
    assert.equal(refusals.length, 1, "logged once");
    const slower = median(busy) - median(quiet);
    assert.ok(
      slower <= 50,
      `another device's initialize: median ${median(quiet).toFixed(1)} ms quiet, ${
        median(busy).toFixed(1)
      } ms under the attack`,
    );
  } finally {
    clearInterval(sampler);
    b?.close();
    await host.close();
    await ask({ cmd: "close" }, "the relay worker's close");
    worker.terminate();
  }
});

Deno.test("a device that never acks and pings in a loop cannot hold up another device's answers", async () => {
  const relay = DevRelay.start();
  const { host } = testHost(relay.baseUrl);
  // The silent device: a raw socket that reads everything and acks nothing (paired while disabled).
  const muteDevice = await pairDevice(relay, host.remote);
  const mute = new WebSocket(muteDevice.url, { headers: { authorization: `Bearer ${muteDevice.token}` } });
  let heard = 0;
  mute.onmessage = () => void heard++;
  await new Promise((resolve) => mute.onopen = resolve);
  let b: RemoteClient | undefined;
  try {
    await connectRemote(host.remote);
    const session = await host.remote.session();
    const send = (env: Record<string, unknown>) => mute.send(JSON.stringify(env));
    for (let i = 0; i < DEFAULT_STREAM_LIMITS.perClient; i++) {
      send({ type: "client_message", stream_id: `m-${i}`, seq_id: 1, message: { id: 1, ...initRequest } });
    }
    await until("its streams answered", () => heard >= DEFAULT_STREAM_LIMITS.perClient);
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < DEFAULT_STREAM_LIMITS.perClient; i++) send({ type: "ping", stream_id: `m-${i}` });
      // Pings to streams that do not exist: answered, but nothing is kept for them.
      for (let i = 0; i < 50; i++) send({ type: "ping", stream_id: `ghost-${round}-${i}` });
    }
    // The other device, right behind the flood.
    b = await pairRemoteClient(relay, host.remote);
    await within("another device's initialize", b.stream("b-1").request("initialize", INIT), 5_000);
    await within("and its next stream", b.stream("b-2").request("initialize", INIT), 5_000);

    await until("every ghost ping answered", () => heard >= 20 * 50, 10_000);
    // Once B acked, what stays unacked is the mute device's share of the 128-envelope window, no more.
    await until("only the mute device's share unacked", () => session.pendingEnvelopes() === 64, 5_000);
    assert.equal(
      session.streamCounts().buffered,
      DEFAULT_STREAM_LIMITS.perClient + 2,
      "a buffer per open stream (32 + B's 2), none per ghost stream",
    );
  } finally {
    b?.close();
    mute.close();
    await host.close();
    await relay.close();
  }
});
