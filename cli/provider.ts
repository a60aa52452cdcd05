/**
 * The shared dependency provider. `main.ts` builds the real one once from the process; tests build one with
 * fakes (`testProvider`, in `cli/test_provider.ts`). Nothing below `main.ts` touches `Deno.env`, `Deno.args`,
 * global `fetch` or `Date.now`: it asks the provider, so a test can swap any edge and a remote turn can run
 * with its own stdout/stderr/abort signal (`withIO`).
 *
 * Higher-level services (config store, HTTP client, credential chain) are built lazily from these edges
 * by `cli/services.ts`, once per provider.
 */
import { concatBytes, type Files, joinPath as join } from "./files.ts";
import type { ErrorEnvelope, SuccessEnvelope } from "./output/envelope.ts";
import { lineReader } from "./line_reader.ts";
import type { Processes } from "./processes.ts";

export interface Writer {
  write(chunk: string | Uint8Array): Promise<void>;
  readonly isTTY: boolean;
  /** Terminal width when known (table rendering). */
  readonly columns?: number;
}

export interface Reader {
  /**
   * Reads stdin to the end. Only one consumer may call this per run; later calls get the same bytes. With
   * `maxBytes`, reading stops after `maxBytes + 1` bytes, so a caller sees the input was too long without larkit
   * ever holding more.
   */
  readAll(maxBytes?: number): Promise<Uint8Array>;
  /**
   * The next line (without its newline); null at end of input. A line longer than `max` characters comes back
   * cut to `max + 1` characters, its rest dropped, so no peer can make larkit buffer without bound.
   */
  readLine(max?: number): Promise<string | null>;
  /** Like readLine, without echo when stdin is a terminal (the app secret); absent: readLine is used. */
  readSecret?(max?: number): Promise<string | null>;
  /**
   * Only when stdin is a terminal a person answers at: several choices picked from a list (arrow keys, space,
   * Enter); the values picked. Absent everywhere else (pipes, tests in process, agent-server turns).
   */
  pickMany?(
    message: string,
    choices: { value: string; name: string; description?: string }[],
  ): Promise<string[]>;
  readonly isTTY: boolean;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface Env {
  get(name: string): string | undefined;
}

export type FetchFn = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

export interface Random {
  uuid(): string;
  bytes(n: number): Uint8Array;
}

export interface Paths {
  /** Config files, profiles, secrets, tokens, locks. `LARKIT_CONFIG_DIR` overrides. */
  configDir: string;
  /** Registry overlay and other re-fetchable data. */
  cacheDir: string;
  /** The state database (threads, enrollments). */
  stateDir: string;
}

export interface System {
  hostname: string;
  os: string;
  arch: string;
  /** Absolute path of the program to re-run larkit as a child process (daemon, concurrency tests). */
  selfCommand: string[];
}

export type Risk = "read" | "write" | "high-risk-write";

/** What an in-process host (the agent server) is asked before a command changes data. */
export interface ApprovalRequest {
  /** The argv being run, e.g. ["im", "+messages-send", "--chat-id", "oc_1", "--text", "hi"]. */
  argv: string[];
  /** The command path without flags, e.g. ["im", "+messages-send"] or ["api", "POST"]. */
  command: string[];
  service?: string;
  risk: Risk;
  /** What would be done: the dry-run description (requests or MCP tool call). */
  summary: unknown;
}
export type ApprovalDecision = "accept" | "decline" | "cancel";
export type Approver = (req: ApprovalRequest) => Promise<ApprovalDecision>;

/**
 * What an in-process host (rpc turns) receives beside the bytes: each envelope the run hands to `cli/output`, as
 * the value it is, before `--format`/`--jq` render it -- so the host never parses stdout back.
 */
export interface EmittedDocuments {
  /**
   * A result document written to stdout: the success envelope, or the JSON value a streaming command prints as
   * a line of its own (an event of `event consume`).
   */
  result(value: SuccessEnvelope | unknown): void;
  /** The error envelope written to stderr. */
  error(envelope: ErrorEnvelope): void;
}

export interface Provider {
  readonly version: string;
  readonly env: Env;
  readonly clock: Clock;
  readonly stdout: Writer;
  readonly stderr: Writer;
  readonly stdin: Reader;
  readonly fetch: FetchFn;
  readonly random: Random;
  readonly files: Files;
  /** Child processes (credential extension providers) and process liveness (stale locks). */
  readonly processes: Processes;
  readonly paths: Paths;
  readonly system: System;
  /** Working directory for relative paths (`@file`, `--output`). */
  readonly cwd: string;
  /** Aborted when the run must stop (turn/interrupt, Ctrl-C). */
  readonly signal: AbortSignal;
  /**
   * Set by an in-process host (rpc turns): asked before every write; high-risk writes always ask. Absent in a
   * terminal run, where high-risk writes need `--yes` (or a TTY answer).
   */
  readonly approver?: Approver;
  /** Set by an in-process host (rpc turns): receives the envelopes the run emits. */
  readonly documents?: EmittedDocuments;
  /** Same machine, other streams: an in-process run (rpc turn) writes to its own sinks. */
  withIO(io: IO): Provider;
}

export interface IO {
  stdout?: Writer;
  stderr?: Writer;
  stdin?: Reader;
  signal?: AbortSignal;
  approver?: Approver;
  documents?: EmittedDocuments;
}

export const VERSION = "0.1.0";

/** Resolves the three directories from the environment, following the XDG layout. */
export function resolvePaths(env: Env, home: string): Paths {
  const configDir = env.get("LARKIT_CONFIG_DIR") ??
    join(env.get("XDG_CONFIG_HOME") ?? join(home, ".config"), "larkit");
  const cacheDir = env.get("LARKIT_CACHE_DIR") ??
    (env.get("LARKIT_CONFIG_DIR")
      ? join(configDir, "cache")
      : join(env.get("XDG_CACHE_HOME") ?? join(home, ".cache"), "larkit"));
  const stateDir = env.get("LARKIT_STATE_DIR") ??
    (env.get("LARKIT_CONFIG_DIR")
      ? join(configDir, "state")
      : join(env.get("XDG_STATE_HOME") ?? join(home, ".local", "state"), "larkit"));
  return { configDir, cacheDir, stateDir };
}

export function mapEnv(values: Record<string, string | undefined>): Env {
  return { get: (name) => values[name] };
}

/** A Writer that keeps everything written, for tests and in-process runs. */
export class BufferWriter implements Writer {
  readonly chunks: Uint8Array[] = [];
  readonly isTTY: boolean;
  readonly columns?: number;
  constructor(opts: { isTTY?: boolean; columns?: number; onWrite?: (text: string) => void } = {}) {
    this.isTTY = opts.isTTY ?? false;
    this.columns = opts.columns;
    this.#onWrite = opts.onWrite;
  }
  #onWrite?: (text: string) => void;
  write(chunk: string | Uint8Array): Promise<void> {
    const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
    this.chunks.push(bytes);
    this.#onWrite?.(new TextDecoder().decode(bytes));
    return Promise.resolve();
  }
  text(): string {
    return new TextDecoder().decode(concatBytes(this.chunks));
  }
}

/** A Reader over fixed bytes (tests, in-process runs with no stdin). */
export function bytesReader(data: string | Uint8Array = "", isTTY = false): Reader {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  let given = false;
  const next = () => {
    if (given) return Promise.resolve<ReadableStreamReadResult<string>>({ done: true, value: undefined });
    given = true;
    return Promise.resolve({ done: false as const, value: new TextDecoder().decode(bytes) });
  };
  return {
    isTTY,
    readAll: (maxBytes = Infinity) => Promise.resolve(bytes.subarray(0, maxBytes + 1)),
    readLine: lineReader(next),
  };
}

/**
 * Resolves once `signal` aborts, at once if it already has: an aborted signal fires no more "abort" events, so
 * a bare listener added too late would wait forever.
 */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new DOMException("aborted", "AbortError"));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new DOMException("aborted", "AbortError"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function withIOFrom(base: Omit<Provider, "withIO">): Provider {
  const p: Provider = {
    ...base,
    withIO: (io) =>
      withIOFrom({
        ...base,
        stdout: io.stdout ?? base.stdout,
        stderr: io.stderr ?? base.stderr,
        stdin: io.stdin ?? base.stdin,
        signal: io.signal ?? base.signal,
        approver: io.approver ?? base.approver,
        documents: io.documents ?? base.documents,
      }),
  };
  return p;
}
