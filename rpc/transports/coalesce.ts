/**
 * One write for the messages a connection sends in one burst. A trivial turn sends ten messages back to back;
 * written one by one they were the agent server's largest cost (one system call each). A burst is the messages
 * produced without the event loop turning: the pump waits until no message arrived for `QUIET_HOPS` microtask
 * hops (each producer awaits a few hops between its messages; I/O and timers never run in between, so this adds
 * no latency a client could see), then writes them joined, in order. Those sent while a write is in flight go
 * into the next one. Backpressure stays: a message is accepted at once only while the unwritten batch is under
 * `maxBytes`; past it, `send` resolves when its batch was written, and the pump stops waiting for more.
 */

export interface CoalescingSink {
  /** Queues one line; resolves when accepted (see above), rejects if the sink already failed. */
  send(line: string): Promise<void>;
  /** Resolves once everything accepted was written, or the sink failed (never rejects). */
  flushed(): Promise<void>;
}

export const DEFAULT_COALESCE_BYTES = 1024 * 1024;

/** Microtask hops without a new message that end a burst; the turn's producers need fewer between messages. */
const QUIET_HOPS = 16;

interface Waiter {
  resolve: () => void;
  reject: (e: unknown) => void;
}

/**
 * `write` gets the joined text of each batch; `onFailure` hears the first failed write, after which every
 * accepted but unwritten line is dropped (the peer is gone) and every later `send` rejects.
 */
export function coalescingSink(
  write: (text: string) => Promise<void>,
  onFailure: (e: unknown) => void,
  maxBytes = DEFAULT_COALESCE_BYTES,
): CoalescingSink {
  let batch: string[] = [];
  let bytes = 0;
  /** Senders whose line went over `maxBytes`: they wait for their batch to be written. */
  let waiting: Waiter[] = [];
  let writing: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;

  async function pump(): Promise<void> {
    try {
      while (batch.length > 0 && !failure) {
        for (let quiet = 0; quiet < QUIET_HOPS && bytes <= maxBytes; quiet++) {
          const before = batch.length;
          await null;
          if (batch.length !== before) quiet = 0;
        }
        const text = batch.join("");
        const written = waiting;
        batch = [];
        bytes = 0;
        waiting = [];
        try {
          await write(text);
        } catch (e) {
          failure = { error: e };
          for (const w of [...written, ...waiting]) w.reject(e);
          batch = [];
          waiting = [];
          onFailure(e);
          return;
        }
        for (const w of written) w.resolve();
      }
    } finally {
      // In the same step that saw the batch empty: a line sent after it starts a new pump, none is stranded.
      writing = undefined;
    }
  }

  return {
    send(line) {
      if (failure) return Promise.reject(failure.error);
      batch.push(line);
      bytes += line.length;
      const accepted = bytes <= maxBytes
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => waiting.push({ resolve, reject }));
      writing ??= pump();
      return accepted;
    },
    async flushed() {
      while (writing) await writing;
    },
  };
}
