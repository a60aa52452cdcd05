/**
 * Liveness and stream lifetimes on a fake clock (the relay and the sockets are real, on loopback): two idle
 * hours without a reconnect, the pong timeout, the 10-minute idle close of a stream, and the per-message rules
 * (legacy streams, oversized messages in both directions, seq de-duplication after a re-initialize).
 */
import assert from "node:assert/strict";
import type { Clock } from "../cli/provider.ts";
import type { AppServer, Connection, Origin, Outbound } from "../rpc/connection.ts";
import { DevRelay } from "./dev_relay.ts";
import { frameMessage } from "./segments.ts";
import type { RemoteControlSession, SessionTiming } from "./session.ts";
import type { OpenSocket, RelaySocket, SocketHandlers } from "./socket.ts";
import { pairDevice, pairRemoteClient } from "../tests/helpers/pair_device.ts";
import { FakeClock } from "../tests/helpers/fake_clock.ts";
import { connectRemote, testSession } from "../tests/helpers/relay_host.ts";
import { until } from "../tests/helpers/until.ts";

/** The real time, and sleeps that never end: liveness and the idle sweep stay still while a test runs. */
const stillClock: Clock = { now: () => Date.now(), sleep: (ms, sig) => new FakeClock().sleep(ms, sig) };

class EchoApp implements AppServer {
  closed = 0;
  connect(origin: Origin, out: Outbound): Connection {
    return {
      id: crypto.randomUUID(),
      origin,
      receive: async (text) => {
        const msg = JSON.parse(text) as { id?: number; method?: string; params?: { size?: number } };
        if (msg.id === undefined) return;
        const result = msg.method === "big" ? "x".repeat(msg.params?.size ?? 0) : msg.params ?? {};
        await out.send(JSON.stringify({ id: msg.id, result }));
      },
      close: () => void this.closed++,
    };
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function session(
  relayUrl: string,
  clock: Clock,
  opts: { timing?: Partial<SessionTiming>; log?: string[]; app?: AppServer; openSocket?: OpenSocket } = {},
) {
  return testSession(relayUrl, opts.app ?? new EchoApp(), {
    clock,
    timing: opts.timing,
    log: (line) => opts.log?.push(line),
    openSocket: opts.openSocket,
  });
}

Deno.test("two idle hours on a fake clock: a ping every 10 s, every pong answered, 0 reconnects", async () => {
  const relay = DevRelay.start();
  const clock = new FakeClock();
  const s = session(relay.baseUrl, clock);
  try {
    await connectRemote(s);
    for (let tick = 0; tick < 720; tick++) {
      await clock.advance(10_000);
      // The ping went out at this instant; its pong (a control frame) marks the socket alive.
      await until(`pong ${tick}`, () => s.lastInboundAt === clock.now(), 5_000);
    }
    assert.equal(relay.stats.handshakes, 1, "no reconnect in two hours");
    assert.equal(s.status.current.status, "connected");
    assert.equal(relay.stats.serverFramesRejected, 0, "no frame outside the protocol reached the relay");
  } finally {
    await s.close();
    await relay.close();
  }
});

Deno.test("60 s without a pong or any frame drops the socket and reconnects", async () => {
  const clock = new FakeClock();
  const opened: { pings: number; terminated: boolean }[] = [];
  const openSocket: OpenSocket = () => {
    const state = { pings: 0, terminated: false };
    opened.push(state);
    let handlers: SocketHandlers | undefined;
    const socket: RelaySocket = {
      send: () => {},
      ping: () => void state.pings++,
      terminate: () => {
        state.terminated = true;
        handlers?.onClose();
      },
      isOpen: true,
      listen: (h) => handlers = h,
    };
    return Promise.resolve(socket);
  };
  const relay = DevRelay.start();
  const s = session(relay.baseUrl, clock, { openSocket });
  try {
    await connectRemote(s);
    await clock.advance(59_000);
    assert.equal(opened[0].terminated, false);
    assert.equal(opened[0].pings, 5, "a ping every 10 s");
    await clock.advance(1_000);
    assert.equal(opened[0].terminated, true, "dropped 60 s after the last sign of life");
    await clock.advance(1_000);
    await until("reconnected", () => opened.length === 2);
  } finally {
    await s.close();
    await relay.close();
  }
});

Deno.test("a stream idle for 10 minutes is closed as if client_closed, and its buffer is freed", async () => {
  const relay = DevRelay.start();
  const clock = new FakeClock();
  const app = new EchoApp();
  // No liveness traffic in this test: only the idle sweep runs on the fake clock.
  const s = session(relay.baseUrl, clock, { app, timing: { pingIntervalMs: 1e9, pongTimeoutMs: 1e9 } });
  const client = await pairRemoteClient(relay, s);
  try {
    await connectRemote(s);
    const idle = client.stream("idle");
    const busy = client.stream("busy");
    await idle.request("initialize", {});
    await busy.request("initialize", {});
    for (let minute = 0; minute < 10; minute++) {
      await clock.advance(60_000);
      assert.deepEqual(await busy.request("echo", { minute }), { minute });
    }
    await clock.advance(30_000);
    await until("idle stream closed", () => s.streamCounts().open === 1);
    assert.equal(app.closed, 1);
    await until("buffers freed", () => s.streamCounts().buffered === 1);
    const pongs: unknown[] = [];
    idle.onMessage((m) => pongs.push(m));
    idle.closeStream(); // the client learns the stream is gone; the server numbers it afresh
    idle.ping();
    await until("pong", () => pongs.length === 1);
    assert.deepEqual(pongs, [{ pong: "unknown" }]);
  } finally {
    client.close();
    await s.close();
    await relay.close();
  }
});

/** A paired device's socket with nothing on top: frames as they come. */
async function rawClient(
  relay: DevRelay,
  server: RemoteControlSession,
): Promise<{ ws: WebSocket; frames: Record<string, unknown>[] }> {
  const device = await pairDevice(relay, server);
  const ws = new WebSocket(device.url, { headers: { authorization: `Bearer ${device.token}` } });
  const frames: Record<string, unknown>[] = [];
  ws.onmessage = (ev) => frames.push(JSON.parse(ev.data as string));
  return new Promise((resolve) => ws.onopen = () => resolve({ ws, frames }));
}

Deno.test("a legacy client_message without stream_id opens a stream under a generated id and is answered on it", async () => {
  const relay = DevRelay.start();
  const s = session(relay.baseUrl, stillClock);
  const { ws, frames } = await rawClient(relay, s);
  try {
    await connectRemote(s);
    ws.send(
      JSON.stringify({ type: "client_message", message: { jsonrpc: "2.0", id: 1, method: "initialize" } }),
    );
    ws.send(
      JSON.stringify({
        type: "client_message",
        message: { jsonrpc: "2.0", id: 2, method: "echo", params: 7 },
      }),
    );
    await until("two answers", () => frames.length === 2);
    const streamId = frames[0].stream_id as string;
    assert.match(streamId, /^[0-9a-f-]{36}$/);
    assert.deepEqual(frames.map((f) => [f.stream_id, f.seq_id, (f.message as { id: number }).id]), [
      [streamId, 1, 1],
      [streamId, 2, 2],
    ]);
    assert.deepEqual((frames[1].message as { result: unknown }).result, 7);
    // A re-initialize keeps the legacy client on its stream: a later message is still answered there.
    ws.send(
      JSON.stringify({ type: "client_message", message: { jsonrpc: "2.0", id: 3, method: "initialize" } }),
    );
    ws.send(
      JSON.stringify({
        type: "client_message",
        message: { jsonrpc: "2.0", id: 4, method: "echo", params: 8 },
      }),
    );
    await until("four answers", () => frames.length === 4);
    assert.deepEqual(frames.slice(2).map((f) => [f.stream_id, (f.message as { id: number }).id]), [
      [streamId, 3],
      [streamId, 4],
    ]);
  } finally {
    ws.close();
    await s.close();
    await relay.close();
  }
});

Deno.test("a server message over 100 MiB is dropped with one log line; the stream stays usable", async () => {
  const relay = DevRelay.start();
  const log: string[] = [];
  const s = session(relay.baseUrl, stillClock, { log });
  const client = await pairRemoteClient(relay, s);
  try {
    await connectRemote(s);
    const stream = client.stream("s1");
    await stream.request("initialize", {});
    void stream.request("big", { size: 100 * 1024 * 1024 + 1 });
    assert.deepEqual(await stream.request("echo", { after: true }), { after: true });
    const dropped = log.filter((l) => l.includes("dropping a server message"));
    assert.equal(dropped.length, 1, log.join("\n"));
    assert.match(dropped[0], /reassembly limit/);
    assert.equal(relay.stats.handshakes, 1, "the remote connection was not closed");
  } finally {
    client.close();
    await s.close();
    await relay.close();
  }
});

Deno.test("an over-limit inbound message logs one line; after a re-initialize an earlier chunked seq_id is answered", async () => {
  const relay = DevRelay.start();
  const log: string[] = [];
  const s = session(relay.baseUrl, stillClock, { log });
  const client = await pairRemoteClient(relay, s);
  const chunked = (seq: number, id: number, size: number) => {
    const frames = frameMessage(
      "client",
      JSON.stringify({ jsonrpc: "2.0", id, method: "echo", params: { pad: "p".repeat(size) } }),
      { client_id: client.clientId, stream_id: "s1", seq_id: seq },
    );
    if (!Array.isArray(frames)) throw frames;
    return frames.map((f) => JSON.parse(f.text) as Record<string, unknown>);
  };
  try {
    await connectRemote(s);
    const stream = client.stream("s1");
    const answered = new Set<number>();
    stream.onMessage((m) => {
      const id = (m as { id?: number }).id;
      if (typeof id === "number") answered.add(id);
    });
    client.sendRaw({
      type: "client_message",
      stream_id: "s1",
      seq_id: 1,
      message: { id: 1, method: "initialize" },
    });
    for (const f of chunked(2, 2, 300_000)) client.sendRaw(f);
    await until("chunked request answered", () => answered.has(2));
    // Every segment of this message is an oversized frame (160 KiB of base64): one log line, not one per segment.
    const part = new Uint8Array(120 * 1024).fill(0x61).toBase64();
    for (let segment = 0; segment < 3; segment++) {
      client.sendRaw({
        type: "client_message_chunk",
        stream_id: "s1",
        seq_id: 3,
        segment_id: segment,
        segment_count: 3,
        message_size_bytes: 3 * 120 * 1024,
        message_chunk_base64: part,
      });
    }
    client.sendRaw({
      type: "client_message",
      stream_id: "s1",
      seq_id: 4,
      message: { id: 4, method: "echo" },
    });
    await until("answer after the oversized message", () => answered.has(4));
    assert.equal(log.filter((l) => l.includes("dropping chunked message")).length, 1, log.join("\n"));
    assert.equal(answered.has(3), false);
    // Re-initialize: the stream's numbering starts afresh, so seq 2 (used before) is a new message now.
    client.sendRaw({
      type: "client_message",
      stream_id: "s1",
      seq_id: 1,
      message: { id: 5, method: "initialize" },
    });
    for (const f of chunked(2, 6, 300_000)) client.sendRaw(f);
    await until("the reused seq_id answered", () => answered.has(6));
  } finally {
    client.close();
    await s.close();
    await relay.close();
  }
});

Deno.test("streams take turns on the socket: a small answer goes before the rest of a 20 MB result", async () => {
  const sent: string[] = [];
  const written: (() => void)[] = [];
  let handlers: SocketHandlers | undefined;
  const openSocket: OpenSocket = () =>
    Promise.resolve({
      send: (text: string, done?: () => void) => {
        sent.push(text);
        if (done) written.push(done);
      },
      ping: () => {},
      terminate: () => handlers?.onClose(),
      isOpen: true,
      listen: (h: SocketHandlers) => handlers = h,
    });
  const relay = DevRelay.start();
  const s = session(relay.baseUrl, stillClock, {
    openSocket,
  });
  const message = (stream: string, seq: number, msg: unknown) =>
    handlers?.onText(
      JSON.stringify({
        type: "client_message",
        client_id: "c",
        stream_id: stream,
        seq_id: seq,
        message: msg,
      }),
    );
  try {
    await connectRemote(s);
    message("a", 1, { id: 1, method: "initialize" });
    message("b", 1, { id: 1, method: "initialize" });
    await until("initialized", () => sent.length === 2);
    const ack = (stream: string, seq: number, segment?: number) =>
      handlers?.onText(JSON.stringify({
        type: "ack",
        client_id: "c",
        stream_id: stream,
        seq_id: seq,
        ...(segment === undefined ? {} : { segment_id: segment }),
      }));
    ack("a", 1);
    ack("b", 1);
    message("a", 2, { id: 2, method: "big", params: { size: 20 * 1024 * 1024 } });
    await until("the big result started", () => sent.length > 2);
    message("b", 2, { id: 3, method: "echo", params: { n: 1 } });
    const isSmall = (t: string) => t.includes('"stream_id":"b","seq_id":2');
    // The network takes the frames one write-ahead window at a time; the client acks each segment it got.
    for (let i = 0; i < 1000 && !sent.some(isSmall); i++) {
      await new Promise((r) => setTimeout(r, 0));
      const segments = sent.filter((t) => t.includes('"stream_id":"a","seq_id":2'));
      if (segments.length > 0) ack("a", 2, segments.length - 1);
      written.splice(0).forEach((done) => done());
    }
    const small = sent.findIndex(isSmall);
    assert.ok(small > 0, "the small answer was written");
    // It waited for room under the 128-frame limit (the big result is acked as it goes), then went next, not
    // behind the rest of the big result.
    const before = sent.slice(0, small).filter((t) => t.includes('"stream_id":"a","seq_id":2')).length;
    assert.ok(before < 205, `${before} of the big result's 205 segments went before it`);
  } finally {
    await s.close();
    await relay.close();
  }
});
