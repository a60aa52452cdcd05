/**
 * Where larkit may read and write local files named by flags (`@file`, `--file`, `--output`): relative paths
 * that stay inside the working directory after `..` and symlinks are resolved (lark-cli §12.6), so a flag
 * cannot read `~/.ssh` or overwrite `~/.bashrc` because a flag or a file name said so. In an agent-server turn
 * the working directory is the thread's workspace (`thread.cwd`), so the same rule keeps a turn inside it.
 */
import type * as NodePath from "node:path";
import { inputTooLarge } from "./input_limits.ts";
import { errors } from "./output/errors.ts";
import type { Provider } from "./provider.ts";

// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;

/** `node:path`, loaded by the first check that needs it: importing it costs every run's start-up (issue 17). */
const nodePath = (): Promise<typeof NodePath> => import("node:path");

function outside({ relative, isAbsolute, sep }: typeof NodePath, root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/** The absolute path to write, or a `validation` error naming the flag. */
export async function resolveOutputPath(p: Provider, flagName: string, path: string): Promise<string> {
  const hint =
    "cd to the target directory first, or use a relative path like ./filename (in an agent-server turn: inside the thread's workspace, thread.cwd)";
  const fail = (why: string) => errors.validation(`--${flagName}: ${why}`, { hint });
  const np = await nodePath();
  const { dirname, isAbsolute, relative, resolve } = np;
  if (path === "") throw fail("path is empty");
  if (CONTROL.test(path)) throw fail("path contains control characters");
  if (isAbsolute(path)) throw fail(`must be a relative path within the current directory, got "${path}"`);
  const target = resolve(p.cwd, path);
  if (outside(np, resolve(p.cwd), target)) throw fail(`path is outside the current directory: "${path}"`);
  // The nearest existing ancestor decides where a symlink really leads.
  let existing = target;
  while ((await p.files.stat(existing)) === null && existing !== dirname(existing)) {
    existing = dirname(existing);
  }
  const real = await p.files.realPath(existing);
  if (outside(np, await p.files.realPath(p.cwd), real)) {
    throw fail(`path leads outside the current directory through a symlink: "${path}"`);
  }
  if ((await p.files.stat(target))?.isDirectory) {
    throw fail(`"${path}" is a directory; name the file to write`);
  }
  return resolve(real, relative(existing, target));
}

/**
 * A local file named by a flag, as an absolute path: relative, free of control characters, and inside the
 * working directory after `..` and symlinks are resolved (so a flag cannot read `~/.ssh` by accident).
 */
export async function resolveLocalFile(p: Provider, flagName: string, path: string): Promise<string> {
  const fail = (why: string, hint?: string) =>
    errors.validation(`--${flagName}: ${why}`, hint ? { hint } : {});
  const { isAbsolute, relative, resolve, sep } = await nodePath();
  if (path === "") throw fail("file path is empty");
  if (CONTROL.test(path)) throw fail("file path contains control characters");
  const inside =
    "use a relative path inside the current directory, e.g. ./notes.md (cd to the file's folder first; in an agent-server turn the directory is the thread's workspace, thread.cwd)";
  if (isAbsolute(path)) {
    throw fail(`file path must be relative to the current directory, got "${path}"`, inside);
  }
  let real: string;
  let root: string;
  try {
    root = await p.files.realPath(p.cwd);
    real = await p.files.realPath(resolve(p.cwd, path));
  } catch {
    throw fail(`file not found: ${path}`);
  }
  const rel = relative(root, real);
  if (rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) {
    throw fail(`file is outside the current directory: ${path}`, inside);
  }
  const info = await p.files.stat(real);
  if (!info) throw fail(`file not found: ${path}`);
  if (info.isDirectory) throw fail(`${path} is a directory, not a file`);
  if (!info.isFile) throw fail(`${path} is not a regular file`);
  return real;
}

/** A local file a flag reads whole, after the path rule and a size check against `limit` before reading. */
export async function readLocalText(p: Provider, flag: string, path: string, limit: number): Promise<string> {
  const file = await resolveLocalFile(p, flag, path);
  if (((await p.files.stat(file))?.size ?? 0) > limit) throw inputTooLarge(flag, path, limit);
  try {
    return await p.files.readTextFile(file);
  } catch (e) {
    throw errors.validation(`--${flag}: cannot read ${path}: ${e instanceof Error ? e.message : e}`);
  }
}

/** Stdin read whole for a flag, never more than `limit` bytes held. */
export async function readStdinBounded(p: Provider, flag: string, limit: number): Promise<Uint8Array> {
  const bytes = await p.stdin.readAll(limit);
  if (bytes.length > limit) throw inputTooLarge(flag, "stdin", limit);
  return bytes;
}
