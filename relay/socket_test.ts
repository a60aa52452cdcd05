import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { openWsSocket } from "./socket.ts";
import { frameText } from "./ws_socket.ts";
import { until } from "../tests/helpers/until.ts";

/** RFC 6455's handshake constant. */
const WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/** A relay stand-in that sends one text frame right behind its handshake response, then waits for the close. */
function eagerRelay(text: string): { url: string; done: Promise<void> } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const done = (async () => {
    const conn = await listener.accept();
    listener.close();
    const buf = new Uint8Array(4096);
    let request = "";
    while (!request.includes("\r\n\r\n")) {
      const n = await conn.read(buf);
      if (n === null) throw new Error("the client went away before the handshake");
      request += new TextDecoder().decode(buf.subarray(0, n));
    }
    const key = /sec-websocket-key: *(\S+)/i.exec(request)?.[1] ?? "";
    const accept = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(key + WS_GUID));
    const payload = new TextEncoder().encode(text);
    const out = new Uint8Array([
      ...new TextEncoder().encode(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
          `Sec-WebSocket-Accept: ${new Uint8Array(accept).toBase64()}\r\n\r\n`,
      ),
      0x81,
      payload.length,
      ...payload,
    ]);
    for (let at = 0; at < out.length;) at += await conn.write(out.subarray(at));
    while ((await conn.read(buf)) !== null) { /* until the client closes */ }
    conn.close();
  })();
  return { url: `ws://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/`, done };
}

Deno.test("frames that arrive before the session listens are kept for it, not dropped", async () => {
  const relay = eagerRelay('{"type":"client_message"}');
  const socket = await openWsSocket(relay.url, {}, {
    timeoutMs: 5_000,
    signal: new AbortController().signal,
  });
  // A loaded machine can deliver the frame before the awaiting session resumes; waiting makes that certain.
  await new Promise((r) => setTimeout(r, 100));
  const texts: string[] = [];
  let activity = 0;
  let closed = false;
  socket.listen({
    onText: (t) => texts.push(t),
    onBinary: () => {},
    onActivity: () => activity++,
    onClose: () => closed = true,
  });
  await until("the early frame", () => texts.length > 0, 5_000);
  assert.deepEqual(texts, ['{"type":"client_message"}']);
  assert.equal(activity, 1, "the early frame counts as inbound activity for the liveness check");
  socket.terminate();
  await relay.done;
  await until("the close", () => closed, 5_000);
});

Deno.test("frameText gives a text frame's string for ASCII, non-ASCII and fragmented data", () => {
  const bytes = (s: string) => Buffer.from(new TextEncoder().encode(s));
  assert.equal(frameText(bytes('{"a":"plain"}')), '{"a":"plain"}');
  assert.equal(frameText(bytes('{"a":"é 😀"}')), '{"a":"é 😀"}');
  assert.equal(frameText([bytes('{"a":"'), bytes('é"}')]), '{"a":"é"}');
  assert.equal(frameText(new TextEncoder().encode("ab").buffer as ArrayBuffer), "ab");
});
