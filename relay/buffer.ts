/**
 * Outbound reliability: every server envelope is numbered per (client_id, stream_id) and kept until the relay
 * acks it, so a reconnect can resend exactly what was not confirmed. The limit of 128 unacked frames counts
 * across all streams (the reference's one channel): while it is reached, producers wait (backpressure) and
 * nothing is dropped; a message already being stored is stored whole. One device (client_id) may hold at most
 * its share of the limit (the session gives each half): a device that never acks stalls its own streams, never
 * another device's. Sequence numbers start at 1 and survive reconnects because the buffer outlives sockets; a closed
 * stream's buffer is freed with `drop`.
 */
import { LarkitError } from "../cli/output/errors.ts";
import type { WireFrame } from "./segments.ts";

/** Unacked frames, across all streams, before producers wait (the reference's channel capacity). */
export const BUFFER_CAPACITY = 128;

export interface StreamAddress {
  clientId: string;
  streamId: string;
}

interface Outbox extends StreamAddress {
  nextSeq: number;
  frames: WireFrame[];
  /** Tail of the per-stream chain that serializes producers. */
  lock: Promise<void>;
  /** Producers in the chain, waiting or running: while any is, a new one queues behind them. */
  queued: number;
  /** Its key in the outbox map (and the sink's stream key). */
  key: string;
}

function keyOf(a: StreamAddress): string {
  return `${a.clientId}\u0000${a.streamId}`;
}

export class OutboundBuffer {
  readonly #capacity: number;
  readonly #clientShare: number;
  readonly #outboxes = new Map<string, Outbox>();
  #total = 0;
  /** Unacked frames per client_id. */
  readonly #perClient = new Map<string, number>();
  /** Producers waiting for room, woken together whenever frames are released. */
  #roomWaiters: (() => void)[] = [];
  #closed: LarkitError | undefined;

  readonly #sink: (frames: WireFrame[], stream: string) => void;

  /**
   * `sink` receives each message's frames, with their stream's key, synchronously once stored (the session
   * writes them if connected).
   */
  constructor(
    sink: (frames: WireFrame[], stream: string) => void,
    capacity = BUFFER_CAPACITY,
    clientShare = capacity,
  ) {
    this.#sink = sink;
    this.#capacity = capacity;
    this.#clientShare = clientShare;
  }

  /** Whether a message of this device would be stored now, without waiting. */
  hasRoom(clientId: string): boolean {
    return !this.#full(clientId);
  }

