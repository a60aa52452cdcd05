/**
 * Issue 23.6: `auth login --recommend` requests the scope names the read shortcuts declare — every one of
 * them, and no write scope — so no read shortcut lacks a scope after it.
 */
import assert from "node:assert/strict";
import { recommendedScopes } from "../cli/auth/recommended_scopes.ts";
import { SHORTCUT_SERVICES } from "../shortcuts/index.ts";
import { emulatorEnv, startEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";

Deno.test("auth login --recommend asks for every user scope of the read shortcuts, and only those", async () => {
  const reads = new Set<string>();
  const writesOnly = new Set<string>();
  for (const s of Object.values(SHORTCUT_SERVICES)) {
    for (const shortcut of await s.load()) {
      for (const scope of shortcut.scopes.user ?? []) {
        (shortcut.risk === "read" ? reads : writesOnly).add(scope);
      }
    }
  }
  for (const scope of reads) writesOnly.delete(scope);
  assert.deepEqual(new Set(await recommendedScopes(SHORTCUT_SERVICES)), reads);

  const emu = await startEmulator({});
  const configDir = await Deno.makeTempDir({ prefix: "larkit-recommend-" });
  try {
    const init = await runCli(
      ["config", "init", "--app-id", emu.app.appId, "--app-secret-stdin", "--base-url", emu.url],
      { configDir, stdin: emu.app.appSecret + "\n" },
    );
    assert.equal(init.code, 0, init.stderr);
    const env = {
      ...emulatorEnv(emu),
      LARKIT_APP_ID: "",
      LARKIT_APP_SECRET: "",
      LARKIT_BASE_URL: "",
      LARKIT_BRAND: "",
    };
    const started = await runCli(["auth", "login", "--recommend", "--no-wait"], { configDir, env });
    assert.equal(started.code, 0, started.stderr);
    const asked = emu.requests().find((r) => r.path === "/oauth/v1/device_authorization")?.body as {
      scope: string;
    };
    const requested = new Set(asked.scope.split(" "));
    assert.deepEqual([...reads].filter((s) => !requested.has(s)), []);
    assert.deepEqual([...writesOnly].filter((s) => requested.has(s)), []);
  } finally {
    await emu.stop();
  }
});
