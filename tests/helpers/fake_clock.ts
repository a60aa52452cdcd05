import type { Clock } from "../../cli/provider.ts";

/** A clock whose sleeps fire only when the test advances it; every sleep's length is recorded. */
export class FakeClock implements Clock {
  #now = 1_000_000;
  #timers: { at: number; fire: () => void }[] = [];
  slept: number[] = [];

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.slept.push(ms);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new DOMException("aborted", "AbortError"));
      const timer = { at: this.#now + ms, fire: () => resolve() };
      this.#timers.push(timer);
      signal?.addEventListener("abort", () => {
        this.#timers = this.#timers.filter((t) => t !== timer);
        reject(new DOMException("aborted", "AbortError"));
      }, { once: true });
    });
  }

  /** Moves time forward, firing due sleeps one at a time in due order (each gets a macrotask turn to react). */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (let i = 0; i < 10_000; i++) {
      await new Promise((r) => setTimeout(r, 0));
      this.#timers.sort((a, b) => a.at - b.at);
      const next = this.#timers[0];
      if (!next || next.at > end) break;
      this.#timers.shift();
      this.#now = Math.max(this.#now, next.at);
      next.fire();
    }
    this.#now = end;
    await new Promise((r) => setTimeout(r, 0));
  }
}
