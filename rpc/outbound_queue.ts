/**
 * The per-connection outbound queue: one FIFO of serialised messages drained by a single pump that awaits the
 * transport's `send`, so every connection sees its messages in order. Producers await `push`, which waits
 * while the queue is full; that is the backpressure a slow client exerts on a running command. Waiting
 * producers are bounded too: past that bound the client is too slow to serve and the connection is closed
 * rather than buffered without limit.
 */
import type { Outbound } from "./connection.ts";

export interface QueueLimits {
  /** Messages held for the transport at most. */
  maxMessages: number;
  /** Bytes (UTF-16 code units, close enough for a bound) held at most; one message larger than this still goes alone. */
  maxBytes: number;
  /** Producers allowed to wait for room; one more closes the connection as a slow consumer. */
  maxWaiters: number;
}

export const DEFAULT_QUEUE_LIMITS: QueueLimits = {
  maxMessages: 256,
  maxBytes: 8 * 1024 * 1024,
  maxWaiters: 64,
};

interface Waiter {
  text: string;
  resolve: (queued: boolean) => void;
}

export class OutboundQueue {
  #out: Outbound;
  #limits: QueueLimits;
  #items: string[] = [];
  #bytes = 0;
  #waiters: Waiter[] = [];
  #readyWaiters: (() => void)[] = [];
  #drainWaiters: (() => void)[] = [];
  #pumping = false;
  #closed = false;
  #onClose: (reason: string) => void;

  constructor(out: Outbound, limits: QueueLimits, onClose: (reason: string) => void) {
    this.#out = out;
    this.#limits = limits;
    this.#onClose = onClose;
  }

  get size(): number {
    return this.#items.length;
  }
  get bytes(): number {
    return this.#bytes;
  }
  get waiting(): number {
    return this.#waiters.length;
  }
  get closed(): boolean {
    return this.#closed;
  }

  /** Resolves true once the message is queued, false if the connection is (or becomes) closed. */
  push(text: string): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    if (this.#waiters.length === 0 && this.#hasRoomFor(text)) {
      this.#enqueue(text);
      return Promise.resolve(true);
    }
    if (this.#waiters.length >= this.#limits.maxWaiters) {
      this.close(
        `slow consumer: more than ${this.#limits.maxWaiters} producers waiting for the outbound queue`,
      );
      return Promise.resolve(false);
    }
    return new Promise((resolve) => this.#waiters.push({ text, resolve }));
  }

  /** Resolves when a new message would be queued without waiting (or the queue closed): read-side backpressure. */
  ready(): Promise<void> {
    if (this.#closed || (this.#waiters.length === 0 && this.#items.length < this.#limits.maxMessages)) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#readyWaiters.push(resolve));
  }

  /** Resolves once everything queued was accepted by the transport (or the queue closed). */
  async drained(): Promise<void> {
    while (!this.#closed && (this.#items.length > 0 || this.#waiters.length > 0)) {
      await new Promise<void>((resolve) => this.#drainWaiters.push(resolve));
    }
  }

  close(reason = "closed"): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#items = [];
    this.#bytes = 0;
    for (const w of this.#waiters.splice(0)) w.resolve(false);
    for (const r of this.#readyWaiters.splice(0)) r();
    for (const r of this.#drainWaiters.splice(0)) r();
    this.#onClose(reason);
  }

  #hasRoomFor(text: string): boolean {
    if (this.#items.length === 0) return true;
    return this.#items.length < this.#limits.maxMessages &&
      this.#bytes + text.length <= this.#limits.maxBytes;
  }

  #enqueue(text: string): void {
    this.#items.push(text);
    this.#bytes += text.length;
    if (!this.#pumping) this.#pump();
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      while (this.#items.length > 0 && !this.#closed) {
        const head = this.#items[0];
        await this.#out.send(head);
        if (this.#closed) return;
        this.#items.shift();
        this.#bytes -= head.length;
        this.#admitWaiters();
      }
      for (const r of this.#drainWaiters.splice(0)) r();
    } catch (e) {
      this.close(`transport send failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.#pumping = false;
    }
  }

  #admitWaiters(): void {
    while (this.#waiters.length > 0 && this.#hasRoomFor(this.#waiters[0].text)) {
      const w = this.#waiters.shift() as Waiter;
      this.#items.push(w.text);
      this.#bytes += w.text.length;
      w.resolve(true);
    }
    if (this.#waiters.length === 0 && this.#items.length < this.#limits.maxMessages) {
      for (const r of this.#readyWaiters.splice(0)) r();
    }
  }
}
