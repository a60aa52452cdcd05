/**
 * Every module a run can load keeps to Latin-1 (U+0000-U+00FF). V8 holds a module's source as one string, and
 * one character beyond Latin-1 anywhere in it, a comment's dash included, makes the whole string two bytes per
 * character. Under `deno run` that string is the emitted code plus its inline source map (about 2.7x the
 * TypeScript), so a dry run's modules had filled the young generation twice before it exited: two scavenges,
 * ~1-2 ms of every run (issue 17). Text a user sees keeps its characters through escapes (`"\u2026"`);
 * comments say it in ASCII (`->`, `--`, `...`). The registry's generated JSON, which runs import, escapes them
 * too (`registry/generate.ts`).
 */
import assert from "node:assert/strict";
import { repoFiles } from "./helpers/repo_files.ts";
import { REPO } from "./helpers/run_main.ts";

/** What ships: the entry point and every room a run loads from. Tests are not loaded. */
const ROOTS = ["main.ts", "cli", "registry", "shortcuts", "rpc", "relay", "sandbox"];
/** The registry's generated data, which runs import as JSON modules. */
const DATA = ["registry/baseline/", "registry/shapes/"];

/** The modules and registry data at or under `root` that a run can load. */
async function* sources(root: string): AsyncGenerator<string> {
  for await (const path of repoFiles(root)) {
    const data = DATA.some((d) => path.startsWith(d)) && path.endsWith(".json");
    if (data || (/\.(ts|js)$/.test(path) && !path.endsWith("_test.ts"))) yield path;
  }
}

/** `file:line: text` for each line holding a character beyond Latin-1. */
function wideLines(path: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) =>
    /[\u0100-\uFFFF]/.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : []
  );
}

Deno.test("shipped modules and registry data hold no character beyond Latin-1 (one byte per character in V8's heap)", async () => {
  const found: string[] = [];
  let count = 0;
  for (const root of ROOTS) {
    for await (const path of sources(root)) {
      count++;
      found.push(...wideLines(path, await Deno.readTextFile(`${REPO}/${path}`)));
    }
  }
  assert.ok(count > 900, `only ${count} files found: the walk lost its way`);
  assert.deepEqual(found, [], "escape it in a literal (\\u2026), or say it in ASCII in a comment");
});

Deno.test("the check sees a wide character in a comment, a string and a template", () => {
  assert.deepEqual(wideLines("x.ts", "// a \u2192 b\nconst s = 'ok';\nconst t = `\u2026`;\n"), [
    "x.ts:1: // a \u2192 b",
    "x.ts:3: const t = `\u2026`;",
  ]);
  assert.deepEqual(wideLines("x.ts", "const s = '\u00D7 \u00A7';\n"), []);
});
