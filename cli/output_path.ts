/**
 * Where larkit may save a file (`--output`): a relative path that stays inside the working directory after
 * `..` and symlinks are resolved (lark-cli §12.6), so a download cannot overwrite `~/.bashrc` because a flag
 * or a file name said so. The file itself need not exist yet.
 */
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { errors } from "./output/errors.ts";
import type { Provider } from "./provider.ts";

// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;

function outside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/** The absolute path to write, or a `validation` error naming the flag. */
export async function resolveOutputPath(p: Provider, flagName: string, path: string): Promise<string> {
  const hint = "cd to the target directory first, or use a relative path like ./filename";
  const fail = (why: string) => errors.validation(`--${flagName}: ${why}`, { hint });
  if (path === "") throw fail("path is empty");
  if (CONTROL.test(path)) throw fail("path contains control characters");
  if (isAbsolute(path)) throw fail(`must be a relative path within the current directory, got "${path}"`);
  const target = resolve(p.cwd, path);
  if (outside(resolve(p.cwd), target)) throw fail(`path is outside the current directory: "${path}"`);
  // The nearest existing ancestor decides where a symlink really leads.
  let existing = target;
  while ((await p.files.stat(existing)) === null && existing !== dirname(existing)) {
    existing = dirname(existing);
  }
  const real = await p.files.realPath(existing);
  if (outside(await p.files.realPath(p.cwd), real)) {
    throw fail(`path leads outside the current directory through a symlink: "${path}"`);
  }
  if ((await p.files.stat(target))?.isDirectory) {
    throw fail(`"${path}" is a directory; name the file to write`);
  }
  return resolve(real, relative(existing, target));
}
