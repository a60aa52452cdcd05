/**
 * Random and truncated frames through framing and dispatch: nothing throws, every reply is a well-formed
 * JSON-RPC message, and a client that never reads is cut off instead of making the server buffer without bound.
 */
import assert from "node:assert/strict";
import { testProvider } from "../cli/test_provider.ts";
import { lineSplitter } from "./framing.ts";
import { createAppServer } from "./server.ts";
import { Session } from "./session.ts";
import { rng } from "../tests/helpers/sample.ts";

const TEMPLATES = [
  `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"f","version":"1"}}}`,
  `{"id":2,"method":"thread/list","params":{"limit":3}}`,
  `{"id":"s","method":"thread/read","params":{"threadId":"missing"}}`,
  `{"id":3,"method":"no/such/method"}`,
  `{"id":4,"method":"turn/start","params":{"threadId":7}}`,
  `{"id":5,"method":"command/exec","params":{"command":"--version"}}`,
  `[{"id":6,"method":"thread/list"},{"method":"initialized"},{"id":7}]`,
  `{"method":"initialized"}`,
  `{"id":8,"result":{"decision":"accept"}}`,
  `[]`,
  `[1,2,3]`,
  `{"id":null,"method":"x"}`,
];

function randomFrame(rand: () => number): string {
  const pick = TEMPLATES[Math.floor(rand() * TEMPLATES.length)];
  switch (Math.floor(rand() * 4)) {
    case 0:
      return pick;
    case 1:
      return pick.slice(0, Math.floor(rand() * pick.length));
    case 2: {
      const chars = [...pick];
      for (let i = 0; i < 3; i++) {
        chars[Math.floor(rand() * chars.length)] = String.fromCharCode(rand() * 128);
      }
      return chars.join("");
    }
    default:
      return Array.from({ length: Math.floor(rand() * 40) }, () => String.fromCharCode(rand() * 0x2ff)).join(
        "",
      );
  }
}

Deno.test("fuzz: random and truncated frames never crash framing or dispatch; replies stay well-formed", async () => {
  const rand = rng(0x5eed);
  const server = createAppServer({ provider: testProvider(), runner: () => Promise.resolve(0) });
  const replies: string[] = [];
  const conn = server.connect("Stdio", {
    send: (m) => {
      replies.push(m);
      return Promise.resolve();
    },
    close: () => {},
  });
  const splitter = lineSplitter(256);
  const enc = new TextEncoder();
  for (let i = 0; i < 3000; i++) {
    const bytes = enc.encode(randomFrame(rand) + (rand() < 0.9 ? "\n" : ""));
    const cut = Math.floor(rand() * bytes.length);
    for (const part of [bytes.subarray(0, cut), bytes.subarray(cut)]) {
      for (const e of splitter.push(part)) {
        if (e.kind === "line") await conn.receive(e.text);
        else await conn.rejectFrame(`oversized ${e.bytes}`);
      }
      assert.ok(splitter.buffered <= 256);
    }
  }
  await conn.drain();
  assert.ok(replies.length > 1000);
  for (const r of replies) {
    const parsed = JSON.parse(r);
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) assert.equal(m.jsonrpc, "2.0");
  }
  await server.close();
});

Deno.test("fuzz: a client that never reads is closed once its queue and waiters are full", async () => {
  const rand = rng(42);
  const limits = { maxMessages: 8, maxBytes: 4096, maxWaiters: 4 };
  const server = createAppServer({ provider: testProvider(), queueLimits: limits });
  let closed = false;
  const conn = server.connect("RemoteControl", {
    send: () => new Promise<void>(() => {/* never drains */}),
    close: () => closed = true,
  });
  assert.ok(conn instanceof Session);
  for (let i = 0; i < 500 && !closed; i++) {
    // Not awaited: a transport that awaited would simply stop reading, which is the backpressure itself.
    conn.receive(randomFrame(rand));
    await Promise.resolve();
    assert.ok(conn.queue.size <= limits.maxMessages, `queue ${conn.queue.size}`);
    assert.ok(conn.queue.waiting <= limits.maxWaiters, `waiters ${conn.queue.waiting}`);
  }
  assert.equal(closed, true);
  assert.equal(conn.queue.size, 0);
  await server.close();
});
