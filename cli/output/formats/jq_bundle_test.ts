/**
 * larkit ships as a `deno bundle` output or a `deno compile` binary. jq.wasm is embedded (jq_engine.ts), so
 * this builds a bundle that uses `applyJq`, runs it alone in another directory, offline, with only read
 * access to that directory, and expects jq to work with no file beside the bundle.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

Deno.test("--jq works from a deno bundle with no jq.wasm beside it", async () => {
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
  assert.deepEqual([...Deno.readDirSync(join(dir, "dist"))].map((e) => e.name), ["larkit.js"]);

  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-env", "--no-config", out],
    cwd: dir,
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(new TextDecoder().decode(run.stderr), "");
  assert.equal(new TextDecoder().decode(run.stdout), "a\nb\n\n");
});
