/**
 * Word-wide WebSocket masking for `npm:ws`. Every frame a client sends is XORed with a fresh random 4-byte key
 * (RFC 6455 §5.3). ws does this with a native helper when it finds one (`bufferutil`, or `websocketMask` on
 * the `http` module, which Bun provides) and otherwise byte by byte in JavaScript: on Deno that loop was the
 * largest cost of sending a 100 MiB result (bench big: 543 of the server's 710 ms of CPU). This module gives ws
 * the `http` hook it looks for, XORing 32 bits at a time. It must be evaluated before ws (ws reads the hook
 * once, when it loads): `relay/socket.ts` and `relay/remote_client.ts` import it first. The keys stay ws's
 * own random ones; only the loop is faster.
 */
import http from "node:http";

/** Whether 32-bit words are stored little-endian here (the word mask below is laid out for that). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** `output[offset + i] = source[i] ^ key[i & 3]` for `i < length`; `output` may be `source` itself. */
export function maskInto(
  source: Uint8Array,
  key: Uint8Array,
  output: Uint8Array,
  offset: number,
  length: number,
): void {
  if (source !== output || offset !== 0) output.set(source.subarray(0, length), offset);
  unmaskInPlace(output.subarray(offset, offset + length), key);
}

/** XORs `bytes` with the repeating 4-byte `key`, starting at key byte 0. */
export function unmaskInPlace(bytes: Uint8Array, key: Uint8Array): void {
  const length = bytes.length;
  // Byte by byte until the address is word-aligned (a Uint32Array view needs it), then word by word.
  const head = Math.min(length, (4 - (bytes.byteOffset & 3)) & 3);
  for (let i = 0; i < head; i++) bytes[i] ^= key[i & 3];
  const words = LITTLE_ENDIAN ? (length - head) >>> 2 : 0;
  if (words > 0) {
    const word = (key[head & 3] | key[(head + 1) & 3] << 8 | key[(head + 2) & 3] << 16 |
      key[(head + 3) & 3] << 24) >>> 0;
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + head, words);
    for (let w = 0; w < words; w++) view[w] ^= word;
  }
  for (let i = head + words * 4; i < length; i++) bytes[i] ^= key[i & 3];
}

const hooks = http as unknown as { websocketMask?: unknown; websocketUnmask?: unknown };
// A runtime that brings its own native helper keeps it.
if (hooks.websocketMask === undefined) {
  hooks.websocketMask = maskInto;
  hooks.websocketUnmask = unmaskInPlace;
}
