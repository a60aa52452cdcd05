/**
 * The contract between the agent server core and its transports (stdio, unix socket, websocket, in-process,
 * and the relay's virtual connections). A transport turns bytes into complete JSON texts and back; the server
 * never sees bytes.
 */

/** Where a connection came from; handlers and policy decide by it (remote origins may be restricted). */
export type Origin = "Stdio" | "InProcess" | "WebSocket" | "RemoteControl";

export const ORIGINS: readonly Origin[] = ["Stdio", "InProcess", "WebSocket", "RemoteControl"];

/** How the server sends one complete JSON-RPC message (a JSON text) to a peer. */
export interface Outbound {
  /** Resolves when the transport accepted the message; the server awaits it, which is the backpressure. */
  send(message: string): Promise<void>;
  close(): void;
}

/** One peer as the server sees it. */
export interface Connection {
  readonly id: string;
  readonly origin: Origin;
  /** One complete incoming JSON text (a frame; may be a batch or garbage). */
  receive(message: string): Promise<void>;
  /** The peer went away: clean up its subscriptions; pending approvals stay with their thread. */
  close(): void;
}

/** What a transport knows of the peer beyond its origin. */
export interface Peer {
  /**
   * The remote device behind a `RemoteControl` stream (the relay's client id): threads and turns it starts are
   * its own, and under a remote policy it reaches only those.
   */
  device?: string;
}

export interface AppServer {
  connect(origin: Origin, out: Outbound, label?: string, peer?: Peer): Connection;
  close(): Promise<void>;
}
