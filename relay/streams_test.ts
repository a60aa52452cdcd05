import assert from "node:assert/strict";
import type { AppServer, Connection, Origin, Outbound } from "../rpc/connection.ts";
import { FakeClock } from "../tests/helpers/fake_clock.ts";
import { type ClientEnvelope, parseClientEnvelope, scanClientMessage } from "./envelopes.ts";
import { frameMessage, type WireFrame } from "./segments.ts";
import { StreamTracker } from "./streams.ts";

/** An app server that records what each connection received and answers every request with its params. */
class RecordingApp implements AppServer {
  received: string[] = [];
  opened: { origin: Origin; label?: string; info?: unknown }[] = [];
  closed = 0;
  connect(origin: Origin, out: Outbound, label?: string, info?: unknown): Connection {
    this.opened.push({ origin, label, info });
    return {
      id: crypto.randomUUID(),
      origin,
      receive: async (text) => {
        this.received.push(text);
        const m = JSON.parse(text) as { id?: number; params?: unknown };
        if (m.id !== undefined) await out.send(JSON.stringify({ id: m.id, result: m.params ?? {} }));
      },
      close: () => this.closed++,
    };
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function tracker(opts: { perClient?: number; capacity?: number } = {}) {
  const clock = new FakeClock();
  const app = new RecordingApp();
  const sent: { stream: string; frame: WireFrame }[] = [];
  const logs: string[] = [];
  const t = new StreamTracker({
    appServer: app,
    clock,
    random: { uuid: () => "generated", bytes: (n) => new Uint8Array(n) },
    timing: { streamIdleMs: 600_000, idleSweepMs: 30_000 },
    limits: { perClient: opts.perClient ?? 32 },
    bufferCapacity: opts.capacity,
    sink: (frames, stream) => frames.forEach((frame) => sent.push({ stream, frame })),
    log: (line) => logs.push(line),
  });
  const handle = (env: Record<string, unknown>) => {
    const text = JSON.stringify(env);
    t.handle(parseClientEnvelope(text) as ClientEnvelope, text);
  };
  const message = (clientId: string, streamId: string, seq: number, msg: unknown) =>
    handle({ type: "client_message", client_id: clientId, stream_id: streamId, seq_id: seq, message: msg });
  const initialize = (clientId: string, streamId: string, id = 1) =>
    message(clientId, streamId, 0, { jsonrpc: "2.0", id, method: "initialize", params: {} });
  const envelopes = () => sent.map(({ frame }) => JSON.parse(frame.text));
  return { t, clock, app, sent, logs, handle, message, initialize, envelopes };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

Deno.test("initialize opens a RemoteControl connection per (client, stream); other messages need one", async () => {
  const { t, app, message, initialize, envelopes } = tracker();
  message("phone", "s1", 1, { jsonrpc: "2.0", id: 9, method: "thread/list" });
  await settle();
  assert.equal(app.opened.length, 0, "a message for an unknown stream opens nothing");
  initialize("phone", "s1");
  initialize("phone", "s2");
  await settle();
  assert.deepEqual(app.opened.map((o) => [o.origin, o.label, o.info]), [
    ["RemoteControl", "phone/s1", { device: "phone" }],
    ["RemoteControl", "phone/s2", { device: "phone" }],
  ]);
  assert.deepEqual(envelopes().map((e) => [e.type, e.stream_id, e.seq_id]), [
    ["server_message", "s1", 1],
    ["server_message", "s2", 1],
  ]);
  assert.deepEqual(t.counts(), { open: 2, buffered: 2 });
});

Deno.test("a client seq_id at or below the last accepted one is a duplicate; one without seq_id always goes", async () => {
  const { app, handle, message, initialize } = tracker();
  initialize("phone", "s1");
  message("phone", "s1", 5, { jsonrpc: "2.0", method: "n", params: { n: 5 } });
  message("phone", "s1", 5, { jsonrpc: "2.0", method: "n", params: { n: "again" } });
  message("phone", "s1", 3, { jsonrpc: "2.0", method: "n", params: { n: "older" } });
  handle({
    type: "client_message",
    client_id: "phone",
    stream_id: "s1",
    message: { method: "n", params: { n: 0 } },
  });
  await settle();
  assert.deepEqual(app.received.slice(1).map((r) => JSON.parse(r).params.n), [5, 0]);
});

Deno.test("ack releases a stream's frames; pongs answer pings, unknown streams keep nothing", async () => {
  const { t, handle, initialize, envelopes, sent } = tracker();
  initialize("phone", "s1");
  await settle();
  assert.equal(t.pendingEnvelopes(), 1);
  handle({ type: "ack", client_id: "phone", stream_id: "s1", seq_id: 1 });
  assert.equal(t.pendingEnvelopes(), 0);
  handle({ type: "ping", client_id: "phone", stream_id: "s1" });
  handle({ type: "ping", client_id: "phone", stream_id: "nope" });
  await settle();
  // Both go out as the pings came (the buffer has room); the unknown stream's is kept nowhere.
  assert.deepEqual(envelopes().slice(1).map((e) => [e.type, e.status, e.stream_id, e.seq_id]), [
    ["pong", "active", "s1", 2],
    ["pong", "unknown", "nope", 1],
  ]);
  assert.equal(t.pendingEnvelopes(), 1, "only the live stream's pong waits for an ack");
  assert.equal(t.backlog().get(sent[1].stream)?.length, 1);
  assert.deepEqual(t.counts(), { open: 1, buffered: 1 });
});

Deno.test("client_closed and idle expiry close the stream, its connection and its buffer", async () => {
  const { t, app, clock, handle, initialize, message } = tracker();
  initialize("phone", "s1");
  initialize("phone", "s2");
  await settle();
  handle({ type: "client_closed", client_id: "phone", stream_id: "s1" });
  assert.equal(app.closed, 1);
  assert.deepEqual(t.counts(), { open: 1, buffered: 1 });
  // s2 stays busy until 9 minutes, then goes quiet: closed at the first sweep 10 minutes after its last message.
  await clock.advance(540_000);
  message("phone", "s2", 1, { jsonrpc: "2.0", method: "n" });
  await clock.advance(570_000);
  assert.equal(app.closed, 1, "still within 10 minutes of the last message");
  await clock.advance(60_000);
  assert.equal(app.closed, 2);
  assert.deepEqual(t.counts(), { open: 0, buffered: 0 });
});

Deno.test("past a device's bound an initialize is answered with an error and opens nothing, logged once", async () => {
  const { t, app, initialize, envelopes, logs } = tracker({ perClient: 1 });
  initialize("phone", "s1");
  initialize("phone", "s2", 2);
  initialize("phone", "s3", 3);
  initialize("tablet", "s1");
  await settle();
  assert.equal(app.opened.length, 2);
  const refused = envelopes().filter((e) => e.message?.error);
  assert.deepEqual(refused.map((e) => [e.stream_id, e.message.id]), [["s2", 2], ["s3", 3]]);
  assert.equal(logs.filter((l) => l.includes("refusing new streams of phone")).length, 1);
  assert.deepEqual(t.counts(), { open: 2, buffered: 2 }, "a refusal keeps no buffer");
});

Deno.test("chunked client messages are reassembled and delivered as one", async () => {
  const { app, handle, initialize } = tracker();
  initialize("phone", "s1");
  const big = JSON.stringify({ jsonrpc: "2.0", method: "n", params: { text: "z".repeat(300_000) } });
  const frames = frameMessage("client", big, { client_id: "phone", stream_id: "s1", seq_id: 1 });
  assert.ok(Array.isArray(frames) && frames.length > 1);
  for (const f of frames as WireFrame[]) handle(JSON.parse(f.text));
  await settle();
  assert.equal(JSON.parse(app.received[1]).params.text.length, 300_000);
});

Deno.test("close closes every connection and fails producers waiting for room", async () => {
  const { t, app, initialize, message } = tracker({ capacity: 2 });
  initialize("phone", "s1");
  for (let i = 1; i <= 3; i++) message("phone", "s1", i, { jsonrpc: "2.0", id: 10 + i, method: "n" });
  await settle();
  assert.equal(t.pendingEnvelopes(), 1, "the device's share (half of 2) is full");
  const { errors } = await import("../cli/output/errors.ts");
  t.close(errors.network("closed"));
  await settle();
  assert.equal(app.closed, 1);
  assert.deepEqual(t.counts().open, 0);
});

Deno.test("a client_message read with its message's text hands the app server that text as the client wrote it", async () => {
  const { t, app, envelopes } = tracker();
  const written = '{ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {} }';
  const text =
    `{"type":"client_message","message":${written},"client_id":"phone","stream_id":"s1","seq_id":0}`;
  const scanned = scanClientMessage(text);
  assert.ok(scanned);
  t.handle(scanned.env, text, scanned.messageText);
  await settle();
  assert.deepEqual(app.received, [written], "not the parsed message encoded again");
  assert.deepEqual(envelopes().map((e) => [e.type, e.stream_id, e.message.id]), [[
    "server_message",
    "s1",
    1,
  ]]);
});
