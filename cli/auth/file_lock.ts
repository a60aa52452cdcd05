/**
 * A cross-process lock file: created with O_EXCL (`createNew`), so exactly one larkit process holds it; the
 * others poll until it is gone. A holder that died leaves the file behind, so a lock older than `staleMs`
 * is taken over — the work done under it (one token refresh) finishes in seconds.
 */
import { z } from "zod";
import { errors } from "../output/errors.ts";
import type { Provider } from "../provider.ts";

const HolderSchema = z.object({ owner: z.string(), at: z.number() });

export interface LockOptions {
  timeoutMs?: number;
  retryMs?: number;
  staleMs?: number;
  signal?: AbortSignal;
}

async function holderAge(p: Provider, path: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await p.files.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
  try {
    return p.clock.now() - HolderSchema.parse(JSON.parse(text)).at;
  } catch {
    // Just created and not yet written, or left half-written by a crash: judge by the file's age.
    const info = await p.files.stat(path);
    return info?.mtimeMs === undefined ? 0 : p.clock.now() - info.mtimeMs;
  }
}

async function removeIfPresent(p: Provider, path: string): Promise<void> {
  try {
    await p.files.remove(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}

async function ownerOf(p: Provider, path: string): Promise<string | undefined> {
  try {
    return HolderSchema.parse(JSON.parse(await p.files.readTextFile(path))).owner;
  } catch {
    return undefined;
  }
}

/** Runs `fn` while holding the lock at `path`; a `timeout` error when another process keeps it too long. */
export async function withFileLock<T>(
  p: Provider,
  path: string,
  fn: () => Promise<T>,
  opts: LockOptions = {},
): Promise<T> {
  const { timeoutMs = 30_000, retryMs = 200, staleMs = 60_000 } = opts;
  const owner = p.random.uuid();
  const deadline = p.clock.now() + timeoutMs;
  while (!await p.files.createNew(path, JSON.stringify({ owner, at: p.clock.now() }))) {
    const age = await holderAge(p, path);
    if (age !== undefined && age > staleMs) {
      await removeIfPresent(p, path);
      continue;
    }
    if (p.clock.now() >= deadline) {
      throw errors.timeout(`another larkit process has held ${path} for over ${timeoutMs / 1000} s`, {
        hint: `retry; if no other larkit is running, delete ${path}`,
      });
    }
    await p.clock.sleep(retryMs, opts.signal);
  }
  try {
    return await fn();
  } finally {
    if (await ownerOf(p, path) === owner) await removeIfPresent(p, path);
  }
}
