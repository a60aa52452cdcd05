/**
 * Several users in one profile (issue 36): each logs in by a real device flow against the emulator, keeps
 * its own tokens and refresh, and a command picks one with `--user` or LARKIT_USER, alternately, without
 * anyone logging in again. One manual clock is shared by larkit and the emulator.
 */
import assert from "node:assert/strict";
import { readUserToken } from "../cli/auth/user_token.ts";
import { loadConfig } from "../cli/config/config_file.ts";
import { secretStore } from "../cli/config/secret_store.ts";
import { testProvider } from "../cli/test_provider.ts";
import { type Emulator, fixtures, manualClock, startEmulator } from "./helpers/emulator.ts";
import { seedLogin } from "./helpers/login.ts";
import { errorOf, fakeTime, runCli, type RunOptions, type RunResult } from "./helpers/run_cli.ts";

const { alice, bob } = fixtures.USERS;
const SCOPE = "contact:user.basic_profile:readonly";
const TOKEN_PATH = "/open-apis/authen/v2/oauth/token";

interface Setup {
  emu: Emulator;
  dir: string;
  clock: ReturnType<typeof manualClock>;
  larkit(args: string[], opts?: RunOptions): Promise<RunResult>;
  login(openId: string, scope?: string): Promise<RunResult>;
}

