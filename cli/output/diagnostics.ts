/**
 * Everything that is not the result: progress, warnings, hints, debug logs. They go to stderr, always as
 * prefixed plain-text lines (`warning: …`, `[debug] …`) so that no diagnostic can be mistaken for the JSON
 * error envelope, which is the only JSON document larkit ever writes to stderr.
 */
import type { Writer } from "../provider.ts";

export interface Diagnostics {
  progress(message: string): Promise<void>;
  warn(message: string): Promise<void>;
  info(message: string): Promise<void>;
  debug(message: string): Promise<void>;
  readonly debugEnabled: boolean;
}

export function diagnostics(stderr: Writer, opts: { debug: boolean; color: boolean }): Diagnostics {
  const paint = (code: string, s: string) => opts.color && stderr.isTTY ? `\x1b[${code}m${s}\x1b[0m` : s;
  const line = (s: string) => stderr.write(s.endsWith("\n") ? s : s + "\n");
  return {
    debugEnabled: opts.debug,
    // Progress is noise in a pipe: shown on a terminal, or when debugging.
    progress: (m) => (stderr.isTTY || opts.debug) ? line(paint("2", m)) : Promise.resolve(),
    warn: (m) => line(paint("33", `warning: ${m}`)),
    info: (m) => line(m),
    debug: (m) => opts.debug ? line(paint("2", `[debug] ${m}`)) : Promise.resolve(),
  };
}

const SECRET_KEYS = /(secret|token|password|authorization|cookie|x-lark-mcp-(uat|tat))/i;

/** Deep copy with every secret-looking field replaced, for debug logs and recordings. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map((
        [k, v],
      ) => [k, SECRET_KEYS.test(k) && typeof v === "string" && v.length > 0 ? "***" : redact(v)]),
    );
  }
  return value;
}
