/**
 * The relay socket: the one outbound WebSocket of the relay client, behind a small interface so the session
 * never sees the library. `npm:ws` is used instead of the native `WebSocket` because the production relay
 * needs two things the native API cannot do: WebSocket ping frames (liveness every 10 s) and the status and
 * body of a refused handshake (only a 404 whose body is exactly `{"detail":"Remote app server not found"}`
 * means the relay forgot this server). ws turns Nagle's algorithm off on its socket (`setNoDelay`), so an ack
 * followed by a request does not wait for the peer's delayed ACK.
 */
import { Buffer } from "node:buffer";
// @ts-types="@types/ws"
import WebSocket from "ws";

/** What a live relay socket offers the session. */
export interface RelaySocket {
  /** Sends one text frame; `written` runs once it left for the network (or failed). No-op once closed. */
  send(text: string, written?: () => void): void;
  /** Sends one text frame given as its UTF-8 bytes (which the socket may mask in place); as `send` otherwise. */
  sendBytes?(utf8: Uint8Array, written?: () => void): void;
  /** Sends a WebSocket ping control frame (empty payload). */
  ping(): void;
  /** Drops the connection at once (dead peer, disable): no close handshake to wait for. */
  terminate(): void;
  readonly isOpen: boolean;
  /** Installs the handlers; `onActivity` hears every inbound frame, control frames included. */
  listen(handlers: SocketHandlers): void;
}

export interface SocketHandlers {
  onText(text: string): void;
  onBinary(): void;
  onActivity(): void;
  onClose(): void;
}

/** The relay answered the upgrade request with an HTTP status instead of switching protocols. */
export class HandshakeRefused extends Error {
  constructor(readonly status: number, readonly body: string) {
    super(`HTTP ${status}${body ? `, body: ${body}` : ""}`);
  }
}

export interface OpenOptions {
  timeoutMs: number;
  signal: AbortSignal;
}

/** Opens the socket; rejects with `HandshakeRefused` for an HTTP answer, or an `Error` for network failures. */
export type OpenSocket = (
  url: string,
  headers: Record<string, string>,
  opts: OpenOptions,
) => Promise<RelaySocket>;

/** How much of a refused handshake's body is kept for the 404 rule and the error text. */
const BODY_PREVIEW_BYTES = 4096;

class WsRelaySocket implements RelaySocket {
  constructor(readonly ws: WebSocket) {}

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  send(text: string, written?: () => void): void {
    if (this.isOpen) this.ws.send(text, written ? () => written() : undefined);
  }

  sendBytes(utf8: Uint8Array, written?: () => void): void {
    // A plain Uint8Array (not a Buffer) is masked in place by ws rather than copied into a new buffer.
    if (this.isOpen) this.ws.send(utf8, { binary: false }, written ? () => written() : undefined);
  }

  ping(): void {
    if (this.isOpen) this.ws.ping();
  }

  terminate(): void {
    this.ws.terminate();
  }

  listen(h: SocketHandlers): void {
    this.ws.on("message", (data, isBinary) => {
      h.onActivity();
      if (isBinary) return h.onBinary();
      h.onText(Array.isArray(data) ? Buffer.concat(data).toString("utf8") : data.toString("utf8"));
    });
    this.ws.on("pong", () => h.onActivity());
    this.ws.on("ping", () => h.onActivity());
    this.ws.on("close", () => h.onClose());
    // Errors are always followed by "close"; the session learns of the end there.
    this.ws.on("error", () => {});
  }
}

export const openWsSocket: OpenSocket = (url, headers, opts) => {
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
