/**
 * A raw WebSocket upgrade request, for the listener's own checks (Host, Origin, token) that a WebSocket
 * client would not let a test get wrong on purpose.
 */

/** One raw HTTP/1.1 upgrade request with exactly these headers; returns the status code the listener answered. */
export async function handshakeStatus(
  port: number,
  headers: Record<string, string>,
  path = "/",
): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const head = [
    `GET ${path} HTTP/1.1`,
    "Upgrade: websocket",
    "Connection: Upgrade",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    "Sec-WebSocket-Version: 13",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    "",
    "",
  ].join("\r\n");
  await conn.write(new TextEncoder().encode(head));
  // The status line is all that is read: the code is its second word.
  const buf = new Uint8Array(256);
  const n = await conn.read(buf);
  conn.close();
  return Number(new TextDecoder().decode(buf.subarray(0, n ?? 0)).split(" ")[1]);
}
