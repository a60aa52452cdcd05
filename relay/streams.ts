/**
 * The stream tracker (the reference's client tracker): every remote (client_id, stream_id) the relay carries
 * becomes an ordinary app-server connection with origin `RemoteControl`, and this module owns each one's state:
 * its connection, inbound de-duplication and chunk assembly, outbound numbering and unacked frames (the
 * outbound buffer), pongs, and idle expiry. The session hands it every parsed client envelope; the frames it
 * produces go to the write pump.
 *
 * Routing: `initialize` opens a stream (or replaces the connection of an open one), any other message needs an
 * open stream; a message whose `seq_id` is at or below the last accepted one is a duplicate. Without
 * `stream_id` (legacy clients) messages go to the stream the server generated for that client. `ping`
 * refreshes a stream's idle timer and answers `pong` (`unknown`, kept nowhere, for a stream that does not
 * exist); `ack` releases frames; `client_closed` closes the stream. A stream without a message or ping for the
 * idle timeout is closed as if `client_closed`, looked for every sweep interval while any is open.
 *
 * Bounds per device (issue 33, B.3): a device (one relay `client_id`) may hold at most `perClient` open streams
 * and all devices together `total`. An `initialize` past a bound opens nothing and is answered with a JSON-RPC
 * error on that stream. Each refusal episode is logged once: the first refusal of a device (or at the total)
 * is logged, later ones are not until that device (or the total) was below its bound again. So one device
 * opening streams in a loop costs the server a small error reply per attempt, never a connection, and never a
 * log line per attempt.
 *
 * What a stream holds is bounded elsewhere: the app server's connection (requests in flight and its outbound
 * queue, rpc/), the unacked frames (128 across all streams, relay/buffer.ts) and one partial inbound assembly
 * per device (relay/segments.ts). The stream record itself is a few fields.
 */
import { type LarkitError, toLarkitError } from "../cli/output/errors.ts";
import type { Clock, Random } from "../cli/provider.ts";
import { RPC_CODES } from "../rpc/errors.ts";
import type { AppServer, Connection } from "../rpc/connection.ts";
import { BUFFER_CAPACITY, OutboundBuffer, type StreamAddress } from "./buffer.ts";
import { type ClientEnvelope, isInitializeRequest } from "./envelopes.ts";
import { frameMessage, Reassembler, SEGMENT_MAX_BYTES, type WireFrame } from "./segments.ts";

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

/** The open streams' records and the per-device bounds. */
export class StreamTable {
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

export interface StreamTiming {
  /** A remote stream without a message or ping for this long is closed as if `client_closed`. */
  streamIdleMs: number;
  /** How often idle streams are looked for. */
  idleSweepMs: number;
}

export interface TrackerOptions {
  appServer: AppServer;
  clock: Clock;
  random: Random;
  timing: StreamTiming;
  limits?: Partial<StreamLimits>;
  /** Unacked frames across all streams; each device may hold half. */
  bufferCapacity?: number;
  /** Where each message's frames go once numbered and stored (the write pump), with their stream's key. */
  sink: (frames: WireFrame[], stream: string) => void;
  log: (line: string) => void;
}

/** Initialize requests are small; a megabyte-sized message on a live stream is not parsed twice to check. */
const INITIALIZE_CHECK_MAX_CHARS = 1024 * 1024;

const encoder = new TextEncoder();

/** What a connection's `send` resolves with once its message is stored. */
const sent = (): void => {};

const frameScratch = new Uint8Array(3 * SEGMENT_MAX_BYTES);

/** A frame's UTF-8 size where it matters for the 150 KiB limit (longer texts are over it either way). */
function utf8Length(text: string): number {
  if (text.length * 3 <= SEGMENT_MAX_BYTES || text.length > SEGMENT_MAX_BYTES) return text.length;
  return encoder.encodeInto(text, frameScratch).written;
}

export class StreamTracker {
  readonly #o: TrackerOptions;
  readonly #table: StreamTable;
  readonly #buffer: OutboundBuffer;
  readonly #reassembler = new Reassembler();
  readonly #closed = new AbortController();
  #sweeping = false;

  constructor(options: TrackerOptions) {
    this.#o = options;
    this.#table = new StreamTable(options.limits);
    const capacity = options.bufferCapacity ?? BUFFER_CAPACITY;
    this.#buffer = new OutboundBuffer(
      options.sink,
      capacity,
      // Half the window per device: one that never acks stalls only its own streams.
      Math.max(1, Math.floor(capacity / 2)),
    );
  }

