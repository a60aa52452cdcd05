import assert from "node:assert/strict";
import http from "node:http";
import { maskInto, unmaskInPlace } from "./ws_mask.ts";
import { frameMessage } from "./segments.ts";
import { openWsSocket } from "./socket.ts";

function reference(source: Uint8Array, key: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = source[i] ^ key[i & 3];
  return out;
}

Deno.test("maskInto matches the byte-wise XOR at every alignment, length and output offset", () => {
  const key = new Uint8Array([0x12, 0x34, 0x56, 0x78]);
  const backing = new Uint8Array(64 + 8);
  for (let i = 0; i < backing.length; i++) backing[i] = (i * 31 + 7) & 0xff;
  for (let start = 0; start < 4; start++) {
    for (let length = 0; length <= 40; length++) {
      const source = backing.slice().subarray(start, start + length);
      const expected = reference(source, key, length);
      // In place (how ws masks a buffer it may modify).
      const inPlace = source.slice();
      const view = new Uint8Array(length + 4).subarray(start % 4, start % 4 + length);
      view.set(inPlace);
      maskInto(view, key, view, 0, length);
      assert.deepEqual(view, expected, `in place, start ${start}, length ${length}`);
      // Into a header buffer at an offset (how ws merges a read-only buffer behind the frame header).
      for (const offset of [2, 6, 14]) {
        const target = new Uint8Array(offset + length).fill(0xee);
        maskInto(source, key, target, offset, length);
        assert.deepEqual(target.subarray(offset), expected, `offset ${offset}, length ${length}`);
        assert.ok(target.subarray(0, offset).every((b) => b === 0xee), "bytes before the offset untouched");
      }
    }
  }
});

Deno.test("unmaskInPlace undoes the mask", () => {
  const key = new Uint8Array([1, 2, 3, 250]);
  const original = new TextEncoder().encode("a frame of some length that is not a multiple of four!");
  const bytes = original.slice(1);
  unmaskInPlace(bytes, key);
  assert.notDeepEqual(bytes, original.slice(1));
  unmaskInPlace(bytes, key);
  assert.deepEqual(bytes, original.slice(1));
});

/**
 * A native WebSocket server that collects `count` text frames, and a relay socket (npm:ws) connected to it;
 * `received` resolves with the frames' texts.
 */
async function socketToCollector(count: number) {
  const received = Promise.withResolvers<string[]>();
  const texts: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onmessage = (ev) => {
      texts.push(ev.data as string);
      if (texts.length === count) received.resolve(texts);
    };
    return response;
  });
  const socket = await openWsSocket(`ws://127.0.0.1:${server.addr.port}/`, {}, {
    timeoutMs: 10_000,
    signal: new AbortController().signal,
  });
  socket.listen({ onText: () => {}, onBinary: () => {}, onActivity: () => {}, onClose: () => {} });
  return {
    socket,
    received: received.promise,
    close: async () => {
      socket.terminate();
      await server.shutdown();
    },
  };
}

Deno.test("ws masks through the hook: a large text frame from the relay socket arrives intact", async () => {
  assert.equal((http as unknown as { websocketMask: unknown }).websocketMask, maskInto);
  const text = "é€x".repeat(50_001);
  const { socket, received, close } = await socketToCollector(2);
  socket.sendBytes?.(new TextEncoder().encode(text));
  socket.send(text);
  assert.deepEqual(await received, [text, text]);
  await close();
});

Deno.test("segment frames built into one shared buffer arrive intact: the socket copies each as it sends", async () => {
  // Three segments of a non-ASCII message, each frame's bytes built right after the previous one was sent.
  const message = JSON.stringify({ id: 1, result: "é€x".repeat(60_000) });
  const frames = frameMessage("server", message, { client_id: "c", stream_id: "s", seq_id: 1 });
  assert.ok(Array.isArray(frames) && frames.length >= 3);
  const { socket, received, close } = await socketToCollector(frames.length);
  const sent = frames.map((f) => {
    const bytes = f.bytes?.() as Uint8Array;
    socket.sendBytes?.(bytes);
    return new TextDecoder().decode(bytes);
  });
  assert.deepEqual(await received, sent);
  assert.deepEqual(sent, frames.map((f) => f.text));
  await close();
});
