/**
 * larkit ships as a `deno bundle` output (deno compile cannot fetch its runtime offline). jq-web loads
 * jq.wasm from beside its own file, so in a bundle jq.wasm must sit beside the bundle; this builds a bundle
 * that uses `applyJq` and runs it from another directory, offline, to prove that arrangement works.
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

Deno.test("--jq works from a deno bundle with jq.wasm beside it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "larkit-jq-bundle-" });
  const entry = join(dir, "entry.ts");
  await Deno.writeTextFile(
    entry,
    `import { applyJq } from ${JSON.stringify(new URL("./jq.ts", import.meta.url).href)};\n` +
      `console.log(await applyJq({ ok: true, data: [{ id: "a" }, { id: "b" }] }, ".data[].id"));\n`,
  );
  const out = join(dir, "dist", "larkit.js");
  const bundle = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--config", join(REPO, "deno.json"), "-o", out, entry],
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(bundle.code, 0, new TextDecoder().decode(bundle.stderr));
  const wasm = join(dirname(createRequire(import.meta.url).resolve("jq-web")), "jq.wasm");
  await Deno.copyFile(wasm, join(dir, "dist", "jq.wasm"));

  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-env", "--no-config", out],
    cwd: dir,
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(new TextDecoder().decode(run.stderr), "");
  assert.equal(new TextDecoder().decode(run.stdout), "a\nb\n\n");
});
