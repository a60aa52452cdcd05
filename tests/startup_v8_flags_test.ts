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

const v8Flags = (command: string) =>
  [...command.matchAll(/--v8-flags=([^\s"]+)/g)].flatMap((m) => m[1].split(","));

Deno.test("deno task start, deno task install and a daemon's re-run give V8 the same flags: --no-lazy", async () => {
  const { tasks } = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json")));
  assert.deepEqual(v8Flags(tasks.start), ["--no-lazy"]);
  assert.deepEqual(v8Flags(tasks.install), v8Flags(tasks.start));
  assert.deepEqual(v8Flags(tasks.compile), []);
  // A daemon larkit starts under `deno run` re-runs main.ts: with other flags, V8 would refuse the code cache the
  // runs around it wrote, and each would compile the modules again.
  const reRun = (await Deno.readTextFile(join(REPO, "main.ts"))).match(
    /\[Deno\.execPath\(\), "run", [^\]]*\]/,
  );
  assert.ok(reRun, "main.ts's re-run under deno run not found: the pattern changed, update this test");
  assert.deepEqual(v8Flags(reRun[0]), v8Flags(tasks.start));
});
