/**
 * A logged-in user without a browser: a real emulator grant (device flow, approved at once) stored the way
 * `auth login` stores it, and the user listed on the default profile. The config dir must hold a config
 * (`config init`) already.
 */
import assert from "node:assert/strict";
import { writeUserToken } from "../../cli/auth/user_token.ts";
import { loadConfig, saveConfig } from "../../cli/config/config_file.ts";
import { updateProfile } from "../../cli/config/profiles.ts";
import { secretStore } from "../../cli/config/secret_store.ts";
import { testProvider } from "../../cli/test_provider.ts";
import { type Emulator, fixtures, userToken } from "./emulator.ts";
import { runCli } from "./run_cli.ts";

export interface SeedLoginOptions {
  /** Scopes to grant; every user scope the seeded app has when absent. */
  scope?: string;
  /** When larkit believes the access token expires (default: two hours from now). */
  expiresAt?: number;
  /** Stored instead of the refresh token the emulator issued (e.g. one it never issued). */
  refreshToken?: string;
  refreshExpiresAt?: number;
}

export async function seedLogin(
  emu: Emulator,
  configDir: string,
  opts: SeedLoginOptions = {},
): Promise<void> {
  const alice = fixtures.USERS.alice;
  const grant = await userToken(emu, { scope: opts.scope });
  const p = testProvider({ env: { LARKIT_CONFIG_DIR: configDir } });
  const now = Date.now();
  await writeUserToken(secretStore(p), {
    userOpenId: alice.open_id,
    appId: emu.app.appId,
    accessToken: grant.access_token,
    refreshToken: opts.refreshToken ?? grant.refresh_token,
    expiresAt: opts.expiresAt ?? now + 7_200_000,
    refreshExpiresAt: opts.refreshExpiresAt ?? now + 604_800_000,
    scope: grant.scope,
    grantedAt: now,
  });
  const config = await loadConfig(p);
  assert.ok(config, `no config in ${configDir}: run config init first`);
  await saveConfig(
    p,
    updateProfile(config, "default", { users: [{ openId: alice.open_id, name: alice.name }] }),
  );
}

/** A config dir set up as a user would: `config init` against the emulator's app, then a logged-in user. */
export async function initAndLogin(
  emu: Emulator,
  configDir: string,
  opts: SeedLoginOptions = {},
): Promise<void> {
  const init = await runCli(
    ["config", "init", "--app-id", emu.app.appId, "--app-secret-stdin", "--base-url", emu.url],
    { configDir, stdin: `${emu.app.appSecret}\n` },
  );
  assert.equal(init.code, 0, init.stderr);
  await seedLogin(emu, configDir, opts);
}
