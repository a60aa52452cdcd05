import assert from "node:assert/strict";
import { join } from "node:path";
import { LarkitError } from "../output/errors.ts";
import { diagnostics } from "../output/diagnostics.ts";
import { testProvider } from "../test_provider.ts";
import { createCredentialChain } from "./chain.ts";

/** A chain over a config directory whose config.json is not JSON. */
async function chainOverBrokenConfig(env: Record<string, string>) {
  const home = await Deno.makeTempDir({ prefix: "larkit-chain-" });
  await Deno.mkdir(join(home, "config"));
  await Deno.writeTextFile(join(home, "config", "config.json"), "{ not json");
  const p = testProvider({ home, env });
  const diag = diagnostics(p.stderr, { debug: false, color: false });
  const chain = createCredentialChain(p, { diag, send: () => Promise.reject(new Error("no network")) });
  return { chain, home };
}

Deno.test("the environment answers without the config file being read; once it passes, the file is", async () => {
  const configured = await chainOverBrokenConfig({ LARKIT_APP_ID: "cli_env", LARKIT_APP_SECRET: "s" });
  try {
    const account = await configured.chain.account();
    assert.equal(account.source, "env");
    assert.equal(account.appId, "cli_env");
  } finally {
    await Deno.remove(configured.home, { recursive: true });
  }
  const unset = await chainOverBrokenConfig({});
  try {
    await assert.rejects(unset.chain.account(), (e: unknown) => {
      assert.ok(e instanceof LarkitError);
      assert.match(e.message, /^config file is not valid JSON: /);
      return true;
    });
  } finally {
    await Deno.remove(unset.home, { recursive: true });
  }
});
