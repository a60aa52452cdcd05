/**
 * `larkit doctor` against the suite emulator: a healthy setup passes; an expired login and a skewed clock are
 * failing checks, the report is still the one document on stdout, and the exit code says a check failed.
 */
import assert from "node:assert/strict";
import { writeUserToken } from "../cli/auth/user_token.ts";
import { loadConfig, saveConfig } from "../cli/config/config_file.ts";
import { updateProfile } from "../cli/config/profiles.ts";
import { secretStore } from "../cli/config/secret_store.ts";
import type { DoctorReport } from "../cli/doctor/checks.ts";
import { testProvider } from "../cli/test_provider.ts";
import { emulatorEnv, withEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";

const statusOf = (r: DoctorReport, name: string) => r.checks.find((c) => c.name === name)?.status;

async function configured(emuUrl: string, appId: string, secret: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "larkit-doctor-" });
  const r = await runCli(["config", "init", "--app-id", appId, "--app-secret-stdin", "--base-url", emuUrl], {
    configDir: dir,
    stdin: `${secret}\n`,
  });
  assert.equal(r.code, 0, r.stderr);
  return dir;
}

Deno.test("doctor passes on a healthy emulator setup and reports every check", async () => {
  await withEmulator({}, async (emu) => {
    const dir = await configured(emu.url, emu.app.appId, emu.app.appSecret);
    const r = await runCli(["doctor"], { configDir: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = r.json<DoctorReport>();
    assert.equal(report.ok, true);
    for (
      const name of [
        "config_file",
        "profile",
        "credentials_bot",
        "endpoint_open",
        "clock_skew",
        "endpoint_mcp",
      ]
    ) {
      assert.equal(statusOf(report, name), "pass", name);
    }
    assert.equal(statusOf(report, "token_verified_bot"), "pass");
    assert.ok(!r.stdout.includes(emu.app.appSecret));
    const offline = (await runCli(["doctor", "--offline"], { configDir: dir })).json<DoctorReport>();
    assert.equal(statusOf(offline, "endpoint_open"), "skip");
  });
});

Deno.test("doctor fails the token check for an expired login, exit 1, report on stdout", async () => {
  await withEmulator({}, async (emu) => {
    const dir = await configured(emu.url, emu.app.appId, emu.app.appSecret);
    const p = testProvider({ env: { LARKIT_CONFIG_DIR: dir } });
    const past = Date.now() - 30 * 86_400_000;
    await writeUserToken(secretStore(p), {
      userOpenId: "ou_sandbox_user_0001",
      appId: emu.app.appId,
      accessToken: "expired-access",
      refreshToken: "expired-refresh",
      expiresAt: past + 7_200_000,
      refreshExpiresAt: past + 604_800_000,
      scope: "calendar:calendar.event:read",
      grantedAt: past,
    });
    const config = await loadConfig(p);
    assert.ok(config);
    await saveConfig(
      p,
      updateProfile(config, "default", { users: [{ openId: "ou_sandbox_user_0001", name: "Alice" }] }),
    );
    const r = await runCli(["doctor", "--offline"], { configDir: dir });
    assert.equal(r.code, 1);
    assert.doesNotMatch(r.stderr, /^\{/m, "no error envelope: the report is the result");
    const report = r.json<DoctorReport>();
    assert.equal(report.ok, false);
    const token = report.checks.find((c) => c.name === "token_user");
    assert.equal(token?.status, "fail");
    assert.match(token?.hint ?? "", /larkit --profile default auth login/);
  });
});

Deno.test("doctor fails the clock check when the local clock is skewed (injected clock)", async () => {
  await withEmulator({}, async (emu) => {
    const r = await runCli(["doctor"], { env: emulatorEnv(emu), now: () => Date.now() + 2 * 3_600_000 });
    assert.equal(r.code, 1);
    const report = r.json<DoctorReport>();
    const skew = report.checks.find((c) => c.name === "clock_skew");
    assert.equal(skew?.status, "fail");
    assert.match(skew?.message ?? "", /ahead of the server/);
  });
});
