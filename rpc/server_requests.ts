/**
 * Server->client requests (approvals) and their correlation. A pending approval belongs to whoever was asked:
 * each request carries the rule for who may answer it (the thread's subscribers, or for `command/exec` the asking
 * connection), and an answer from anyone else is ignored and reported to the caller for the log. Ids are random
 * (128 bits) so a connection cannot answer a request it was never sent by guessing; a thread's pending request
 * outlives the asking connection and is re-sent under the same id to whoever may answer it and resumes the thread.
 */
import type { Clock, Random } from "../cli/provider.ts";
import type { ConnectionInfo } from "./session.ts";
import { RpcError, rpcErrors } from "./errors.ts";
import type { Response } from "./messages.ts";

export interface PendingRequest {
  readonly id: string;
  readonly method: string;
  readonly params: unknown;
  readonly threadId?: string;
  readonly turnId?: string;
  /** Whether this connection may answer (and therefore be sent) the request. */
  mayAnswer(connection: ConnectionInfo): boolean;
}

/** How a server request ended: the client's result, its error object, or a local reason (timeout, cancel). */
export type Settlement =
  | { kind: "result"; result: unknown }
  | { kind: "error"; error: RpcError };

/** What became of a client's response. */
export type AnswerOutcome =
  | { kind: "settled"; request: PendingRequest }
  | { kind: "unknown" }
  | { kind: "refused"; request: PendingRequest };

interface Entry extends PendingRequest {
  settle: (s: Settlement) => void;
  stopTimer: AbortController;
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

export class ServerRequests {
  #pending = new Map<string, Entry>();
  #clock: Clock;
  #random: Random;

  constructor(clock: Clock, random: Random) {
    this.#clock = clock;
    this.#random = random;
  }

  get size(): number {
    return this.#pending.size;
  }

  /** Registers a request; the caller sends it. Settles with an error after `timeoutMs` without an answer. */
  open(
    method: string,
    params: unknown,
    opts: {
      timeoutMs: number;
      threadId?: string;
      turnId?: string;
      mayAnswer: (connection: ConnectionInfo) => boolean;
    },
  ): { request: PendingRequest; settled: Promise<Settlement> } {
    const id = `req-${hex(this.#random.bytes(16))}`;
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
      mayAnswer: opts.mayAnswer,
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

  /** Routes a client's response: it settles the request only if `from` may answer it. */
  answer(response: Response, from: ConnectionInfo): AnswerOutcome {
    const entry = typeof response.id === "string" ? this.#pending.get(response.id) : undefined;
    if (!entry) return { kind: "unknown" };
    if (!entry.mayAnswer(from)) return { kind: "refused", request: entry };
    if ("error" in response) {
      const e = response.error;
      entry.settle({ kind: "error", error: new RpcError(e.code, e.message, e.data) });
    } else {
      entry.settle({ kind: "result", result: response.result });
    }
    return { kind: "settled", request: entry };
  }

  cancel(id: string, why: string): void {
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
