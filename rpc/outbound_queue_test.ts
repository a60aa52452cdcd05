import assert from "node:assert/strict";
import { OutboundQueue } from "./outbound_queue.ts";

function stalledTransport() {
  const sent: string[] = [];
  const releases: (() => void)[] = [];
  return {
    sent,
    release: () => releases.shift()?.(),
    out: {
      send: (m: string) => {
        sent.push(m);
        return new Promise<void>((r) => releases.push(r));
      },
      close: () => {},
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("messages go out in order; a producer waits while the queue is full and is admitted when it drains", async () => {
  const t = stalledTransport();
  const q = new OutboundQueue(t.out, { maxMessages: 2, maxBytes: 1000, maxWaiters: 2 }, () => {});
  assert.equal(await q.push("a"), true);
  assert.equal(await q.push("b"), true);
  let cQueued = false;
  const c = q.push("c").then((ok) => cQueued = ok);
  await tick();
  assert.equal(cQueued, false);
  assert.equal(q.waiting, 1);
  t.release();
  await c;
  assert.equal(cQueued, true);
  t.release();
  await tick();
  t.release();
  await q.drained();
  assert.deepEqual(t.sent, ["a", "b", "c"]);
  assert.equal(q.size, 0);
});

Deno.test("one producer more than allowed to wait closes the connection as a slow consumer", async () => {
  const t = stalledTransport();
  let closedWhy = "";
  const q = new OutboundQueue(
    t.out,
    { maxMessages: 2, maxBytes: 1000, maxWaiters: 2 },
    (why) => closedWhy = why,
  );
  await q.push("a");
  await q.push("b");
  const waiting = [q.push("c"), q.push("d")];
  assert.equal(q.waiting, 2);
  assert.equal(await q.push("e"), false);
  assert.match(closedWhy, /slow consumer/);
  assert.deepEqual(await Promise.all(waiting), [false, false]);
  assert.deepEqual([q.size, q.waiting, q.bytes], [0, 0, 0]);
  t.release();
});
