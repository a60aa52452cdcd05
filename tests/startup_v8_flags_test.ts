/**
 * larkit runs under `deno run` with V8's `--no-lazy` (ARCHITECTURE, start-up rules): Deno caches a module's
 * code when it compiles it, so only functions compiled with the module come from the cache on the next run.
 * `deno task start` and the installed command (`deno task install`) must pass the same V8 flags, as the bench
 * measures what `start` runs; the compiled binary leaves the flag out, as its code cache holds only the
 * modules loaded at start and compiling every function of the others eagerly costs (a `--jq` run: +16 ms).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO } from "./helpers/run_main.ts";

const v8Flags = (task: string) => [...task.matchAll(/--v8-flags=(\S+)/g)].flatMap((m) => m[1].split(","));

Deno.test("deno task start and deno task install give V8 the same flags, --no-lazy among them", async () => {
  const { tasks } = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json")));
  assert.deepEqual(v8Flags(tasks.start), ["--no-lazy"]);
  assert.deepEqual(v8Flags(tasks.install), v8Flags(tasks.start));
  assert.deepEqual(v8Flags(tasks.compile), []);
});
