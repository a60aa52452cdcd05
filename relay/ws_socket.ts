/**
 * The relay socket on `npm:ws`: the one outbound WebSocket of the relay client, behind `socket.ts`'s interface
 * so the session never sees the library. `npm:ws` is used instead of the native `WebSocket` because the
 * production relay needs two things the native API cannot do: WebSocket ping frames (liveness every 10 s) and
 * the status and body of a refused handshake (only a 404 whose body is exactly `{"detail":"Remote app server
 * not found"}` means the relay forgot this server). ws turns Nagle's algorithm off on its socket
 * (`setNoDelay`), so an ack followed by a request does not wait for the peer's delayed ACK.
 */
import { Buffer, isAscii } from "node:buffer";
// Before ws: it picks its masking function when it loads.
import "./ws_mask.ts";
// @ts-types="@types/ws"
import WebSocket from "ws";
import { HandshakeRefused, type OpenSocket, type RelaySocket, type SocketHandlers } from "./socket.ts";

/**
 * A text frame's string. ws has already checked that it is UTF-8; an ASCII frame (every envelope but those
 * carrying non-ASCII JSON) is copied as Latin-1 instead of decoded: 0.03 ms instead of 0.15 ms for a 136 KiB
 * segment frame, about 700 per 100 MiB message.
 */
export function frameText(data: WebSocket.RawData): string {
  const bytes = Array.isArray(data)
    ? Buffer.concat(data)
    : data instanceof ArrayBuffer
    ? Buffer.from(data)
    : data;
  return isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
}

/** How much of a refused handshake's body is kept for the 404 rule and the error text. */
const BODY_PREVIEW_BYTES = 4096;

type SocketEvent = { kind: "text"; text: string } | { kind: "binary" | "activity" | "close" };

/**
 * Listens from the moment it is made (inside ws's "open" event). Under load, Deno's Node compat can hand ws a
 * frame that came right behind the handshake response before the session's `await` of the open socket resumes,
 * and ws drops events no one listens to: the relay counts such a frame as delivered, so it would be lost for
 * good (seen: a phone's `initialize` never answered). Early events wait here until `listen` installs handlers.
 */
class WsRelaySocket implements RelaySocket {
  #handlers: SocketHandlers | undefined;
  #early: SocketEvent[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on("message", (data, isBinary) => {
      const h = this.#handlers;
      // Listening (every frame but those right behind the handshake): straight to the handlers, no event objects.
      if (h) {
        h.onActivity();
        return isBinary ? h.onBinary() : h.onText(frameText(data));
      }
      this.#dispatch({ kind: "activity" });
      if (isBinary) return this.#dispatch({ kind: "binary" });
      this.#dispatch({ kind: "text", text: frameText(data) });
    });
    ws.on("pong", () => this.#dispatch({ kind: "activity" }));
    // The relay's own pings are no sign of life: a relay that pings but never answers ours is dead to us
    // (ws answers them by itself). Only pongs and data frames count.
    ws.on("close", () => this.#dispatch({ kind: "close" }));
    // Errors are always followed by "close"; the session learns of the end there.
    ws.on("error", () => {});
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  send(text: string, written?: () => void): void {
    if (this.isOpen) this.ws.send(text, written);
  }

  sendBytes(utf8: Uint8Array, written?: () => void): void {
    // ws masks bytes into a frame buffer of its own (ws 8 never masks a caller's bytes in place), so the
    // caller's array is not changed and no string of the frame is made.
    if (this.isOpen) this.ws.send(utf8, { binary: false }, written);
  }

  ping(): void {
    if (this.isOpen) this.ws.ping();
  }

  terminate(): void {
    this.ws.terminate();
  }

  listen(h: SocketHandlers): void {
    this.#handlers = h;
    const early = this.#early;
    this.#early = [];
    for (const e of early) this.#dispatch(e);
  }

  #dispatch(e: SocketEvent): void {
    const h = this.#handlers;
    if (!h) {
      this.#early.push(e);
      return;
    }
    switch (e.kind) {
      case "text":
        return h.onText(e.text);
      case "binary":
        return h.onBinary();
      case "activity":
        return h.onActivity();
      case "close":
        return h.onClose();
    }
  }
}

export const openWs: OpenSocket = (url, headers, opts) => {
  // Before the socket exists: terminating a connecting ws emits an error no listener would be there to hear.
  if (opts.signal.aborted) return Promise.reject(new Error("remote control disabled while connecting"));
  const ws = new WebSocket(url, { headers, perMessageDeflate: false, handshakeTimeout: opts.timeoutMs });
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      opts.signal.removeEventListener("abort", onAbort);
      if (error) {
        ws.terminate();
        reject(error);
      } else {
        resolve(new WsRelaySocket(ws));
      }
    };
    const onAbort = () => settle(new Error("remote control disabled while connecting"));
    opts.signal.addEventListener("abort", onAbort, { once: true });
    ws.on("unexpected-response", (_req, res) => {
      const parts: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        if (size < BODY_PREVIEW_BYTES) parts.push(chunk);
        size += chunk.length;
      });
      const done = () =>
        settle(
          new HandshakeRefused(
            res.statusCode ?? 0,
            Buffer.concat(parts).subarray(0, BODY_PREVIEW_BYTES).toString("utf8").trim(),
          ),
        );
      res.on("end", done);
      res.on("error", done);
    });
    ws.on("open", () => settle());
    ws.on("error", (e) => settle(e instanceof Error ? e : new Error(String(e))));
  });
};
