/**
 * `cli/vendor/zod/zod.js` (what `zod` imports resolve to, one module for start-up) is exactly what
 * `cli/vendor/zod/build.ts` bundles from the zod the lockfile pins: nobody edited it, and a zod upgrade without
 * `deno task vendor:zod` fails here instead of running one zod while type-checking against another.
 */
import assert from "node:assert/strict";
import * as z from "zod";
import { buildZodBundle, BUNDLE_PATH } from "../cli/vendor/zod/build.ts";

Deno.test("cli/vendor/zod/zod.js is the bundle of the locked zod, byte for byte", async () => {
  const committed = await Deno.readTextFile(BUNDLE_PATH);
  assert.ok(
    committed === await buildZodBundle(),
    "cli/vendor/zod/zod.js is stale: run `deno task vendor:zod`",
  );
});

Deno.test("the bundled zod is the locked version and speaks English", async () => {
  const read = async (name: string) =>
    JSON.parse(await Deno.readTextFile(new URL(`../${name}`, import.meta.url)));
  const [config, lock] = await Promise.all([read("deno.json"), read("deno.lock")]);
  // esbuild names each bundled module by its package path, version included (`// zod/4.6.7/v4/mini/…`).
  const bundled = new Set((await Deno.readTextFile(BUNDLE_PATH)).match(/^\/\/ zod\/[^/]+/gm));
  assert.deepEqual([...bundled], [`// zod/${lock.specifiers[config.imports["zod-npm"]]}`]);
  const result = z.object({ n: z.number() }).safeParse({ n: "1" });
  assert.equal(result.success, false);
  assert.equal(result.error?.issues[0].message, "Invalid input: expected number, received string");
});
