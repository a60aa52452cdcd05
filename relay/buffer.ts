/**
 * Outbound reliability: every server envelope is numbered per (client_id, stream_id) and kept in that stream's
 * bounded buffer until the relay acks it, so a reconnect can resend exactly what was not confirmed. A full
 * stream makes its producers wait (backpressure) in arrival order; nothing is dropped, and other streams
 * are unaffected. Sequence numbers start at 1 and survive reconnects because the buffer outlives sockets.
 */
import { LarkitError } from "../cli/output/errors.ts";
import type { WireFrame } from "./segments.ts";

/** Unacked frames per stream before producers wait (the reference's channel capacity). */
export const STREAM_BUFFER_CAPACITY = 128;

export interface StreamAddress {
  clientId: string;
  streamId: string;
}

interface Outbox extends StreamAddress {
  nextSeq: number;
  frames: WireFrame[];
  /** Tail of the per-stream chain that serializes producers. */
  lock: Promise<void>;
  roomWaiter?: () => void;
}

function keyOf(a: StreamAddress): string {
  return `${a.clientId}\u0000${a.streamId}`;
}

export class OutboundBuffer {
  readonly #capacity: number;
  readonly #outboxes = new Map<string, Outbox>();
  #closed: LarkitError | undefined;

  readonly #sink: (frames: WireFrame[]) => void;

  /** `sink` receives each message's frames synchronously once stored (the session writes them if connected). */
  constructor(sink: (frames: WireFrame[]) => void, capacity = STREAM_BUFFER_CAPACITY) {
    this.#sink = sink;
    this.#capacity = capacity;
  }

  /**
   * Waits for room on the stream, then numbers one message, stores its frames (built by `frame` from the
   * assigned seq_id) and hands them to the sink. Calls on one stream run strictly in call order, so seq_ids
   * follow the producer's order; the seq is consumed only when framing succeeds.
   */
  enqueue(address: StreamAddress, frame: (seqId: number) => WireFrame[] | LarkitError): Promise<WireFrame[]> {
    const box = this.#outbox(address);
    const run = box.lock.then(async () => {
      while (box.frames.length >= this.#capacity && !this.#closed) {
        await new Promise<void>((resolve) => box.roomWaiter = resolve);
      }
      if (this.#closed) throw this.#closed;
      const frames = frame(box.nextSeq);
      if (frames instanceof LarkitError) throw frames;
      box.nextSeq++;
      box.frames.push(...frames);
      this.#sink(frames);
      return frames;
    });
    box.lock = run.then(() => {}, () => {});
    return run;
  }

  /**
   * Removes the stream's frames up to the cursor: all segments of seq ≤ N without `segmentId`, or segments up to
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
    if (n > 0) box.frames.splice(0, n);
    if (box.frames.length < this.#capacity) this.#wake(box);
    return n;
  }

  /** Every unacked frame: streams in creation order, each stream's frames in send order (what a reconnect resends). */
  *unacked(): Generator<WireFrame> {
    for (const box of this.#outboxes.values()) yield* box.frames;
  }

  pending(address: StreamAddress): number {
    return this.#outboxes.get(keyOf(address))?.frames.length ?? 0;
  }

  totalPending(): number {
    let n = 0;
    for (const box of this.#outboxes.values()) n += box.frames.length;
    return n;
  }

  /** Fails every waiting producer; later enqueues fail at once. */
  close(reason: LarkitError): void {
    this.#closed = reason;
    for (const box of this.#outboxes.values()) this.#wake(box);
  }

  #outbox(address: StreamAddress): Outbox {
    const key = keyOf(address);
    let box = this.#outboxes.get(key);
    if (!box) {
      box = { ...address, nextSeq: 1, frames: [], lock: Promise.resolve() };
      this.#outboxes.set(key, box);
    }
    return box;
  }

  #wake(box: Outbox): void {
    const wake = box.roomWaiter;
    box.roomWaiter = undefined;
    wake?.();
  }
}
