/**
 * Credentials survive faults (issue 15.9): a token refresh whose answer is lost after the suite rotated the
 * refresh token is an `auth` error naming the login command, the stored pair is kept, and the next run goes on
 * with the access token the suite still accepts; a refresh lock left by a killed process is taken over at once.
 */
import assert from "node:assert/strict";
import { hostname } from "node:os";
import { readUserToken, refreshLockPath } from "../cli/auth/user_token.ts";
import { secretStore } from "../cli/config/secret_store.ts";
import { testProvider } from "../cli/test_provider.ts";
import { type Emulator, fixtures, withEmulator } from "./helpers/emulator.ts";
import { seedLogin } from "./helpers/login.ts";
import { runCli, type RunOptions } from "./helpers/run_cli.ts";

const TOKEN_PATH = "/open-apis/authen/v2/oauth/token";
const CALENDARS = ["calendar", "calendars", "list", "--as", "user"];
const ALICE = fixtures.USERS.alice.open_id;

async function loggedIn(emu: Emulator, configDir: string, expiresAt: number): Promise<void> {
  const init = await runCli(
    ["config", "init", "--app-id", emu.app.appId, "--app-secret-stdin", "--base-url", emu.url],
    { configDir, stdin: `${emu.app.appSecret}\n` },
  );
  assert.equal(init.code, 0, init.stderr);
  await seedLogin(emu, configDir, { expiresAt });
}

const stored = (configDir: string, appId: string) =>
  readUserToken(secretStore(testProvider({ env: { LARKIT_CONFIG_DIR: configDir } })), appId, ALICE);

Deno.test("a refresh whose answer is lost is an auth error; the login is kept and the next run works", async () => {
  await withEmulator({}, async (emu) => {
    const configDir = await Deno.makeTempDir({ prefix: "larkit-fault-" });
    // Inside the refresh-ahead window: larkit refreshes, though the access token still has a minute.
    await loggedIn(emu, configDir, Date.now() + 60_000);
    const before = await stored(configDir, emu.app.appId);
    assert.ok(before?.refreshToken);

    emu.faults.dropConnection({ path: TOKEN_PATH, times: 1, after: "after-handling" });
    const lost = await runCli(CALENDARS, { configDir });
    assert.equal(lost.code, 3, lost.stderr);
    const error = lost.errorJson().error;
    assert.deepEqual([error.type, error.subtype], ["authentication", "auth"]);
    assert.match(error.message, /refresh got no usable answer/);
    assert.match(String(error.hint), /larkit auth login/);
    assert.deepEqual(await stored(configDir, emu.app.appId), before, "the stored pair is kept");

    // The suite spent that refresh token (20073 now); its access token still works: the run goes on.
    const next = await runCli(CALENDARS, { configDir });
    assert.equal(next.code, 0, next.stderr);
    const after = await stored(configDir, emu.app.appId);
    assert.equal(after?.accessToken, before.accessToken);
    assert.equal(after?.refreshToken, undefined);

    // Once that access token has expired there is nothing left: the login command, not a crash.
    const later = await runCli(CALENDARS, { configDir, now: () => Date.now() + 120_000 });
    assert.equal(later.code, 3, later.stderr);
    assert.deepEqual([later.errorJson().error.type, later.errorJson().error.subtype], [
      "authentication",
      "auth",
    ]);
    assert.match(String(later.errorJson().error.hint), /larkit auth login/);
    await Deno.remove(configDir, { recursive: true });
  });
});

Deno.test("a refresh dropped before the suite handled it is retried by the next run with the same refresh token", async () => {
  await withEmulator({}, async (emu) => {
    const configDir = await Deno.makeTempDir({ prefix: "larkit-fault-" });
    await loggedIn(emu, configDir, Date.now() + 60_000);
    const before = await stored(configDir, emu.app.appId);
    emu.faults.dropConnection({ path: TOKEN_PATH, times: 1, after: "before-handling" });
    assert.equal((await runCli(CALENDARS, { configDir })).code, 3);
    const next = await runCli(CALENDARS, { configDir });
    assert.equal(next.code, 0, next.stderr);
    const after = await stored(configDir, emu.app.appId);
    assert.notEqual(after?.accessToken, before?.accessToken, "refreshed");
    assert.ok(after?.refreshToken && after.refreshToken !== before?.refreshToken);
    await Deno.remove(configDir, { recursive: true });
  });
});

Deno.test("a refresh lock left by a killed process is taken over at once, without waiting", async () => {
  await withEmulator({}, async (emu) => {
    const configDir = await Deno.makeTempDir({ prefix: "larkit-fault-" });
    await loggedIn(emu, configDir, Date.now() + 60_000);
    const dead = new Deno.Command("/bin/true").spawn();
    await dead.status;
    const p = testProvider({ env: { LARKIT_CONFIG_DIR: configDir } });
    const lock = refreshLockPath(p, emu.app.appId, ALICE);
    await p.files.createNew(
      lock,
      JSON.stringify({ owner: "killed", at: Date.now(), pid: dead.pid, host: hostname() }),
    );
    const sleeps: number[] = [];
    const opts: RunOptions = {
      configDir,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    };
    const r = await runCli(CALENDARS, opts);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(sleeps, [], "no waiting on the dead holder");
    assert.equal(await p.files.stat(lock), null);
    await Deno.remove(configDir, { recursive: true });
  });
});
