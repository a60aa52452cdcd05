/**
 * The repository's own files, for the tests that read larkit's sources rather than run them (output writers,
 * compile includes, source charset): one walk, each test filtering what it checks.
 */
import { join } from "node:path";
import { REPO } from "./run_main.ts";

/**
 * Every file at or under `path` (relative to the repository; `.` for all of it), as paths relative to the
 * repository, without entering a directory whose name is in `skip`.
 */
export async function* repoFiles(path: string, skip: readonly string[] = []): AsyncGenerator<string> {
  if ((await Deno.stat(join(REPO, path))).isFile) {
    yield path;
    return;
  }
  for await (const e of Deno.readDir(join(REPO, path))) {
    if (e.isDirectory && skip.includes(e.name)) continue;
    yield* repoFiles(path === "." ? e.name : `${path}/${e.name}`, skip);
  }
}
