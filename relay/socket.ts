/**
 * The relay socket as the session sees it: a small interface, so the session never sees the WebSocket library.
 * The implementation (`ws_socket.ts`, on `npm:ws`) loads with the first connection: an app server whose remote
 * control is off never loads ws and the Node modules it pulls in (spawn -> `initialize`, issue 17).
 */
import type * as WsSocket from "./ws_socket.ts";

/**
 * Imports through a specifier Deno cannot resolve ahead of time, so the module stays out of the start-up graph;
 * the type import keeps it type-checked and `deno task compile` lists it for `--include`.
 */
const later = <T>(path: string): Promise<T> => import(path);

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
  /**
   * Installs the handlers (frames that came earlier are handed over first); `onActivity` hears every data
   * frame and every pong, never the peer's pings (those say nothing about whether it answers ours).
   */
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

/** Opens the relay socket over `npm:ws` (see `ws_socket.ts`), loading it with the first connection. */
export const openWsSocket: OpenSocket = async (url, headers, opts) =>
  await (await later<typeof WsSocket>("./ws_socket.ts")).openWs(url, headers, opts);