  /** Every unacked frame per stream key, in send order (what a new socket sends first). */
  backlog(): Map<string, WireFrame[]> {
    return this.#buffer.unackedByStream();
  }

  /** Unacked envelopes across all streams. */
  pendingEnvelopes(): number {
    return this.#buffer.totalPending();
  }

  /** Open remote streams and streams holding an outbound buffer. */
  counts(): { open: number; buffered: number } {
    return { open: this.#table.size, buffered: this.#buffer.streams() };
  }

  /** Closes every stream's connection and fails every producer still waiting for room. */
  close(reason: LarkitError): void {
    this.#closed.abort();
    this.#buffer.close(reason);
    for (const s of this.#table.values()) s.connection.close();
    this.#table.clear();
  }

  /**
   * One client envelope from the relay (`text` is its frame, for the chunk size limit; `messageText`, when
   * known, the JSON text of a `client_message`'s message as the client wrote it).
   */
  handle(env: ClientEnvelope, text: string, messageText?: string): void {
    switch (env.type) {
      case "client_message":
        return this.#deliver(env, env.message, messageText, false);
      case "client_message_chunk": {
        const seen = this.#reassembler.observe(env.client_id, env, utf8Length(text));
        if (seen.kind === "rejected") {
          return this.#o.log(
            `remote control: dropping chunked message ${env.client_id}/${env.stream_id}#${env.seq_id}: ${seen.reason}`,
          );
        }
        if (seen.kind !== "complete") return;
        return this.#deliver(env, undefined, seen.parts.join(""), true);
      }
      case "ack": {
        if (env.stream_id === undefined || env.seq_id === undefined) return;
        const address = { clientId: env.client_id, streamId: env.stream_id };
        this.#buffer.ack(address, env.seq_id, env.segment_id);
        // Messages a closed stream's connection still sent leave a buffer behind; once acked it is freed.
        if (!this.#table.has(address) && this.#buffer.pending(address) === 0) {
          this.#buffer.drop(address);
        }
        return;
      }
      case "ping":
        return this.#ping(env.client_id, env.stream_id);
      case "client_closed": {
        const streamId = env.stream_id ?? this.#table.legacyStream(env.client_id);
        if (streamId !== undefined) this.#closeStream({ clientId: env.client_id, streamId }, "client_closed");
        return;
      }
    }
  }

  #ping(clientId: string, streamIdGiven: string | undefined): void {
    const streamId = streamIdGiven ?? this.#table.legacyStream(clientId) ?? this.#o.random.uuid();
    const address = { clientId, streamId };
    const stream = this.#table.get(address);
    const pong = (seq: number) => [{
      seqId: seq,
      text: JSON.stringify({
        type: "pong",
        status: stream ? "active" : "unknown",
        client_id: address.clientId,
        stream_id: address.streamId,
        seq_id: seq,
      }),
    }];
    if (!stream) {
      // Nothing is kept for a stream that does not exist (seq 1, as the reference's): pings to made-up
      // stream ids cost no memory and no share of the window.
      const failed = this.#buffer.sendUnkept(address, pong);
      if (failed) this.#o.log(`remote control: pong not sent: ${failed.message}`);
      return;
    }
    stream.lastActivity = this.#o.clock.now();
    // While the device's share of the window is full, one waiting pong is enough: a device that pings
    // without acking does not pile them up.
    const waits = !this.#buffer.hasRoom(address.clientId);
    if (waits && stream.pongWaiting) return;
    if (waits) stream.pongWaiting = true;
    this.#buffer.enqueue(address, pong)
      .catch((e) => this.#o.log(`remote control: pong not sent: ${toLarkitError(e).message}`))
      .finally(() => {
        if (waits) stream.pongWaiting = false;
      });
  }

  /**
   * Routes one complete client JSON-RPC message (parsed, with its JSON text when known; only as text when it
   * was reassembled): `initialize` opens a stream, others need an open one. Without `stream_id` (legacy clients)
   * the message goes to the stream the server generated for that client.
   */
  #deliver(env: ClientEnvelope, message: unknown, text: string | undefined, reassembled: boolean): void {
    const legacy = env.stream_id === undefined;
    const known = env.stream_id ?? this.#table.legacyStream(env.client_id);
    const stream = known === undefined
      ? undefined
      : this.#table.get({ clientId: env.client_id, streamId: known });
    if (reassembled && text !== undefined && (!stream || text.length <= INITIALIZE_CHECK_MAX_CHARS)) {
      try {
        message = JSON.parse(text);
      } catch {
        return this.#o.log("remote control: reassembled message is not JSON; dropped");
      }
    }
    const now = this.#o.clock.now();
    if (message !== undefined && isInitializeRequest(message)) {
      const streamId = known ?? this.#o.random.uuid();
      const address = { clientId: env.client_id, streamId };
      const refused = this.#table.admit(address);
      if (refused) return this.#refuse(address, message, refused.message, refused.log);
      // A re-initialize replaces the connection; the outbound numbering continues, inbound starts afresh.
      // Unlisted first, so the old connection's close does not close the stream itself.
      if (stream) {
        this.#table.remove(address);
        stream.connection.close();
      }
      // After the removal, which forgets the legacy mapping of the stream it removes.
      if (legacy) this.#table.setLegacyStream(env.client_id, streamId);
      this.#reassembler.restart(env.client_id, streamId, reassembled ? env.seq_id : undefined);
      const opened: RemoteStream = {
        ...address,
        lastSeq: env.seq_id ?? -1,
        lastActivity: now,
        connection: this.#openConnection(address),
      };
      this.#table.add(opened);
      void this.#sweepIdle();
      this.#receive(opened, text ?? JSON.stringify(message));
      return;
    }
    if (!stream) return;
    if (env.seq_id !== undefined) {
      if (env.seq_id <= stream.lastSeq) return;
      stream.lastSeq = env.seq_id;
    }
    stream.lastActivity = now;
    this.#receive(stream, text ?? JSON.stringify(message));
  }

