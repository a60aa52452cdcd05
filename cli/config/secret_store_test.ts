import assert from "node:assert/strict";
import { join } from "node:path";
import { LarkitError } from "../output/errors.ts";
import { testProvider } from "../test_provider.ts";
import { secretsDir, secretStore } from "./secret_store.ts";

Deno.test("secrets round-trip encrypted, 0600, and vanish on remove", async () => {
  const p = testProvider();
  const store = secretStore(p);
  await store.set("appsecret:cli_1", "very-secret-value");
  assert.equal(await store.get("appsecret:cli_1"), "very-secret-value");
  const file = join(secretsDir(p), "appsecret_cli_1.enc");
  assert.ok(!new TextDecoder("latin1").decode(await Deno.readFile(file)).includes("very-secret-value"));
  assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
  assert.equal((await Deno.stat(join(secretsDir(p), "master.key"))).mode! & 0o777, 0o600);
  await store.remove("appsecret:cli_1");
  assert.equal(await store.get("appsecret:cli_1"), undefined);
});

Deno.test("an entry copied under another key's name does not decrypt", async () => {
  const p = testProvider();
  const store = secretStore(p);
  await store.set("appsecret:a", "secret-a");
  await Deno.copyFile(join(secretsDir(p), "appsecret_a.enc"), join(secretsDir(p), "appsecret_b.enc"));
  await assert.rejects(store.get("appsecret:b"), (e) => e instanceof LarkitError && e.type === "config");
});
