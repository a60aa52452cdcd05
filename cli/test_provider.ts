/**
 * The provider tests build: every edge a fake unless a test passes its own. Its own module, so that no run
 * loads it (`main.ts` builds the real provider).
 */
import { denoFiles, type Files, joinPath as join } from "./files.ts";
import { denoProcesses, type Processes } from "./processes.ts";
import {
  abortableSleep,
  BufferWriter,
  bytesReader,
  type FetchFn,
  mapEnv,
  type Provider,
  resolvePaths,
  VERSION,
  withIOFrom,
} from "./provider.ts";

export interface TestProviderOptions {
  env?: Record<string, string | undefined>;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  stdin?: string | Uint8Array;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  fetch?: FetchFn;
  cwd?: string;
  /** Root for config/cache/state; a fresh temp dir by default. */
  home?: string;
  uuids?: () => string;
  files?: Files;
  processes?: Processes;
  signal?: AbortSignal;
}

/** The test variant: every edge is a fake unless a test passes its own. */
export function testProvider(
  opts: TestProviderOptions = {},
): Provider & { out: BufferWriter; err: BufferWriter } {
  const home = opts.home ?? Deno.makeTempDirSync({ prefix: "larkit-test-" });
  const env = mapEnv({ LARKIT_CONFIG_DIR: join(home, "config"), ...opts.env });
  const out = new BufferWriter({ isTTY: opts.stdoutIsTTY });
  const err = new BufferWriter();
  let counter = 0;
  const base: Omit<Provider, "withIO"> = {
    version: VERSION,
    env,
    clock: { now: opts.now ?? (() => Date.now()), sleep: opts.sleep ?? ((ms, s) => abortableSleep(ms, s)) },
    stdout: out,
    stderr: err,
    stdin: bytesReader(opts.stdin ?? "", opts.stdinIsTTY ?? false),
    fetch: opts.fetch ?? (() => Promise.reject(new TypeError("network disabled in tests"))),
    random: {
      uuid: opts.uuids ?? (() => `00000000-0000-4000-8000-${String(++counter).padStart(12, "0")}`),
      bytes: (n) => crypto.getRandomValues(new Uint8Array(n)),
    },
    files: opts.files ?? denoFiles(),
    processes: opts.processes ?? denoProcesses(),
    paths: resolvePaths(env, home),
    system: { hostname: "test-host", os: "linux", arch: "x86_64", selfCommand: [] },
    // `node:os`'s tmpdir on POSIX, without loading it.
    cwd: opts.cwd ?? (Deno.env.get("TMPDIR")?.replace(/(?<=.)\/+$/, "") || "/tmp"),
    signal: opts.signal ?? new AbortController().signal,
  };
  return { ...withIOFrom(base), out, err };
}