async function withProfile(fn: (s: Setup) => Promise<void>): Promise<void> {
  const clock = manualClock(Date.now());
  const emu = await startEmulator({ clock });
  const dir = await Deno.makeTempDir({ prefix: "larkit-users-" });
  const larkit = (args: string[], opts: RunOptions = {}) =>
    runCli(args, { configDir: dir, ...fakeTime(clock), ...opts });
  const s: Setup = {
    emu,
    dir,
    clock,
    larkit,
    async login(openId, scope = SCOPE) {
      const started = await larkit(["auth", "login", "--scope", scope, "--no-wait"]);
      assert.equal(started.code, 0, started.stderr);
      const code = started.json<{ data: { device_code: string } }>().data.device_code;
      emu.approveDevice(code, { userOpenId: openId });
      return await larkit(["auth", "login", "--device-code", code]);
    },
  };
  try {
    const init = await larkit(
      ["config", "init", "--app-id", emu.app.appId, "--app-secret-stdin", "--base-url", emu.url],
      { stdin: `${emu.app.appSecret}\n` },
    );
    assert.equal(init.code, 0, init.stderr);
    await fn(s);
  } finally {
    await emu.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

const me = (r: RunResult) => {
  assert.equal(r.code, 0, r.stderr);
  return r.json<{ data: { open_id: string } }>().data.open_id;
};

Deno.test("two users of one profile act alternately, each with its own token and refresh", async () => {
  await withProfile(async (s) => {
    assert.equal((await s.login(alice.open_id)).code, 0);
    // A second login adds a user: the first stays logged in (today a login replaced the user).
    const second = await s.login(bob.open_id);
    assert.equal(second.code, 0, second.stderr);
    const p = testProvider({ env: { LARKIT_CONFIG_DIR: s.dir } });
    const users = (await loadConfig(p))?.profiles[0].users;
    assert.deepEqual(users?.map((u) => u.openId), [bob.open_id, alice.open_id]);
    const store = secretStore(p);
    const [a, b] = [
      await readUserToken(store, s.emu.app.appId, alice.open_id),
      await readUserToken(store, s.emu.app.appId, bob.open_id),
    ];
    assert.ok(a && b && a.refreshToken !== b.refreshToken);

    const get = ["contact", "+get-user", "--as", "user"];
    assert.equal(me(await s.larkit(["--user", alice.name, ...get])), alice.open_id);
    assert.equal(me(await s.larkit([...get, "--user", bob.open_id])), bob.open_id);
    assert.equal(me(await s.larkit(get, { env: { LARKIT_USER: alice.open_id } })), alice.open_id);
    // Without --user: the latest login.
    assert.equal(me(await s.larkit(get)), bob.open_id);

    // Both access tokens expire: each user's next command refreshes its own, nobody logs in again.
    s.clock.advance(3 * 3_600_000);
    const before = s.emu.requests().filter((r) => r.path === TOKEN_PATH).length;
    assert.equal(me(await s.larkit(["--user", alice.name, ...get])), alice.open_id);
    assert.equal(me(await s.larkit(["--user", bob.name, ...get])), bob.open_id);
    assert.equal(me(await s.larkit(["--user", alice.name, ...get])), alice.open_id);
    assert.equal(s.emu.requests().filter((r) => r.path === TOKEN_PATH).length - before, 2);
    const refreshedA = await readUserToken(store, s.emu.app.appId, alice.open_id);
    assert.notEqual(refreshedA?.refreshToken, a.refreshToken);
  });
});

Deno.test("--user naming nobody logged in is an auth error listing who is, never another identity", async () => {
  await withProfile(async (s) => {
    assert.equal((await s.login(alice.open_id)).code, 0);
    const r = await s.larkit(["--user", "Nobody", "contact", "+get-user"]);
    assert.equal(r.code, 3);
    const err = errorOf(r);
    assert.equal(err.subtype, "auth");
    assert.match(err.message, /"Nobody" is not logged in/);
    assert.match(String(err.hint), new RegExp(`Alice Chen \\(${alice.open_id}\\)`));
    // The bot identity is unaffected by a wrong --user only when asked for explicitly.
    const bot = await s.larkit([
      "--user",
      "Nobody",
      "contact",
      "+get-user",
      "--as",
      "bot",
      "--user-id",
      bob.open_id,
    ]);
    assert.equal(bot.code, 0, bot.stderr);
  });
});

Deno.test("auth logout --user forgets that user only; the other keeps acting", async () => {
  await withProfile(async (s) => {
    assert.equal((await s.login(alice.open_id)).code, 0);
    assert.equal((await s.login(bob.open_id)).code, 0);
    const out = await s.larkit(["auth", "logout", "--user", bob.name]);
    assert.equal(out.code, 0, out.stderr);
    const data =
      out.json<{ data: { logged_out: { openId: string }[]; still_logged_in: { openId: string }[] } }>()
        .data;
    assert.deepEqual(data.logged_out.map((u) => u.openId), [bob.open_id]);
    assert.deepEqual(data.still_logged_in.map((u) => u.openId), [alice.open_id]);
    const store = secretStore(testProvider({ env: { LARKIT_CONFIG_DIR: s.dir } }));
    assert.equal(await readUserToken(store, s.emu.app.appId, bob.open_id), undefined);
    assert.equal(me(await s.larkit(["contact", "+get-user", "--as", "user"])), alice.open_id);
    const gone = await s.larkit(["--user", bob.open_id, "contact", "+get-user", "--as", "user"]);
    assert.equal(errorOf(gone).subtype, "auth");
  });
});

Deno.test("auth status (whoami): every user with token state and scope counts, --scopes the lists, auto and why", async () => {
  await withProfile(async (s) => {
    assert.equal((await s.login(alice.open_id)).code, 0);
    assert.equal((await s.login(bob.open_id, `${SCOPE} calendar:calendar.event:read`)).code, 0);
    const r = await s.larkit(["--user", alice.name, "auth", "whoami"]);
    assert.equal(r.code, 0, r.stderr);
    const data = r.json<{ data: Record<string, unknown> & { users: Record<string, unknown>[] } }>().data;
    assert.equal(data.profile, "default");
    assert.equal(data.appId, s.emu.app.appId);
    assert.deepEqual(data.bot, { available: true, appId: s.emu.app.appId, scope_count: null });
    assert.deepEqual(data.auto, {
      identity: "user",
      why: `${alice.name} (${alice.open_id}) is logged in with a live refresh token; auto prefers the user`,
    });
    assert.deepEqual(
      data.users.map((
        u,
      ) => [u.name, u.open_id, u.tenant_key, u.default, u.selected, u.token_status, u.scope_count]),
      [
        [bob.name, bob.open_id, fixtures.TENANT_KEY, true, false, "valid", 3],
        [alice.name, alice.open_id, fixtures.TENANT_KEY, false, true, "valid", 2],
      ],
    );
    assert.ok(data.users.every((u) => u.scopes === undefined && typeof u.expires_at === "string"));
    assert.deepEqual(data.user, { openId: alice.open_id, name: alice.name });

    const listed = (await s.larkit(["auth", "status", "--scopes"])).json<
      { data: { users: { scopes: string[] }[] } }
    >().data;
    assert.deepEqual(listed.users[1].scopes.sort(), [SCOPE, "offline_access"].sort());

    // Every login has expired (refresh tokens included): auto falls to the bot and says why.
    s.clock.advance(30 * 86_400_000);
    const expired =
      (await s.larkit(["auth", "status"])).json<{ data: { auto: { identity: string; why: string } } }>()
        .data;
    assert.equal(expired.auto.identity, "bot");
    assert.match(expired.auto.why, /login has expired/);
  });
});

Deno.test("auth list: one line per profile's bot and per logged-in user, as json or a table", async () => {
  await withProfile(async (s) => {
    assert.equal((await s.login(alice.open_id)).code, 0);
    assert.equal((await s.login(bob.open_id)).code, 0);
    const r = await s.larkit(["auth", "list"]);
    assert.equal(r.code, 0, r.stderr);
    const rows = r.json<{ data: Record<string, unknown>[]; meta: { count: number } }>();
    assert.equal(rows.meta.count, 3);
    assert.deepEqual(rows.data.map((x) => [x.profile, x.kind, x.openId, x.default, x.token]), [
      ["default", "bot", null, null, "app_secret"],
      ["default", "user", bob.open_id, true, "valid"],
      ["default", "user", alice.open_id, false, "valid"],
    ]);
    const table = await s.larkit(["auth", "list", "--format", "table"]);
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.trim().split("\n");
    for (const u of [alice, bob]) {
      assert.equal(lines.filter((l) => l.includes(u.name) && l.includes(u.open_id)).length, 1, table.stdout);
    }
  });
});

Deno.test("a profile logged in the single-user way keeps its user when a second person logs in", async () => {
  await withProfile(async (s) => {
    // The store as a login before several users left it: one user listed, one token under its open_id.
    await seedLogin(s.emu, s.dir);
    assert.equal((await s.login(bob.open_id)).code, 0);
    assert.equal(
      me(await s.larkit(["--user", alice.open_id, "contact", "+get-user", "--as", "user"])),
      alice.open_id,
    );
    assert.equal(me(await s.larkit(["contact", "+get-user", "--as", "user"])), bob.open_id);
  });
});