  #full(clientId: string): boolean {
    return this.#total >= this.#capacity || (this.#perClient.get(clientId) ?? 0) >= this.#clientShare;
  }

  #count(clientId: string, n: number): void {
    this.#total += n;
    const left = (this.#perClient.get(clientId) ?? 0) + n;
    if (left > 0) this.#perClient.set(clientId, left);
    else this.#perClient.delete(clientId);
  }

  /**
   * Waits for room in the buffer, then numbers one message, stores its frames (built by `frame` from the
   * assigned seq_id) and hands them to the sink. Calls on one stream run strictly in call order, so seq_ids
   * follow the producer's order; the seq is consumed only when framing succeeds.
   */
  enqueue(address: StreamAddress, frame: (seqId: number) => WireFrame[] | LarkitError): Promise<WireFrame[]> {
    const box = this.#outbox(address);
    // Nothing ahead of it on this stream and room now (every answer of a one-at-a-time client): stored at once,
    // without the chain's three promises and closures per message.
    if (box.queued === 0 && (this.#closed || !this.#full(address.clientId))) {
      try {
        return Promise.resolve(this.#store(box, address, frame));
      } catch (e) {
        return Promise.reject(e);
      }
    }
    box.queued++;
    const run = box.lock.then(async () => {
      while (this.#full(address.clientId) && !this.#closed) {
        await new Promise<void>((resolve) => this.#roomWaiters.push(resolve));
      }
      return this.#store(box, address, frame);
    });
    const settled = () => {
      box.queued--;
    };
    box.lock = run.then(settled, settled);
    return run;
  }

  /** Numbers and stores one message's frames and hands them to the sink (the caller's turn on its stream). */
  #store(
    box: Outbox,
    address: StreamAddress,
    frame: (seqId: number) => WireFrame[] | LarkitError,
  ): WireFrame[] {
    if (this.#closed) throw this.#closed;
    const frames = frame(box.nextSeq);
    if (frames instanceof LarkitError) throw frames;
    box.nextSeq++;
    // The stream may have been dropped (closed) while this producer waited: keep numbering, store nothing.
    if (this.#outboxes.get(box.key) !== box) return frames;
    for (const f of frames) box.frames.push(f);
    this.#count(address.clientId, frames.length);
    this.#sink(frames, box.key);
    return frames;
  }

  /**
   * Numbers one message and hands it to the sink without keeping it: it takes no share of the window, awaits no
   * ack and is not resent after a reconnect. For answers that must not let one device hold up the others (a
   * stream refused past its bound); an address holding nothing else keeps no state, so its numbering restarts
   * at 1 as a pong to an unknown stream's does.
   */
  sendUnkept(
    address: StreamAddress,
    frame: (seqId: number) => WireFrame[] | LarkitError,
  ): LarkitError | undefined {
    if (this.#closed) return this.#closed;
    const box = this.#outboxes.get(keyOf(address));
    const frames = frame(box?.nextSeq ?? 1);
    if (frames instanceof LarkitError) return frames;
    if (box) box.nextSeq++;
    this.#sink(frames, keyOf(address));
    return undefined;
  }

  /**
   * Removes the stream's frames up to the cursor: all segments of seq <= N without `segmentId`, or segments up to
   * (N, k) with it. Returns how many frames were released.
   */
  ack(address: StreamAddress, seqId: number, segmentId?: number): number {
    const box = this.#outboxes.get(keyOf(address));
    if (!box) return 0;
    const limit = segmentId ?? Number.POSITIVE_INFINITY;
    let n = 0;
    while (n < box.frames.length) {
      const f = box.frames[n];
      if (f.seqId < seqId || (f.seqId === seqId && (f.segmentId ?? 0) <= limit)) n++;
      else break;
    }
    if (n > 0) {
      box.frames.splice(0, n);
      this.#release(box.clientId, n);
    }
    return n;
  }

  /** Frees a closed stream's frames and numbering (a later stream on the same address starts at seq 1). */
  drop(address: StreamAddress): void {
    const key = keyOf(address);
    const box = this.#outboxes.get(key);
    if (!box) return;
    this.#outboxes.delete(key);
    const n = box.frames.length;
    box.frames = [];
    this.#release(box.clientId, n);
  }

  /** Every unacked frame: streams in creation order, each stream's frames in send order (what a reconnect resends). */
  *unacked(): Generator<WireFrame> {
    for (const box of this.#outboxes.values()) yield* box.frames;
  }

  /** The unacked frames per stream key, each in send order. */
  unackedByStream(): Map<string, WireFrame[]> {
    const all = new Map<string, WireFrame[]>();
    for (const [key, box] of this.#outboxes) if (box.frames.length > 0) all.set(key, [...box.frames]);
    return all;
  }

  pending(address: StreamAddress): number {
    return this.#outboxes.get(keyOf(address))?.frames.length ?? 0;
  }

  totalPending(): number {
    return this.#total;
  }

  /** Streams that hold a buffer (tests check that closed streams free theirs). */
  streams(): number {
    return this.#outboxes.size;
  }

  /** Fails every waiting producer; later enqueues fail at once. */
  close(reason: LarkitError): void {
    this.#closed = reason;
    this.#wake();
  }

  #outbox(address: StreamAddress): Outbox {
    const key = keyOf(address);
    let box = this.#outboxes.get(key);
    if (!box) {
      box = { ...address, nextSeq: 1, frames: [], lock: Promise.resolve(), queued: 0, key };
      this.#outboxes.set(key, box);
    }
    return box;
  }

  #release(clientId: string, n: number): void {
    this.#count(clientId, -n);
    if (this.#total >= this.#capacity && !this.#closed) return;
    this.#wake();
  }

  /** Wakes every waiting producer; each looks again whether its device has room. */
  #wake(): void {
    const waiters = this.#roomWaiters;
    this.#roomWaiters = [];
    for (const wake of waiters) wake();
  }
}
