/**
 * `cli/vendor/zod/zod.js` (what `zod` imports resolve to, one module for start-up) is exactly what
 * `cli/vendor/zod/build.ts` bundles from the zod the lockfile pins: nobody edited it, and a zod upgrade without
 * `deno task vendor:zod` fails here instead of running one zod while type-checking against another.
 */
import assert from "node:assert/strict";
import * as z from "zod";
import { buildZodBundle, BUNDLE_PATH, compiledEagerly, lockedZodVersion } from "../cli/vendor/zod/build.ts";

Deno.test("cli/vendor/zod/zod.js is the bundle of the locked zod, byte for byte", async () => {
  const committed = await Deno.readTextFile(BUNDLE_PATH);
  assert.ok(
    committed === await buildZodBundle(),
    "cli/vendor/zod/zod.js is stale: run `deno task vendor:zod`",
  );
});

Deno.test("the bundled zod is the locked version and speaks English", async () => {
  const version = await lockedZodVersion();
  assert.match(version, /^\d+\.\d+\.\d+$/);
  assert.deepEqual((await Deno.readTextFile(BUNDLE_PATH)).match(/^\/\/ zod \S+$/gm), [`// zod ${version}`]);
  const result = z.object({ n: z.number() }).safeParse({ n: "1" });
  assert.equal(result.success, false);
  assert.equal(result.error?.issues[0].message, "Invalid input: expected number, received string");
});

Deno.test("the eager rewrite parenthesizes every function and keeps what the module does", async () => {
  const source = [
    "export const early = later(2);",
    "function later(n) { return n * 2; }",
    "const o = { m() { return 1; }, get g() { return 2; }, set s(v) {}, f: function () { return 3; }, a: (x) => x + 1 };",
    "class C { m() { return 4; } static s() { return 5; } get g() { return 6; } }",
    "async function* gen() { yield 7; }",
    "export const all = [o.m(), o.g, o.f(), o.a(3), new C().m(), C.s(), new C().g, typeof gen, early];",
  ].join("\n");
  const rewritten = await compiledEagerly(source);
  const mod = await import(`data:text/javascript,${encodeURIComponent(rewritten)}`);
  assert.deepEqual(mod.all, [1, 2, 3, 4, 4, 5, 6, "function", 4]);
  // Declarations are assigned before the code that calls them; methods and accessors keep their syntax.
  assert.ok(rewritten.startsWith("var later = (function later(n) {"), rewritten);
  assert.ok(rewritten.includes("var gen = (async function* gen() {"), rewritten);
  for (
    const kept of ["f: (function () {", "a: ((x) => x + 1)", "m() { return 1; }", "get g() { return 2; }"]
  ) {
    assert.ok(rewritten.includes(kept), `${kept} in:\n${rewritten}`);
  }
});
