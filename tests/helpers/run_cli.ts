/**
 * Runs larkit in-process: one argv through `cli/run.ts`'s `runCli` against a provider built the way `main.ts`
 * builds it, with stdout/stderr captured apart and the exit code `main.ts` would exit with. Same options and
 * result as `runMain` (switch by changing the import), at a tenth of the cost of spawning deno; `runMain` stays
 * for what only a process shows (exit through `Deno.exit`, signals, real pipes, the daemon, the bundle).
 *
 * The run sees the env it is given and nothing of the developer's (no HOME, no XDG dirs, no real larkit
 * profile), and its network reaches loopback only, so the emulator and the dev relay answer and anything else
 * fails the way a network outage would.
 */
import { denoFiles } from "../../cli/files.ts";
import { denoProcesses } from "../../cli/processes.ts";
import {
  abortableSleep,
  type Approver,
  BufferWriter,
  bytesReader,
  type FetchFn,
  mapEnv,
  type Provider,
  resolvePaths,
  VERSION,
  withIOFrom,
} from "../../cli/provider.ts";
import { runCli as runCliIn } from "../../cli/run.ts";
import { MAIN, REPO, type RunOptions as SpawnOptions, type RunResult } from "./run_main.ts";

export { type ErrorJson, errorOf, type RunResult } from "./run_main.ts";

export interface RunOptions extends SpawnOptions {
  /** The clock larkit reads; real time by default. */
  now?: () => number;
  /** How larkit waits (poll intervals, retries); a real timer by default. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  /** Terminal width reported with a TTY stdout. */
  columns?: number;
  /** The network larkit sees; `loopbackFetch` by default (wrap it to watch or refuse requests). */
  fetch?: FetchFn;
  /** Aborting it is Ctrl-C: abort with `errors.interrupted("SIGINT")`, the reason `main.ts` gives. */
  signal?: AbortSignal;
  /** Runs as an agent-server turn does: this host is asked before every write. */
  approver?: Approver;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Real fetch for the emulator and relay on this machine; any other host is refused before a packet leaves. */
export const loopbackFetch: FetchFn = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : input);
  if (!LOOPBACK.has(url.hostname)) {
    return Promise.reject(
      new TypeError(`error sending request for url (${url.href}): tests reach loopback only`),
    );
  }
  return fetch(input, init);
};

/** The emulator for a list's first page; every later page (a `page_token` in the query) fails as if offline. */
export const offlineAfterFirstPage: FetchFn = (input, init) =>
  String(input instanceof Request ? input.url : input).includes("page_token=")
    ? Promise.reject(new TypeError("connection refused"))
    : loopbackFetch(input, init);

/**
 * A clock whose `sleep` moves time instead of waiting: hand the same one to the emulator (`manualClock`).
 * Each wait larkit chose lands in `sleeps`; `onSleep(n)` runs after the n-th (1-based) moved the clock, as
 * whatever would have happened meanwhile (a person approving a login).
 */
export function fakeTime(
  clock: { now(): number; advance(ms: number): void },
  opts: { sleeps?: number[]; onSleep?: (n: number) => void } = {},
): Pick<RunOptions, "now" | "sleep"> {
  const sleeps = opts.sleeps ?? [];
  return {
    now: () => clock.now(),
    sleep: (ms, signal) => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      sleeps.push(ms);
      clock.advance(ms);
      opts.onSleep?.(sleeps.length);
      return Promise.resolve();
    },
  };
}

/** The provider `main.ts` would build from a process started with `opts.env` only. */
export function cliProvider(
  opts: RunOptions & { configDir: string },
): Provider & { out: BufferWriter; err: BufferWriter } {
  const env = mapEnv({
    NO_COLOR: "1",
    LARKIT_CONFIG_DIR: opts.configDir,
    LARKIT_REMOTE_META: "off",
    ...opts.env,
  });
  const out = new BufferWriter({
    isTTY: opts.stdoutIsTTY ?? false,
    columns: opts.stdoutIsTTY ? opts.columns ?? 80 : undefined,
  });
  const err = new BufferWriter();
  const provider = withIOFrom({
    version: VERSION,
    env,
    clock: { now: opts.now ?? (() => Date.now()), sleep: opts.sleep ?? abortableSleep },
    stdout: out,
    stderr: err,
    stdin: bytesReader(opts.stdin ?? "", opts.stdinIsTTY ?? false),
    fetch: opts.fetch ?? loopbackFetch,
    random: { uuid: () => crypto.randomUUID(), bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) },
    files: denoFiles(),
    processes: denoProcesses(),
    // HOME is whatever the test says, else the config dir: no path can fall back to the developer's home.
    paths: resolvePaths(env, opts.env?.HOME ?? opts.configDir),
    system: {
      hostname: Deno.hostname(),
      os: Deno.build.os,
      arch: Deno.build.arch,
      selfCommand: [Deno.execPath(), "run", "-A", MAIN],
    },
    cwd: opts.cwd ?? REPO,
    signal: opts.signal ?? new AbortController().signal,
    approver: opts.approver,
  });
  return { ...provider, out, err };
}

export async function runCli(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const configDir = opts.configDir ?? await Deno.makeTempDir({ prefix: "larkit-e2e-" });
  const p = cliProvider({ ...opts, configDir });
  const code = await runCliIn(args, p);
  const stdout = p.out.text();
  const stderr = p.err.text();
  return {
    code,
    stdout,
    stderr,
    json: <T>() => JSON.parse(stdout) as T,
    errorJson: () => JSON.parse(stderr),
  };
}
