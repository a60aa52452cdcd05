/**
 * The official SDK is a test-only dependency: it and what it pulls in (axios, protobufjs, ...) live in
 * tests/sdk/'s own config and lock, never in the main lock, which is what a user's first run fetches and what
 * .ci/download_size.ts counts.
 */
import assert from "node:assert/strict";

const read = async (path: string) =>
  JSON.parse(await Deno.readTextFile(new URL(`../${path}`, import.meta.url)));

Deno.test("the main config and lock do not carry the SDK's packages; tests/sdk/ does", async () => {
  const main = Object.keys((await read("deno.lock")).npm ?? {});
  const sdk = Object.keys((await read("tests/sdk/deno.lock")).npm ?? {});
  const testOnly = (k: string) => /^(@larksuiteoapi\/|axios@|protobufjs@|form-data@)/.test(k);
  assert.deepEqual(main.filter(testOnly), []);
  assert.ok(sdk.some((k) => k.startsWith("@larksuiteoapi/node-sdk@")), sdk.join(", "));
  const imports = Object.values((await read("deno.json")).imports ?? {}) as string[];
  assert.deepEqual(imports.filter((v) => v.includes("@larksuiteoapi/")), []);
});
