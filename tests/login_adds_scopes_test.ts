/**
 * Issue 23.6: a login asked for after a missing-scope hint (which names only the missing scopes) adds them to
 * what the user already granted, instead of replacing the grant.
 */
import assert from "node:assert/strict";
import { emulatorEnv, startEmulator } from "./helpers/emulator.ts";
import { seedLogin } from "./helpers/login.ts";
import { runCli } from "./helpers/run_cli.ts";

Deno.test("auth login --scope X asks for X plus the scopes the user already holds", async () => {
  const emu = await startEmulator({});
  const configDir = await Deno.makeTempDir({ prefix: "larkit-addscope-" });
  try {
    const env = { ...emulatorEnv(emu), LARKIT_APP_ID: "", LARKIT_APP_SECRET: "" };
    const init = await runCli(
      [
        "config",
        "init",
        "--app-id",
        emu.app.appId,
        "--app-secret-stdin",
        "--brand",
        "custom",
        "--base-url",
        emu.url,
      ],
      { configDir, env: { LARKIT_BRAND: "", LARKIT_BASE_URL: "" }, stdin: emu.app.appSecret + "\n" },
    );
    assert.equal(init.code, 0, init.stderr);
    await seedLogin(emu, configDir, { scope: "calendar:calendar.event:read offline_access" });
    const started = await runCli(["auth", "login", "--scope", "im:chat:read", "--no-wait"], {
      configDir,
      env,
    });
    assert.equal(started.code, 0, started.stderr);
    const asked = emu.requests().filter((r) => r.path === "/oauth/v1/device_authorization").at(-1)?.body as {
      scope: string;
    };
    const scopes = asked.scope.split(" ");
    assert.ok(scopes.includes("calendar:calendar.event:read"), asked.scope);
    assert.ok(scopes.includes("im:chat:read"), asked.scope);
  } finally {
    await emu.stop();
  }
});
