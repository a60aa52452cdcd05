/**
 * The manifest (`cli/gen/manifest.ts`: `shortcuts/modules.json`, `cli/resolve/help_static.ndjson`,
 * `cli/resolve/catalogue_static.ndjson`, deno.json's compile task) is what `deno task gen` writes from the
 * declarations today. This test only reads: a stale file fails here with the command that rewrites it.
 */
import assert from "node:assert/strict";
import { MANIFEST, REGENERATE } from "../cli/gen/manifest.ts";

for (const [file, make] of MANIFEST) {
  const name = file.href.slice(new URL("../", import.meta.url).href.length);
  Deno.test(`${name} is what the declarations give (rewrite: ${REGENERATE})`, async () => {
    const have = await Deno.readTextFile(file);
    // Not assert.equal: a 3.8 MB diff helps nobody.
    assert.ok(have === await make(), `${name} is stale: run \`${REGENERATE}\``);
  });
}
