import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { bytesReader } from "../cli/provider.ts";
import { testProvider } from "../cli/test_provider.ts";
import { createAppServer } from "./server.ts";
import { coalescingSink } from "./transports/coalesce.ts";
import { serveNdjson } from "./transports/ndjson.ts";
import { serveStdio } from "./transports/stdio.ts";

/** A write the test completes by hand, so which lines share a write is decided by the test, not by timing. */
function manualWrites() {
  const writes: string[] = [];
  const pending: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  return {
    writes,
    write(text: string): Promise<void> {
      writes.push(text);
      return new Promise((resolve, reject) => pending.push({ resolve, reject }));
    },
    /** Completes the oldest write in flight and lets the sink react. */
    async complete(error?: Error): Promise<void> {
      const next = pending.shift();
      assert.ok(next, "no write in flight");
      if (error) next.reject(error);
      else next.resolve();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

Deno.test("coalescing sink: a burst goes out in one write; lines sent while it is in flight go in the next", async () => {
  const io = manualWrites();
  const sink = coalescingSink((t) => io.write(t), () => assert.fail("no failure expected"));
  for (let i = 0; i < 10; i++) await sink.send(`m${i}\n`);
  // Not written while the burst goes on: the producer awaited between its lines, the event loop never turned.
  assert.deepEqual(io.writes, []);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(io.writes, ["m0\nm1\nm2\nm3\nm4\nm5\nm6\nm7\nm8\nm9\n"]);
  await sink.send("m10\n");
  await sink.send("m11\n");
  let flushed = false;
  const done = sink.flushed().then(() => flushed = true);
  await io.complete();
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(io.writes.slice(1), ["m10\nm11\n"]);
  assert.equal(flushed, false, "flushed() waits for the write in flight");
  await io.complete();
  await done;
  assert.equal(flushed, true);
});

Deno.test("coalescing sink: past maxBytes a sender waits until its batch is written, and the batch goes at once", async () => {
  const io = manualWrites();
  const sink = coalescingSink((t) => io.write(t), () => assert.fail("no failure expected"), 8);
  await sink.send("aaaa\n"); // 5 bytes unwritten: accepted
  let accepted = false;
  const big = sink.send("bbbb\n").then(() => accepted = true); // 10 > 8: waits for its batch
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(io.writes, ["aaaa\nbbbb\n"]);
  assert.equal(accepted, false, "accepted only once its own batch is written");
  await io.complete();
  await big;
  assert.equal(accepted, true);
  await sink.flushed();
});

Deno.test("coalescing sink: a failed write reports once, rejects waiting and later senders, flushed() settles", async () => {
  const io = manualWrites();
  const failures: unknown[] = [];
  const sink = coalescingSink((t) => io.write(t), (e) => failures.push(e), 4);
  await sink.send("a\n");
  const waiting = sink.send("bbbbbb\n"); // over the bound: waits for its write
  await new Promise((resolve) => setTimeout(resolve, 0));
  await io.complete(new Error("broken pipe"));
  assert.equal(failures.length, 1);
  assert.deepEqual(io.writes, ["a\nbbbbbb\n"]);
  await assert.rejects(waiting, /broken pipe/);
  await assert.rejects(sink.send("c\n"), /broken pipe/);
  await sink.flushed();
  assert.deepEqual(io.writes, ["a\nbbbbbb\n"], "nothing is written after the failure");
  assert.equal(failures.length, 1);
});

Deno.test("stdio: replies owed when stdin ends all arrive, in order, in fewer writes than messages", async () => {
  const p = testProvider();
  const server = createAppServer({ provider: p, db: new DatabaseSync(":memory:") });
  const writes: string[] = [];
  // A slow stdout: every write takes a timer tick, so replies pile up behind it.
  const output = {
    isTTY: false,
    async write(chunk: string | Uint8Array) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      writes.push(typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk));
    },
  };
  const lines = [
    { jsonrpc: "2.0", id: 0, method: "initialize", params: { clientInfo: { name: "t", version: "1" } } },
    ...Array.from({ length: 40 }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "thread/list" })),
  ].map((m) => JSON.stringify(m) + "\n").join("");
  await serveStdio(server, { input: bytesReader(lines), output });
  await server.close();
  const replies = writes.join("").trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(replies.map((r) => r.id), Array.from({ length: 41 }, (_, i) => i));
  assert.ok(replies.every((r) => r.result), "every reply is a result");
  assert.ok(writes.length < replies.length, `${writes.length} writes for ${replies.length} messages`);
});

Deno.test("ndjson: after the peer half-closes, every owed reply is written before the stream is closed", async () => {
  const server = createAppServer({ provider: testProvider(), db: new DatabaseSync(":memory:") });
  const writes: string[] = [];
  let closedAfter = -1;
  const output = {
    async write(text: string) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      writes.push(text);
    },
    close() {
      closedAfter = writes.length;
    },
  };
  const lines = [
    { jsonrpc: "2.0", id: 0, method: "initialize", params: { clientInfo: { name: "t", version: "1" } } },
    ...Array.from({ length: 20 }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "thread/list" })),
  ].map((m) => JSON.stringify(m) + "\n").join("");
  await serveNdjson(server, ReadableStream.from([new TextEncoder().encode(lines)]), output, {
    origin: "Stdio",
  });
  await server.close();
  const replies = writes.join("").trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(replies.map((r) => r.id), Array.from({ length: 21 }, (_, i) => i));
  assert.equal(closedAfter, writes.length, "the stream is closed only after the last write");
});
