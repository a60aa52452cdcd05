/**
 * Issue 36: the recommended scopes kept current without a release. `registry refresh` caches the suite's
 * recommended-scopes document beside the registry overlay; `auth login --recommend` asks for exactly the
 * scopes it recommends among the domain's, with the read shortcuts' scopes only when none is cached, and a
 * login never fetches it. A later document, once refreshed, is what the next login follows; a broken one is
 * a warning and the cached one stays.
 */
import assert from "node:assert/strict";
import { type Emulator, manualClock, startEmulator } from "./helpers/emulator.ts";
import { fakeTime, runCli, type RunOptions, type RunResult } from "./helpers/run_cli.ts";

const AUTHORIZE = "/oauth/v1/device_authorization";
const SCOPES_PATH = "/api/tools/open/scopes.json";

async function withApp(
  fn: (
    larkit: (args: string[], o?: RunOptions) => Promise<RunResult>,
    emu: Emulator,
    dir: string,
  ) => Promise<void>,
) {
  const clock = manualClock(Date.now());
  const emu = await startEmulator({ clock });
  const dir = await Deno.makeTempDir({ prefix: "larkit-scopes-overlay-" });
  const larkit = (args: string[], o: RunOptions = {}) =>
    runCli(args, { configDir: dir, ...fakeTime(clock), env: { LARKIT_REMOTE_META: "on" }, ...o });
  try {
    const init = await larkit(
      ["config", "init", "--app-id", emu.app.appId, "--app-secret-stdin", "--base-url", emu.url],
      { stdin: `${emu.app.appSecret}\n` },
    );
    assert.equal(init.code, 0, init.stderr);
    await fn(larkit, emu, dir);
  } finally {
    await emu.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

/** The scopes the last login asked for. */
const asked = (emu: Emulator) => {
  const all = emu.requests().filter((r) => r.path === AUTHORIZE);
  return String((all.at(-1)?.body as { scope: string }).scope).split(" ")
    .filter((s) => s !== "offline_access").sort();
};

async function loginRecommend(
  larkit: (args: string[], o?: RunOptions) => Promise<RunResult>,
  emu: Emulator,
): Promise<string[]> {
  const fetchesBefore = emu.requests().filter((r) => r.path === SCOPES_PATH).length;
  const r = await larkit(["auth", "login", "--recommend", "--domain", "calendar", "--no-wait"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(emu.requests().filter((r) => r.path === SCOPES_PATH).length, fetchesBefore, "login fetched");
  return asked(emu);
}

Deno.test("login --recommend follows the recommended-scopes document registry refresh cached", async () => {
  await withApp(async (larkit, emu, dir) => {
    // Nothing cached: the calendar read shortcuts' scopes.
    assert.deepEqual(await loginRecommend(larkit, emu), [
      "calendar:calendar.event:read",
      "calendar:calendar.free_busy:read",
    ]);

    const refreshed = await larkit(["registry", "refresh"]);
    assert.equal(refreshed.code, 0, refreshed.stderr);
    assert.equal(emu.requests().filter((r) => r.path === SCOPES_PATH).length, 1);
    assert.ok(await Deno.stat(`${dir}/cache/registry/scopes.json`));
    // The fixture recommends a write scope (reply) and not delete: the document decides, not the risk.
    assert.deepEqual(await loginRecommend(larkit, emu), [
      "calendar:calendar.event:read",
      "calendar:calendar.event:reply",
      "calendar:calendar.free_busy:read",
    ]);

    // The suite changes its mind: the next refresh, then the next login, follow with no new release.
    emu.setScopeDocument([
      { scope_name: "calendar:calendar.event:read", final_score: "52.42", recommend: "true" },
      { scope_name: "calendar:calendar.event:reply", final_score: "40.00", recommend: "false" },
      { scope_name: "calendar:calendar.event:delete", final_score: "30.00", recommend: "true" },
      { scope_name: "im:message:readonly", recommend: "true" },
    ]);
    assert.deepEqual(
      await loginRecommend(larkit, emu),
      ["calendar:calendar.event:read", "calendar:calendar.event:reply", "calendar:calendar.free_busy:read"],
      "not refreshed yet: the cached document still serves",
    );
    assert.equal((await larkit(["registry", "refresh"])).code, 0);
    assert.deepEqual(await loginRecommend(larkit, emu), [
      "calendar:calendar.event:delete",
      "calendar:calendar.event:read",
    ]);

    // --domain without --recommend is unchanged: every scope the shortcuts declare.
    const all = await larkit(["auth", "login", "--domain", "calendar", "--no-wait"]);
    assert.equal(all.code, 0, all.stderr);
    assert.equal(asked(emu).length, 6);
  });
});

Deno.test("a broken recommended-scopes document is a warning and the cached one stays", async () => {
  await withApp(async (larkit, emu) => {
    assert.equal((await larkit(["registry", "refresh"])).code, 0);
    const cached = await loginRecommend(larkit, emu);
    for (
      const bad of [
        "corrupt",
        [{ scope_name: "calendar:calendar.event:delete offline_access", recommend: "true" }],
        [{ scope_name: "calendar:calendar.event:delete", recommend: true }],
        { data: [] },
      ]
    ) {
      emu.setScopeDocument(bad);
      const r = await larkit(["registry", "refresh"]);
      assert.match(
        r.stderr,
        /recommended scopes not updated from http:\/\/127\.0\.0\.1:\d+\/api\/tools\/open\/scopes\.json/,
      );
      assert.deepEqual(await loginRecommend(larkit, emu), cached, JSON.stringify(bad));
    }
  });
});

Deno.test("doctor does not fetch the recommended scopes, and says how old the cached ones are", async () => {
  await withApp(async (larkit, emu) => {
    const before = await larkit(["doctor"]);
    assert.equal(emu.requests().filter((r) => r.path === SCOPES_PATH).length, 0);
    assert.match(before.stdout, /no recommended scopes cached/);
    assert.equal((await larkit(["registry", "refresh"])).code, 0);
    const after = await larkit(["doctor"]);
    assert.match(after.stdout, /recommended scopes fetched 0 day\(s\) ago/);
  });
});
