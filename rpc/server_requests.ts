/**
 * Server→client requests (approvals) and their correlation. Ids are integers from 0, unique per server rather
 * than per connection: a pending approval belongs to its thread, survives the asking connection, and is
 * re-sent under the same id to whoever resumes the thread; the first answer from any connection settles it.
 */
import type { Clock } from "../cli/provider.ts";
import { RpcError, rpcErrors } from "./errors.ts";
import type { Response } from "./messages.ts";

export interface PendingRequest {
  readonly id: number;
  readonly method: string;
  readonly params: unknown;
  readonly threadId?: string;
  readonly turnId?: string;
}

/** How a server request ended: the client's result, its error object, or a local reason (timeout, cancel). */
export type Settlement =
  | { kind: "result"; result: unknown }
  | { kind: "error"; error: RpcError };

interface Entry extends PendingRequest {
  settle: (s: Settlement) => void;
  stopTimer: AbortController;
}

export class ServerRequests {
  #next = 0;
  #pending = new Map<number, Entry>();
  #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  get size(): number {
    return this.#pending.size;
  }

  /** Registers a request; the caller sends it. Settles with an error after `timeoutMs` without an answer. */
  open(
    method: string,
    params: unknown,
    opts: { timeoutMs: number; threadId?: string; turnId?: string },
  ): { request: PendingRequest; settled: Promise<Settlement> } {
    const id = this.#next++;
    const stopTimer = new AbortController();
    let settle!: (s: Settlement) => void;
    const settled = new Promise<Settlement>((resolve) => {
      settle = (s) => {
        if (!this.#pending.delete(id)) return;
        stopTimer.abort();
        resolve(s);
      };
    });
    const entry: Entry = {
      id,
      method,
      params,
      threadId: opts.threadId,
      turnId: opts.turnId,
      settle,
      stopTimer,
    };
    this.#pending.set(id, entry);
    this.#clock.sleep(opts.timeoutMs, stopTimer.signal).then(
      () => settle({ kind: "error", error: rpcErrors.requestTimeout(method, opts.timeoutMs) }),
      () => {/* the request was answered or cancelled first */},
    );
    return { request: entry, settled };
  }

  /** Routes a client's response. Returns the request it settled, or undefined for an unknown/stale id. */
  answer(response: Response): PendingRequest | undefined {
    if (typeof response.id !== "number") return undefined;
    const entry = this.#pending.get(response.id);
    if (!entry) return undefined;
    if ("error" in response) {
      const e = response.error;
      entry.settle({ kind: "error", error: new RpcError(e.code, e.message, e.data) });
    } else {
      entry.settle({ kind: "result", result: response.result });
    }
    return entry;
  }

  cancel(id: number, why: string): void {
    this.#pending.get(id)?.settle({ kind: "error", error: rpcErrors.closed(why) });
  }

  pendingFor(filter: { threadId?: string; turnId?: string }): PendingRequest[] {
    return [...this.#pending.values()].filter((e) =>
      (filter.threadId === undefined || e.threadId === filter.threadId) &&
      (filter.turnId === undefined || e.turnId === filter.turnId)
    );
  }

  cancelAll(why: string): void {
    for (const id of [...this.#pending.keys()]) this.cancel(id, why);
  }
}
