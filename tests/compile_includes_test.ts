/**
 * Modules loaded lazily (through a specifier Deno cannot resolve ahead of time, to keep them out of every run's
 * start-up graph) are invisible to `deno compile`: each must be `--include`d, or the compiled binary fails when a
 * run first needs it. `cli/lazy.ts`'s table lists them, and `deno task gen` writes deno.json's compile task from
 * it; these tests hold the table true and the task generated from it.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { compileTask, lazyTable } from "../cli/gen/manifest.ts";
import { LAZY_DATA } from "../cli/lazy.ts";
import { repoFiles } from "./helpers/repo_files.ts";
import { REPO } from "./helpers/run_main.ts";

const includesOf = (compile: string) => new Set([...compile.matchAll(/--include (\S+)/g)].map((m) => m[1]));

async function compileIncludes(): Promise<Set<string>> {
  return includesOf(JSON.parse(await Deno.readTextFile(join(REPO, "deno.json"))).tasks.compile);
}

/** larkit's modules: what tests, benches, builds and the vendored bundle are not. */
async function* sources(): AsyncGenerator<string> {
  for await (const path of repoFiles(".", ["tests", "bench", "dist", "node_modules", ".git"])) {
    if (/\.[jt]s$/.test(path) && !/_test\.ts$|(^|\/)vendor\//.test(path)) yield path;
  }
}

Deno.test("deno task compile's --includes are what deno task gen writes from cli/lazy.ts", async () => {
  const want = includesOf(await compileTask());
  const have = await compileIncludes();
  assert.deepEqual([...want].filter((p) => !have.has(p)), [], "not included: run `deno task gen`");
  assert.deepEqual([...have].filter((p) => !want.has(p)), [], "included by hand: add it to cli/lazy.ts");
});

Deno.test("every entry of the lazy table is a module, typed by its own type import", async () => {
  const text = await Deno.readTextFile(join(REPO, "cli/lazy.ts"));
  const typeImports = new Map(
    [...text.matchAll(/^import type \* as (\w+) from "([^"]+)";$/gm)].map((m) => [m[1], join("cli", m[2])]),
  );
  const table = await lazyTable();
  assert.ok(
    table.length > 50,
    `only ${table.length} entries read: the table's shape changed, update lazyTable`,
  );
  for (const { path, type } of table) {
    assert.equal(typeImports.get(type), path, `"${path}" is typed by ${type}, which imports something else`);
    assert.ok((await Deno.stat(join(REPO, path))).isFile, path);
  }
  for (const path of LAZY_DATA) await Deno.stat(join(REPO, path));
});

/**
 * Modules that still load through a computed specifier of their own rather than `lazy(...)` (the relay's socket and
 * the emulator's generic handler): each is in the table or `LAZY_DATA` too.
 */
Deno.test("a module loaded by a computed specifier outside cli/lazy.ts is --include'd too", async () => {
  const included = await compileIncludes();
  const loaded: string[] = [];
  for await (const file of sources()) {
    if (file === "cli/lazy.ts" || file.startsWith("cli/gen/")) continue;
    const text = await Deno.readTextFile(join(REPO, file));
    for (const m of text.matchAll(/\blater(?:<[^>]*>)?\(\s*"([^"]+)"/g)) {
      loaded.push(join(dirname(file), m[1]));
    }
    for (const m of text.matchAll(/^const [A-Z_]+ = "(\.{1,2}\/[^"]+\.ts)";$/gm)) {
      loaded.push(join(dirname(file), m[1]));
    }
  }
  assert.ok(loaded.length > 0, "no computed import found: the pattern changed, update this test");
  assert.deepEqual(loaded.filter((path) => !included.has(path)), []);
});

Deno.test("every baseline directory a run reads by a computed path is --include'd by deno task compile", async () => {
  const included = await compileIncludes();
  const dirs = await Array.fromAsync(Deno.readDir(join(REPO, "registry/baseline")));
  const wanted = dirs.filter((d) => d.isDirectory).map((d) => `registry/baseline/${d.name}/`);
  assert.deepEqual(wanted.sort(), ["registry/baseline/runnable/", "registry/baseline/services/"]);
  assert.deepEqual(wanted.filter((d) => !included.has(d)), []);
});
