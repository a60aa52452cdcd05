/**
 * Everything that is not the result: progress, warnings, hints, debug logs. They go to stderr, always as
 * prefixed plain-text lines (`warning: ...`, `[debug] ...`) so that no diagnostic can be mistaken for the JSON
 * error envelope, which is the only JSON document larkit ever writes to stderr.
 */
import type { Writer } from "../provider.ts";

export interface Diagnostics {
  progress(message: string): Promise<void>;
  /**
   * One progress line rewritten in place (pages so far, bytes of total with rate and ETA, a login waiting):
   * only on a terminal and without `--quiet`; `status()` with no text ends the line.
   */
  status(message?: string): Promise<void>;
  warn(message: string): Promise<void>;
  info(message: string): Promise<void>;
  debug(message: string): Promise<void>;
  readonly debugEnabled: boolean;
}

export function diagnostics(
  stderr: Writer,
  opts: { debug: boolean; color: boolean; quiet?: boolean },
): Diagnostics {
  const paint = (code: string, s: string) => opts.color && stderr.isTTY ? `\x1b[${code}m${s}\x1b[0m` : s;
  // A status line is open (no newline yet): anything else printed first ends it, so lines never mix.
  let open = false;
  const write = async (s: string) => {
    if (open) {
      open = false;
      await stderr.write("\n");
    }
    await stderr.write(s);
  };
  const line = (s: string) => write(s.endsWith("\n") ? s : s + "\n");
  const live = stderr.isTTY && !opts.quiet;
  return {
    debugEnabled: opts.debug,
    // Progress is noise in a pipe: shown on a terminal (unless --quiet), or when debugging.
    progress: (m) => (live || opts.debug) ? line(paint("2", m)) : Promise.resolve(),
    async status(m) {
      if (!live) return;
      if (m === undefined) {
        if (open) await write("");
        return;
      }
      // Carriage return and erase-line: the same terminal line, rewritten.
      await stderr.write(`\r\x1b[2K${paint("2", m.replace(/[\r\n]+/g, " "))}`);
      open = true;
    },
    warn: (m) => line(paint("33", `warning: ${m}`)),
    info: (m) => line(m),
    debug: (m) => opts.debug ? line(paint("2", `[debug] ${m}`)) : Promise.resolve(),
  };
}

/** "3.1 MiB" */
export function bytesText(n: number): string {
  const units = ["B", "KiB", "MiB", "GiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${i === 0 ? n : n.toFixed(1)} ${units[i]}`;
}

/** "12.0 MiB of 40.0 MiB (30%), 2.1 MiB/s, ETA 13 s": a transfer's status line. */
export function transferText(done: number, total: number | undefined, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? done / (elapsedMs / 1000) : 0;
  const parts = [
    total
      ? `${bytesText(done)} of ${bytesText(total)} (${Math.floor((done / total) * 100)}%)`
      : bytesText(done),
  ];
  if (rate > 0) parts.push(`${bytesText(rate)}/s`);
  if (total && rate > 0 && done < total) parts.push(`ETA ${Math.ceil((total - done) / rate)} s`);
  return parts.join(", ");
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
