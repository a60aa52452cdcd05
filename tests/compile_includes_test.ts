/**
 * Modules loaded through `later("./x.ts")` (a specifier Deno cannot resolve ahead of time, to keep them out of
 * every run's start-up graph) are invisible to `deno compile`: each must be listed for `--include` in
 * deno.json's compile task, or the compiled binary fails when a run first needs it.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { repoFiles } from "./helpers/repo_files.ts";
import { REPO } from "./helpers/run_main.ts";

/** larkit's modules: what tests, benches, builds and the vendored bundle are not. */
async function* sources(): AsyncGenerator<string> {
  for await (const path of repoFiles(".", ["tests", "bench", "dist", "node_modules", ".git"])) {
    if (/\.[jt]s$/.test(path) && !/_test\.ts$|(^|\/)vendor\//.test(path)) yield path;
  }
}

Deno.test("every module loaded through later(…) is --include'd by deno task compile", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json")));
  const compile: string = config.tasks.compile;
  const included = new Set([...compile.matchAll(/--include (\S+)/g)].map((m) => m[1]));
  const loaded: string[] = [];
  for await (const file of sources()) {
    const text = await Deno.readTextFile(join(REPO, file));
    for (const m of text.matchAll(/\blater(?:<[^>]*>)?\(\s*"([^"]+)"/g)) {
      loaded.push(join(dirname(file), m[1]));
    }
  }
  assert.ok(loaded.length > 0, "no later(…) import found: the pattern changed, update this test");
  assert.deepEqual(loaded.filter((path) => !included.has(path)), []);
});

Deno.test("every baseline directory a run reads by a computed path is --include'd by deno task compile", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json")));
  const included = new Set([...config.tasks.compile.matchAll(/--include (\S+)/g)].map((m: string[]) => m[1]));
  const dirs = await Array.fromAsync(Deno.readDir(join(REPO, "registry/baseline")));
  const wanted = dirs.filter((d) => d.isDirectory).map((d) => `registry/baseline/${d.name}/`);
  assert.deepEqual(wanted.sort(), ["registry/baseline/runnable/", "registry/baseline/services/"]);
  assert.deepEqual(wanted.filter((d) => !included.has(d)), []);
});
