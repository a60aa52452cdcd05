/**
 * Where a shortcut may save a file: a relative path that stays inside the working directory after `..` and
 * symlinks are resolved (the same rule as `@file` inputs, `inputs.ts`), so a download cannot overwrite
 * `~/.bashrc` because a file name or a flag said so. The file itself need not exist yet.
 */
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { errors } from "../../cli/output/errors.ts";
import type { Provider } from "../../cli/provider.ts";

// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x1f\x7f]/;

function outside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/** The absolute path to write, or a `validation` error naming the flag. */
export async function resolveOutputPath(p: Provider, flagName: string, path: string): Promise<string> {
  const hint =
    "use a relative path inside the current directory, e.g. ./report.pdf (cd to the target folder first)";
  const fail = (why: string) => errors.validation(`--${flagName}: ${why}`, { hint });
  if (path === "") throw fail("path is empty");
  if (CONTROL.test(path)) throw fail("path contains control characters");
  if (isAbsolute(path)) throw fail(`must be a relative path within the current directory, got "${path}"`);
  const root = await p.files.realPath(p.cwd);
  const target = resolve(p.cwd, path);
  if (outside(resolve(p.cwd), target)) throw fail(`path is outside the current directory: ${path}`);
  // The nearest existing ancestor decides where a symlink really leads.
  let existing = target;
  while ((await p.files.stat(existing)) === null && existing !== dirname(existing)) {
    existing = dirname(existing);
  }
  const real = await p.files.realPath(existing);
  if (outside(root, real)) throw fail(`path leads outside the current directory: ${path}`);
  const info = await p.files.stat(target);
  if (info?.isDirectory) throw fail(`${path} is a directory; name the file to write`);
  return resolve(real, relative(existing, target));
}