  /**
   * Answers an `initialize` past a stream bound with a JSON-RPC error on its stream; no connection opens. The
   * answer is not kept for acks: a device refused in a loop takes no share of the unacked window that every
   * device's answers wait for, and leaves no state behind.
   */
  #refuse(address: StreamAddress, message: unknown, why: string, log: boolean): void {
    if (log) this.#o.log(`remote control: refusing new streams of ${address.clientId}: ${why}`);
    const id = (message as { id: unknown }).id;
    const reply = JSON.stringify({ id, error: { code: RPC_CODES.overloaded, message: why } });
    const failed = this.#buffer.sendUnkept(
      address,
      (seq) =>
        frameMessage("server", reply, {
          client_id: address.clientId,
          stream_id: address.streamId,
          seq_id: seq,
        }),
    );
    if (failed) this.#o.log(`remote control: refusal not sent: ${failed.message}`);
  }

  #receive(stream: RemoteStream, text: string): void {
    stream.connection.receive(text).catch((e) =>
      this.#o.log(`remote control: stream ${stream.clientId}/${stream.streamId}: ${toLarkitError(e).message}`)
    );
  }

  /** Closes a remote stream: its connection, partial assembly and outbound buffer go away. */
  #closeStream(address: StreamAddress, why: string): void {
    const stream = this.#table.remove(address);
    this.#reassembler.invalidate(address.clientId, address.streamId);
    this.#buffer.drop(address);
    if (stream) {
      this.#o.log(`remote control: stream ${address.clientId}/${address.streamId} closed (${why})`);
      stream.connection.close();
    }
  }

  /** Closes streams idle past the timeout; runs while any stream is open (one loop at a time). */
  async #sweepIdle(): Promise<void> {
    if (this.#sweeping) return;
    this.#sweeping = true;
    const { clock, timing } = this.#o;
    try {
      while (this.#table.size > 0 && !this.#closed.signal.aborted) {
        try {
          await clock.sleep(timing.idleSweepMs, this.#closed.signal);
        } catch {
          return;
        }
        const now = clock.now();
        for (const s of this.#table.values()) {
          if (now - s.lastActivity >= timing.streamIdleMs) this.#closeStream(s, "idle");
        }
      }
    } finally {
      this.#sweeping = false;
    }
  }

  #openConnection(address: StreamAddress): Connection {
    const label = `${address.clientId}/${address.streamId}`;
    const connection = this.#o.appServer.connect(
      "RemoteControl",
      {
        // Not an async function: an answer costs the buffer's promise only, not an await's ticks besides.
        send: (message) =>
          this.#buffer.enqueue(address, (seq) =>
            frameMessage("server", message, {
              client_id: address.clientId,
              stream_id: address.streamId,
              seq_id: seq,
            })).then(sent, (e) => {
              const err = toLarkitError(e);
              // Too large to send (over 100 MiB or 1024 segments): this message is dropped, the stream goes on.
              if (err.type !== "validation") throw err;
              this.#o.log(`remote control: dropping a server message on ${label}: ${err.message}`);
            }),
        close: () => {
          if (this.#table.get(address)?.connection === connection) {
            this.#closeStream(address, "server closed");
          }
        },
      },
      label,
      { device: address.clientId },
    );
    return connection;
  }
}
