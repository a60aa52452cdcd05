/**
 * The open remote streams of one session, and the bounds per device (issue 33, B.3): a device (one relay
 * `client_id`) may hold at most `perClient` open streams and all devices together `total`. An `initialize` past
 * a bound opens nothing; the session answers it with a JSON-RPC error on that stream. Each refusal episode is
 * logged once: the first refusal of a device (or at the total) is logged, later ones are not until that device
 * (or the total) was below its bound again. So one device opening streams in a loop costs the server a small
 * error reply per attempt, never a connection, and never a log line per attempt.
 *
 * What a stream holds is bounded elsewhere: the app server's connection (requests in flight and its outbound
 * queue, rpc/), the session's unacked frames (128 across all streams, relay/buffer.ts) and one partial
 * inbound assembly per device (relay/segments.ts). The stream record itself is a few fields.
 */
import type { Connection } from "../rpc/connection.ts";
import type { StreamAddress } from "./buffer.ts";

export interface StreamLimits {
  /** Open streams one device (client_id) may hold. */
  perClient: number;
  /** Open streams across all devices. */
  total: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = { perClient: 32, total: 256 };

export interface RemoteStream extends StreamAddress {
  connection: Connection;
  /** Last accepted client seq_id; inbound duplicates at or below it are ignored. */
  lastSeq: number;
  /** Clock time of the last client_message or ping (the idle timeout). */
  lastActivity: number;
  /** A pong waits for room in the outbound window (a second ping meanwhile adds none). */
  pongWaiting?: boolean;
}

/** Why an `initialize` opened nothing: the message of its JSON-RPC error, and whether to log it (once). */
export interface Refusal {
  message: string;
  log: boolean;
}

export function streamKey(a: StreamAddress): string {
  return `${a.clientId}\u0000${a.streamId}`;
}

export class StreamTracker {
  readonly limits: StreamLimits;
  readonly #streams = new Map<string, RemoteStream>();
  readonly #perClient = new Map<string, number>();
  /** Stream ids the server generated for legacy clients (messages without `stream_id`), per client_id. */
  readonly #legacy = new Map<string, string>();
  /** Devices refused since they were last below their bound (each logged once). */
  readonly #refusedClients = new Set<string>();
  #refusedTotal = false;

  constructor(limits: Partial<StreamLimits> = {}) {
    this.limits = { ...DEFAULT_STREAM_LIMITS, ...limits };
  }

  get size(): number {
    return this.#streams.size;
  }

  get(address: StreamAddress): RemoteStream | undefined {
    return this.#streams.get(streamKey(address));
  }

  has(address: StreamAddress): boolean {
    return this.#streams.has(streamKey(address));
  }

  values(): RemoteStream[] {
    return [...this.#streams.values()];
  }

  /** Open streams of one device. */
  openFor(clientId: string): number {
    return this.#perClient.get(clientId) ?? 0;
  }

  legacyStream(clientId: string): string | undefined {
    return this.#legacy.get(clientId);
  }

  setLegacyStream(clientId: string, streamId: string): void {
    this.#legacy.set(clientId, streamId);
  }

  /**
   * Whether a new stream of `clientId` may open (a re-initialize of an open stream replaces it and always may):
   * undefined when it may, else the refusal.
   */
  admit(address: StreamAddress): Refusal | undefined {
    if (this.has(address)) return undefined;
    const { perClient, total } = this.limits;
    if (this.openFor(address.clientId) >= perClient) {
      const log = !this.#refusedClients.has(address.clientId);
      this.#refusedClients.add(address.clientId);
      return {
        message: `too many open streams for this device (at most ${perClient}); close one first`,
        log,
      };
    }
    if (this.#streams.size >= total) {
      const log = !this.#refusedTotal;
      this.#refusedTotal = true;
      return {
        message: `too many open remote streams on this server (at most ${total}); try again later`,
        log,
      };
    }
    return undefined;
  }

  /** Adds a stream (replacing the record of the same address, whose connection the caller closed). */
  add(stream: RemoteStream): void {
    const key = streamKey(stream);
    if (!this.#streams.has(key)) {
      this.#perClient.set(stream.clientId, this.openFor(stream.clientId) + 1);
    }
    this.#streams.set(key, stream);
  }

  /** Removes a stream's record (and its legacy mapping); returns it when it was open. */
  remove(address: StreamAddress): RemoteStream | undefined {
    const key = streamKey(address);
    const stream = this.#streams.get(key);
    if (this.#legacy.get(address.clientId) === address.streamId) this.#legacy.delete(address.clientId);
    if (!stream) return undefined;
    this.#streams.delete(key);
    const left = this.openFor(address.clientId) - 1;
    if (left > 0) this.#perClient.set(address.clientId, left);
    else this.#perClient.delete(address.clientId);
    // Below the bounds again: the next refusal is a new episode and is logged.
    if (left < this.limits.perClient) this.#refusedClients.delete(address.clientId);
    if (this.#streams.size < this.limits.total) this.#refusedTotal = false;
    return stream;
  }

  /** Forgets every record (the session closed their connections). */
  clear(): void {
    this.#streams.clear();
    this.#perClient.clear();
    this.#legacy.clear();
    this.#refusedClients.clear();
    this.#refusedTotal = false;
  }
}
