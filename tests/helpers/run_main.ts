/**
 * Runs larkit the way an agent does: `main.ts` as a subprocess, stdout and stderr captured apart, exit code
 * kept. Each call gets its own config dir unless the test passes one.
 */
import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";

export const MAIN = fromFileUrl(new URL("../../main.ts", import.meta.url));
export const REPO = fromFileUrl(new URL("../../", import.meta.url));

export interface RunOptions {
  env?: Record<string, string>;
  stdin?: string | Uint8Array;
  cwd?: string;
  /** Defaults to a fresh temp dir per call. */
  configDir?: string;
  signal?: AbortSignal;
}

/** An envelope's error as a test reads it (`cli/output/errors.ts`'s ErrorBody, its fields as plain strings). */
export interface ErrorJson {
  type: string;
  subtype: string;
  message: string;
  retryable: boolean;
  hint?: string;
  [k: string]: unknown;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON document. */
  json<T = Record<string, unknown>>(): T;
  /** stderr parsed as the one JSON error envelope. */
  errorJson(): {
    ok: false;
    identity?: string;
    error: ErrorJson;
  };
}

/** The error of the envelope on stderr: the JSON document after any progress lines. */
export function errorOf(r: RunResult): ErrorJson {
  const at = r.stderr.startsWith("{") ? 0 : r.stderr.indexOf("\n{") + 1;
  assert.ok(at > 0 || r.stderr.startsWith("{"), `no error envelope on stderr: ${r.stderr}`);
  return JSON.parse(r.stderr.slice(at)).error;
}

/** Only what deno itself needs from the parent; nothing that could leak the developer's own larkit setup. */
export function inherited(): Record<string, string> {
  const keep: Record<string, string> = {};
  for (const k of ["HOME", "PATH", "DENO_DIR", "TMPDIR", "NPM_CONFIG_REGISTRY"]) {
    const v = Deno.env.get(k);
    if (v !== undefined) keep[k] = v;
  }
  return keep;
}

/**
 * `main.ts` as a child process whose pipes (or signals) the test works while it runs: deno's own variables, no
 * colour, no remote metadata, then `env`; stdin closed and stdout and stderr piped unless `io` says otherwise.
 */
export function spawnMain(
  args: string[],
  env: Record<string, string> = {},
  io: Pick<Deno.CommandOptions, "cwd" | "stdin" | "stdout" | "stderr" | "signal"> = {},
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, ...args],
    cwd: REPO,
    env: { ...inherited(), NO_COLOR: "1", LARKIT_REMOTE_META: "off", ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    ...io,
  }).spawn();
}

export async function runMain(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const configDir = opts.configDir ?? await Deno.makeTempDir({ prefix: "larkit-e2e-" });
  const child = spawnMain(args, { RUST_BACKTRACE: "0", LARKIT_CONFIG_DIR: configDir, ...opts.env }, {
    cwd: opts.cwd ?? REPO,
    stdin: opts.stdin === undefined ? "null" : "piped",
    signal: opts.signal,
  });
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(typeof opts.stdin === "string" ? new TextEncoder().encode(opts.stdin) : opts.stdin);
    await w.close();
  }
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  return {
    code: out.code,
    stdout,
    stderr,
    json: <T>() => JSON.parse(stdout) as T,
    errorJson: () => JSON.parse(stderr),
  };
}
