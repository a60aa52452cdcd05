import assert from "node:assert/strict";
import { errors, LarkitError } from "../cli/output/errors.ts";
import { OutboundBuffer } from "./buffer.ts";
import type { WireFrame } from "./segments.ts";

const s1 = { clientId: "c1", streamId: "s1" };
const s2 = { clientId: "c1", streamId: "s2" };
const one = (seq: number): WireFrame[] => [{ seqId: seq, text: `m${seq}` }];
const segmented = (seq: number): WireFrame[] =>
  [0, 1, 2].map((i) => ({ seqId: seq, segmentId: i, text: `m${seq}.${i}` }));

Deno.test("seq_ids start at 1 per stream and frames go to the sink in order", async () => {
  const sent: string[] = [];
  const buf = new OutboundBuffer((f) => sent.push(...f.map((x) => x.text)));
  await buf.enqueue(s1, one);
  await buf.enqueue(s1, one);
  await buf.enqueue(s2, one);
  assert.deepEqual(sent, ["m1", "m2", "m1"]);
  assert.deepEqual([...buf.unacked()].map((f) => f.text), ["m1", "m2", "m1"]);
});

Deno.test("with room and no producer ahead, a message is stored and sunk at once; behind one it waits its turn", async () => {
  const sent: string[] = [];
  const buf = new OutboundBuffer((f) => sent.push(...f.map((x) => x.text)), 2);
  const first = buf.enqueue(s1, one);
  assert.deepEqual(sent, ["m1"], "stored before enqueue returns");
  await buf.enqueue(s1, one);
  // Full: the next producer waits, and one behind it on the same stream queues although acks make room.
  const third = buf.enqueue(s1, one);
  buf.ack(s1, 2);
  const fourth = buf.enqueue(s1, one);
  assert.deepEqual(sent, ["m1", "m2"]);
  await Promise.all([first, third, fourth]);
  assert.deepEqual(sent, ["m1", "m2", "m3", "m4"]);
  // A framing error of an immediate store is a rejection, as a queued one's is, and consumes no seq.
  buf.ack(s1, 4);
  await assert.rejects(buf.enqueue(s2, () => errors.validation("too big")), LarkitError);
  await buf.enqueue(s2, one);
  assert.deepEqual(sent.at(-1), "m1");
});

Deno.test("acks remove frames up to the cursor on their stream only", async () => {
  const buf = new OutboundBuffer(() => {});
  for (let i = 0; i < 3; i++) await buf.enqueue(s1, one);
  await buf.enqueue(s2, one);
  assert.equal(buf.ack(s1, 2), 2);
  assert.equal(buf.pending(s1), 1);
  assert.equal(buf.pending(s2), 1);
  assert.equal(buf.ack({ clientId: "c2", streamId: "s1" }, 9), 0);
});

Deno.test("segment-level acks keep later segments; seq-level acks cover all segments", async () => {
  const buf = new OutboundBuffer(() => {});
  await buf.enqueue(s1, segmented);
  await buf.enqueue(s1, segmented);
  assert.equal(buf.ack(s1, 1, 1), 2);
  assert.deepEqual([...buf.unacked()].map((f) => f.text), ["m1.2", "m2.0", "m2.1", "m2.2"]);
  assert.equal(buf.ack(s1, 2), 4);
});

Deno.test("the 128-frame limit counts across streams: producers wait in order until acked", async () => {
  const buf = new OutboundBuffer(() => {}, 2);
  await buf.enqueue(s1, one);
  await buf.enqueue(s2, one);
  const order: string[] = [];
  const third = buf.enqueue(s1, (seq) => (order.push(`s1:${seq}`), one(seq)));
  const fourth = buf.enqueue(s2, (seq) => (order.push(`s2:${seq}`), one(seq)));
  await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(order, [], "another stream's frames fill the shared limit");
  assert.equal(buf.totalPending(), 2);
  buf.ack(s2, 1);
  await third;
  assert.deepEqual(order, ["s1:2"]);
  buf.ack(s1, 2);
  await fourth;
  assert.deepEqual(order, ["s1:2", "s2:2"]);
});

Deno.test("drop frees a closed stream's frames (waking producers) and its numbering", async () => {
  const buf = new OutboundBuffer(() => {}, 2);
  await buf.enqueue(s1, one);
  await buf.enqueue(s1, one);
  const waiting = buf.enqueue(s2, one);
  buf.drop(s1);
  assert.equal((await waiting)[0].seqId, 1);
  assert.equal(buf.totalPending(), 1);
  assert.equal(buf.streams(), 1);
  assert.equal((await buf.enqueue(s1, one))[0].seqId, 1, "a new stream on the address starts at 1");
});

Deno.test("a framing error consumes no seq_id; close fails waiting producers", async () => {
  const buf = new OutboundBuffer(() => {}, 1);
  await assert.rejects(buf.enqueue(s1, () => errors.validation("too big")), LarkitError);
  await buf.enqueue(s1, one);
  assert.equal([...buf.unacked()][0].seqId, 1);
  const waiting = buf.enqueue(s1, one);
  buf.close(errors.network("closed"));
  await assert.rejects(waiting, /closed/);
});

Deno.test("one device holds at most its share: its producers wait while another device's go through", async () => {
  const buf = new OutboundBuffer(() => {}, 4, 2);
  const other = { clientId: "c2", streamId: "s1" };
  await buf.enqueue(s1, one);
  await buf.enqueue(s2, one);
  let third = false;
  const waiting = buf.enqueue(s1, one).then(() => third = true);
  assert.equal(buf.hasRoom("c1"), false);
  assert.equal(buf.hasRoom("c2"), true);
  await buf.enqueue(other, one);
  await buf.enqueue(other, one);
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(third, false, "c1's third frame waits for its own acks");
  assert.equal(buf.totalPending(), 4);
  buf.ack(s2, 1);
  await waiting;
  assert.equal(third, true);
});

Deno.test("sendUnkept numbers a message without keeping it", () => {
  const sent: string[] = [];
  const buf = new OutboundBuffer((f) => sent.push(...f.map((x) => `${x.seqId}:${x.text}`)), 1);
  assert.equal(buf.sendUnkept(s1, one), undefined);
  assert.equal(buf.sendUnkept(s1, one), undefined);
  assert.deepEqual(sent, ["1:m1", "1:m1"], "nothing kept: the address starts at 1 each time");
  assert.deepEqual([buf.totalPending(), buf.streams()], [0, 0]);
});
