/**
 * A cross-process lock file: created exclusively and whole (`createNew`), so exactly one larkit process holds it;
 * the others poll until it is gone. The file names its holder (process id and host), so a holder that was killed
 * is recognised at once on the same machine and its lock taken over, instead of being waited out; a file that
 * names no holder (unparseable) is taken over at once too. A holder on
 * another machine (a shared config directory), or a live one that hangs, is taken over once the lock is older
 * than the work under it can take (one token request: the HTTP client's 60 s timeout plus a margin), so a
 * waiter never waits longer than that.
 */
import * as z from "zod";
import { unlessMissing } from "../files.ts";
import { errors } from "../output/errors.ts";
import type { Provider } from "../provider.ts";

// Schemas are built on first parse, not at import: most runs never parse these (start-up).
const HolderSchema = z.lazy(() =>
  z.object({
    owner: z.string(),
    at: z.number(),
    pid: z.optional(z.number()),
    host: z.optional(z.string()),
  })
);

/** The HTTP client's per-request timeout (60 s) plus a margin: no live holder keeps the lock longer. */
export const DEFAULT_STALE_MS = 75_000;

export interface LockOptions {
  timeoutMs?: number;
  retryMs?: number;
  staleMs?: number;
  signal?: AbortSignal;
}

/**
 * Whether the lock holding `text` was left behind: it names no holder, its holder died (same host), or it is
 * older than `staleMs`.
 */
function isStale(p: Provider, text: string, staleMs: number): boolean {
  const holder = HolderSchema.safeParse((() => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  })());
  if (holder.success) {
    const { pid, host, at } = holder.data;
    if (pid !== undefined && host === p.system.hostname && !p.processes.alive(pid)) return true;
    return p.clock.now() - at > staleMs;
  }
  // A lock appears whole (`createNew`), so one that does not parse was never a live holder's: garbage, or left by
  // a crash of an older larkit that wrote it in two steps. Nobody can be holding it: take it over at once.
  return true;
}

async function ownerOf(p: Provider, path: string): Promise<string | undefined> {
  try {
    return HolderSchema.parse(JSON.parse(await p.files.readTextFile(path))).owner;
  } catch {
    return undefined;
  }
}

/**
 * Runs `fn` while holding the lock at `path`. A stale lock is taken over; waiting ends with a `timeout` error
 * only when other live holders keep taking the lock in turn for longer than `timeoutMs`.
 */
export async function withFileLock<T>(
  p: Provider,
  path: string,
  fn: () => Promise<T>,
  opts: LockOptions = {},
): Promise<T> {
  const { retryMs = 200, staleMs = DEFAULT_STALE_MS } = opts;
  const timeoutMs = opts.timeoutMs ?? staleMs + 5_000;
  const owner = p.random.uuid();
  const deadline = p.clock.now() + timeoutMs;
  const holder = () =>
    JSON.stringify({ owner, at: p.clock.now(), pid: p.processes.pid, host: p.system.hostname });
  while (!await p.files.createNew(path, holder())) {
    const text = await unlessMissing(() => p.files.readTextFile(path));
    if (text === undefined) continue;
    if (isStale(p, text, staleMs)) {
      // Only the lock judged stale: another waiter may have taken it over and written its own meanwhile.
      if (await unlessMissing(() => p.files.readTextFile(path)) === text) {
        await unlessMissing(() => p.files.remove(path));
      }
      continue;
    }
    if (p.clock.now() >= deadline) {
      throw errors.timeout(
        `another larkit process has held ${path} for over ${Math.round(timeoutMs / 1000)} s`,
        {
          hint: `retry; if no other larkit is running, delete ${path}`,
        },
      );
    }
    await p.clock.sleep(retryMs, opts.signal);
  }
  try {
    return await fn();
  } finally {
    if (await ownerOf(p, path) === owner) await unlessMissing(() => p.files.remove(path));
  }
}
