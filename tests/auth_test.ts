/**
 * Identity, login and credentials end to end: larkit in-process against the suite emulator (two `main.ts`
 * processes where the point is two processes). Every test collects every stdout/stderr it saw and checks, at
 * the end, that no secret (app secret, any access or refresh token the emulator issued, the extension's
 * token) appears in any of them. Device logins share one manual clock between larkit and the emulator:
 * larkit's poll waits move it, and the person at the browser answers during a wait.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { secretStore } from "../cli/config/secret_store.ts";
import { readUserToken } from "../cli/auth/user_token.ts";
import { testProvider } from "../cli/test_provider.ts";
import { type Emulator, manualClock, startEmulator, tenantToken } from "./helpers/emulator.ts";
import { seedLogin as seedEmulatorLogin, type SeedLoginOptions } from "./helpers/login.ts";
import { errorOf, fakeTime, runCli, type RunOptions, type RunResult } from "./helpers/run_cli.ts";
import { runMain } from "./helpers/run_main.ts";

const ALICE = "ou_sandbox_user_0001";
const CAL_READ = "calendar:calendar.event:read";
const TOKEN_PATH = "/open-apis/authen/v2/oauth/token";
const TENANT_PATH = "/open-apis/auth/v3/tenant_access_token/internal";

interface Harness {
  emu: Emulator;
  dir: string;
  run(args: string[], opts?: RunOptions): Promise<RunResult>;
  /** `main.ts` as its own process, for what needs two processes. */
  spawn(args: string[], opts?: RunOptions): Promise<RunResult>;
  /** Extra secrets only the test knows (e.g. a token handed to an extension provider). */
  secrets: string[];
}

function issuedSecrets(emu: Emulator): string[] {
  const rows = (sql: string) => (emu.db.prepare(sql).all() as { token: string }[]).map((r) => r.token);
  return [
    emu.app.appSecret,
    ...rows("SELECT token FROM tokens"),
    ...rows("SELECT token FROM refresh_tokens"),
  ];
}

async function harness(
  fn: (h: Harness) => Promise<void>,
  opts: { clock?: ReturnType<typeof manualClock> } = {},
): Promise<void> {
  const emu = await startEmulator({ clock: opts.clock });
  const dir = await Deno.makeTempDir({ prefix: "larkit-auth-" });
  const outputs: string[] = [];
  const h: Harness = {
    emu,
    dir,
    secrets: [],
    async run(args, o = {}) {
      const r = await runCli(args, { configDir: dir, ...o });
      outputs.push(r.stdout, r.stderr);
      return r;
    },
    async spawn(args, o = {}) {
      const r = await runMain(args, { configDir: dir, ...o });
      outputs.push(r.stdout, r.stderr);
      return r;
    },
  };
  try {
    await fn(h);
    for (const secret of [...issuedSecrets(emu), ...h.secrets]) {
      for (const out of outputs) {
        assert.ok(!out.includes(secret), `a secret leaked into output: ${secret.slice(0, 4)}…`);
      }
    }
  } finally {
    await emu.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

async function configure(h: Harness, extra: string[] = []): Promise<void> {
  const r = await h.run(
    ["config", "init", "--app-id", h.emu.app.appId, "--app-secret-stdin", "--base-url", h.emu.url, ...extra],
    { stdin: `${h.emu.app.appSecret}\n` },
  );
  assert.equal(r.code, 0, r.stderr);
}

const count = (emu: Emulator, path: string) => emu.requests().filter((r) => r.path === path).length;

/** The person at the browser answers the device code larkit is polling for. */
function answerLogin(emu: Emulator, answer: "approve" | "deny"): void {
  const row = emu.db.prepare("SELECT device_code FROM device_codes WHERE status = 'pending'").get() as
    | { device_code: string }
    | undefined;
  assert.ok(row, "no device authorization is pending");
  if (answer === "approve") emu.approveDevice(row.device_code);
  else emu.denyDevice(row.device_code);
}

/** A logged-in profile without waiting for a browser, holding the calendar read scope. */
function seedLogin(h: Harness, opts: Omit<SeedLoginOptions, "scope"> = {}): Promise<void> {
  return seedEmulatorLogin(h.emu, h.dir, { scope: `${CAL_READ} offline_access`, ...opts });
}

Deno.test("bot token: minted once, cached on disk encrypted, reused by the next process", async () => {
  await harness(async (h) => {
    await configure(h);
    const first = await h.run(["auth", "status", "--verify", "--debug"]);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(first.json<{ data: { verified: string[] } }>().data.verified, ["bot"]);
    const second = await h.run(["auth", "status", "--verify"]);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(count(h.emu, TENANT_PATH), 1);

    const config = await Deno.readTextFile(join(h.dir, "config.json"));
    assert.ok(!config.includes(h.emu.app.appSecret));
    assert.equal((await Deno.stat(join(h.dir, "config.json"))).mode! & 0o777, 0o600);
    for await (const f of Deno.readDir(join(h.dir, "secrets"))) {
      const path = join(h.dir, "secrets", f.name);
      assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600, f.name);
      const bytes = new TextDecoder("latin1").decode(await Deno.readFile(path));
      for (const s of issuedSecrets(h.emu)) {
        assert.ok(!bytes.includes(s), `${f.name} holds a secret in clear`);
      }
    }
    const shown = await h.run(["config", "show"]);
    assert.equal(shown.json<{ data: { appSecret: string } }>().data.appSecret, "****");
  });
});

Deno.test("device login blocks until approved; status shows the user; logout leaves the bot", async () => {
  const clock = manualClock(Date.now());
  await harness(async (h) => {
    await configure(h);
    // Still pending at the first poll; the person approves during the second wait.
    const polled = () => h.emu.requests().filter((r) => r.path === TOKEN_PATH).map((r) => r.status);
    const r = await h.run(["auth", "login", "--scope", CAL_READ, "--json", "--debug"], {
      ...fakeTime(clock, { onSleep: (n) => n === 2 && answerLogin(h.emu, "approve") }),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(polled(), [400, 200]);
    assert.match(
      r.stderr,
      /Open this URL in your browser to authenticate:\n\s+http:\/\/127\.0\.0\.1:\d+\/emulator\/verify/,
    );
    const data = r.json<
      { identity: string; data: { user_open_id: string; granted: string[]; missing: string[] } }
    >();
    assert.equal(data.identity, "user");
    assert.equal(data.data.user_open_id, ALICE);
    assert.ok(data.data.granted.includes(CAL_READ));
    assert.deepEqual(data.data.missing, []);

    const status = (await h.run(["auth", "status"])).json<{ data: Record<string, unknown> }>().data;
    assert.equal(status.identity, "user");
    assert.deepEqual(status.identities, ["user", "bot"]);
    assert.equal(status.tokenStatus, "valid");
    assert.deepEqual(status.user, { openId: ALICE, name: "Alice Chen" });

    const out = await h.run(["auth", "logout"]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /OK: Logged out/);
    const after = (await h.run(["auth", "status"])).json<{ data: Record<string, unknown> }>().data;
    assert.deepEqual(after.identities, ["bot"]);
    assert.equal(after.identity, "bot");
    assert.equal(after.user, undefined);
    assert.match(String(after.note), /No user logged in/);
  }, { clock });
});

Deno.test("--no-wait prints the link and code at once; --device-code resumes in another run", async () => {
  const clock = manualClock(Date.now());
  await harness(async (h) => {
    await configure(h);
    const started = await h.run(["auth", "login", "--scope", CAL_READ, "--recommend", "--no-wait"]);
    assert.equal(started.code, 0, started.stderr);
    const asked = h.emu.requests().find((r) => r.path === "/oauth/v1/device_authorization")?.body as {
      scope: string;
    };
    assert.ok(asked.scope.split(" ").includes("im:chat:read"), asked.scope);
    assert.ok(asked.scope.endsWith(" offline_access"), asked.scope);
    const data = started.json<{ data: Record<string, unknown> }>().data;
    assert.deepEqual(Object.keys(data).sort(), ["device_code", "expires_in", "hint", "verification_url"]);
    assert.equal(data.expires_in, 240);
    assert.match(String(data.hint), new RegExp(`larkit auth login --device-code ${data.device_code}`));
    assert.equal(count(h.emu, TOKEN_PATH), 0);

    h.emu.approveDevice(String(data.device_code));
    const resumed = await h.run(
      ["auth", "login", "--device-code", String(data.device_code)],
      fakeTime(clock),
    );
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.json<{ data: { user_open_id: string } }>().data.user_open_id, ALICE);
    assert.equal(
      (await h.run(["auth", "status"])).json<{ data: { identity: string } }>().data.identity,
      "user",
    );
  }, { clock });
});

Deno.test("a denied login is an auth error whose hint is the login command", async () => {
  const clock = manualClock(Date.now());
  await harness(async (h) => {
    await configure(h);
    const r = await h.run(["auth", "login", "--scope", CAL_READ], {
      ...fakeTime(clock, { onSleep: (n) => n === 1 && answerLogin(h.emu, "deny") }),
    });
    assert.equal(r.code, 3);
    const err = errorOf(r);
    assert.deepEqual([err.type, err.subtype], ["authentication", "auth"]);
    assert.match(err.message, /denied/);
    assert.equal(err.hint, `to try again: larkit auth login --scope "${CAL_READ}"`);
  }, { clock });
});

Deno.test("a device code that expires on the server ends the wait with an auth error", async () => {
  const clock = manualClock(Date.now());
  await harness(async (h) => {
    await configure(h);
    const started = await h.run(["auth", "login", "--scope", CAL_READ, "--no-wait"]);
    const code = started.json<{ data: { device_code: string } }>().data.device_code;
    clock.advance(241_000);
    const r = await h.run(["auth", "login", "--device-code", code], fakeTime(clock));
    assert.equal(r.code, 3);
    assert.deepEqual([errorOf(r).type, errorOf(r).subtype], ["authentication", "auth"]);
    assert.match(errorOf(r).message, /expired/);
    assert.match(String(errorOf(r).hint), /larkit auth login --scope/);
  }, { clock });
});

Deno.test("an expired access token is refreshed transparently and stored", async () => {
  await harness(async (h) => {
    await configure(h);
    await seedLogin(h, { expiresAt: Date.now() - 1000 });
    h.emu.expireTokens("user");
    const r = await h.run(["auth", "status", "--verify", "--debug"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /\[debug\] → POST \/open-apis\/authen\/v2\/oauth\/token/);
    assert.deepEqual(r.json<{ data: { verified: string[] } }>().data.verified, ["user", "bot"]);
    assert.equal(count(h.emu, TOKEN_PATH), 2); // the seeding grant + one refresh
    const status = (await h.run(["auth", "status"])).json<{ data: { tokenStatus: string } }>().data;
    assert.equal(status.tokenStatus, "valid");
  });
});

Deno.test("two processes refreshing at once spend the refresh token only once", async () => {
  await harness(async (h) => {
    await configure(h);
    await seedLogin(h, { expiresAt: Date.now() - 1000 });
    h.emu.expireTokens("user");
    h.emu.clearRequests();
    // A slow token endpoint keeps the first refresher inside the lock while the second one arrives.
    h.emu.faults.delay({ path: TOKEN_PATH, ms: 1500 });
    const [a, b] = await Promise.all([
      h.spawn(["auth", "status", "--verify"]),
      h.spawn(["auth", "status", "--verify"]),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const refreshes = h.emu.requests().filter((r) => r.path === TOKEN_PATH);
    assert.equal(refreshes.length, 1);
    assert.equal(refreshes[0].status, 200);
    const used = h.emu.db.prepare("SELECT COUNT(*) AS n FROM refresh_tokens WHERE used_at IS NOT NULL")
      .get() as {
        n: number;
      };
    assert.equal(used.n, 1);
  });
});

Deno.test("a dead refresh token is an auth error naming the exact login command, and the token is dropped", async () => {
  await harness(async (h) => {
    await configure(h);
    await seedLogin(h, { expiresAt: Date.now() - 1000, refreshToken: "ur-not-issued" });
    const r = await h.run(["--profile", "default", "auth", "status", "--verify"]);
    assert.equal(r.code, 3);
    const err = errorOf(r);
    assert.deepEqual([err.type, err.subtype], ["authentication", "auth"]);
    assert.match(err.message, /refresh token was refused/);
    assert.equal(err.hint, `log in again: larkit --profile default auth login --scope "${CAL_READ}"`);
    const p = testProvider({ env: { LARKIT_CONFIG_DIR: h.dir } });
    assert.equal(await readUserToken(secretStore(p), h.emu.app.appId, ALICE), undefined);
    assert.deepEqual(
      (await h.run(["auth", "status"])).json<{ data: { identities: string[] } }>().data.identities,
      [
        "bot",
      ],
    );
  });
});

Deno.test("the environment provider wins over the config file; LARKSUITE_CLI_* is a fallback", async () => {
  await harness(async (h) => {
    await configure(h);
    const tat = await tenantToken(h.emu);
    h.secrets.push(tat);
    h.emu.clearRequests();
    const env = { LARKIT_BASE_URL: h.emu.url, LARKIT_TENANT_ACCESS_TOKEN: tat, LARKIT_STRICT_MODE: "bot" };
    const r = await h.run(["auth", "status", "--verify"], { env });
    assert.equal(r.code, 0, r.stderr);
    const data = r.json<{ data: Record<string, unknown> }>().data;
    assert.equal(data.source, "env");
    assert.equal(data.strictMode, "bot");
    assert.deepEqual(data.verified, ["bot"]);
    assert.equal(count(h.emu, TENANT_PATH), 0);

    const legacy = await h.run(["auth", "status"], {
      env: {
        LARKSUITE_CLI_APP_ID: "cli_legacy",
        LARKSUITE_CLI_APP_SECRET: "legacy-secret",
        LARKSUITE_CLI_BRAND: "lark",
      },
    });
    h.secrets.push("legacy-secret");
    const legacyData = legacy.json<{ data: Record<string, unknown> }>().data;
    assert.equal(legacyData.source, "env");
    assert.equal(legacyData.appId, "cli_legacy");
    assert.equal(legacyData.brand, "lark");

    const partial = await h.run(["auth", "status"], { env: { LARKIT_APP_SECRET: "x-secret" } });
    assert.equal(partial.code, 3);
    assert.equal(errorOf(partial).type, "config");
    assert.match(errorOf(partial).message, /LARKIT_APP_ID is missing/);
  });
});

/** A provider program (docs/credential-providers.md): one JSON request on stdin, one JSON answer on stdout. */
const EXTENSION = `#!/bin/sh
req=$(cat)
case "$req" in
  *'"account"'*)
    if [ "$VAULT_MODE" = locked ]; then echo "the vault is locked" >&2; exit 1; fi
    if [ "$VAULT_MODE" = absent ]; then printf '{"version":1,"account":null}'; exit 0; fi
    printf '{"version":1,"account":{"name":"vault","appId":"cli_vault","brand":"custom","baseUrl":"%s",' "$VAULT_BASE"
    printf '"identities":["bot"],"scopes":{"bot":["im:chat:read"]}}}' ;;
  *'"token"'*) printf '{"version":1,"token":"%s","expiresAt":9999999999999}' "$VAULT_TOKEN" ;;
esac
`;

Deno.test("an extension provider from the config answers, passes, or stops the chain with its error", async () => {
  await harness(async (h) => {
    await configure(h);
    const module = join(h.dir, "vault");
    await Deno.writeTextFile(module, EXTENSION, { mode: 0o755 });
    assert.equal((await h.run(["config", "set", "credential-providers", module])).code, 0);
    const tat = await tenantToken(h.emu);
    h.secrets.push(tat);
    const env = { VAULT_BASE: h.emu.url, VAULT_TOKEN: tat };
    // The program reads these from the environment it inherits, which is the process's: so these runs are
    // processes started with that environment.

    const used = await h.spawn(["auth", "status", "--verify"], { env });
    assert.equal(used.code, 0, used.stderr);
    const data = used.json<{ data: Record<string, unknown> }>().data;
    assert.equal(data.source, "extension:vault");
    assert.equal(data.appId, "cli_vault");
    assert.deepEqual(data.verified, ["bot"]);
    const scopes = await h.spawn(
      ["auth", "check", "--as", "bot", "--scope", "im:chat:read calendar:calendar"],
      { env },
    );
    assert.equal(scopes.code, 1);
    assert.deepEqual(scopes.json<{ data: { missing: string[] } }>().data.missing, ["calendar:calendar"]);

    const passed = await h.spawn(["auth", "status"], { env: { ...env, VAULT_MODE: "absent" } });
    assert.equal(passed.json<{ data: { source: string } }>().data.source, "config");

    const locked = await h.spawn(["auth", "status"], { env: { ...env, VAULT_MODE: "locked" } });
    assert.equal(locked.code, 3);
    const err = errorOf(locked);
    assert.deepEqual([err.type, err.subtype], ["authentication", "auth"]);
    assert.equal(err.message, 'credential provider "vault" failed (account): the vault is locked');
    assert.match(String(err.hint), /credential-providers/);
  });
});

Deno.test("strict mode bot prunes auth login from help and refuses it; off brings it back", async () => {
  await harness(async (h) => {
    await configure(h);
    assert.match((await h.run(["auth", "--help"])).stdout, /^ {2}login\b/m);
    assert.equal((await h.run(["config", "strict-mode", "bot"])).code, 0);
    const shown = await h.run(["config", "strict-mode"]);
    assert.deepEqual(shown.json<{ data: unknown }>().data, {
      strictMode: "bot",
      source: 'profile "default"',
    });

    const help = await h.run(["auth", "--help"]);
    assert.equal(help.code, 0);
    assert.doesNotMatch(help.stdout, /^ {2}login\b/m);
    assert.match(help.stdout, /^ {2}status\b/m);
    const refused = await h.run(["auth", "login", "--scope", CAL_READ]);
    assert.equal(refused.code, 6);
    assert.deepEqual([errorOf(refused).type, errorOf(refused).subtype], ["policy", "strict_mode"]);
    assert.equal(count(h.emu, "/oauth/v1/device_authorization"), 0);

    assert.equal((await h.run(["config", "strict-mode", "off"])).code, 0);
    assert.match((await h.run(["auth", "--help"])).stdout, /^ {2}login\b/m);
  });
});

Deno.test("auth check compares scopes locally: bot scopes from config, zero requests", async () => {
  await harness(async (h) => {
    await configure(h);
    h.emu.clearRequests();
    const unknown = await h.run(["auth", "check", "--as", "bot", "--scope", CAL_READ]);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.json<{ data: { error: string } }>().data.error, "scopes_unknown");
    assert.equal((await h.run(["config", "set", "bot-scopes", `${CAL_READ} im:chat:read`])).code, 0);
    const ok = await h.run(["auth", "check", "--as", "bot", "--scope", CAL_READ]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.json<{ data: { ok: boolean } }>().data.ok, true);
    const missing = await h.run(["auth", "check", "--scope", CAL_READ]);
    assert.equal(missing.code, 1);
    assert.deepEqual(missing.json<{ data: unknown }>().data, {
      ok: false,
      identity: "user",
      granted: [],
      missing: [CAL_READ],
      error: "not_logged_in",
      suggestion: `larkit auth login --scope "${CAL_READ}"`,
    });
    assert.deepEqual(h.emu.requests(), []);
  });
});

Deno.test("profiles: add, select per command, use, rename, remove with its secret", async () => {
  await harness(async (h) => {
    await configure(h);
    const add = await h.run(
      ["profile", "add", "--name", "work", "--app-id", "cli_work", "--app-secret-stdin", "--brand", "lark"],
      { stdin: "work-secret\n" },
    );
    h.secrets.push("work-secret");
    assert.equal(add.code, 0, add.stderr);
    const list =
      (await h.run(["profile", "list"])).json<{ data: { name: string; active: boolean }[] }>().data;
    assert.deepEqual(list.map((p) => [p.name, p.active]), [["default", true], ["work", false]]);

    const picked = await h.run(["--profile", "work", "config", "show"]);
    assert.equal(picked.json<{ data: { appId: string } }>().data.appId, "cli_work");
    const byEnv = await h.run(["config", "show"], { env: { LARKIT_PROFILE: "work" } });
    assert.equal(byEnv.json<{ data: { brand: string } }>().data.brand, "lark");
    const missing = await h.run(["--profile", "nope", "config", "show"]);
    assert.equal(errorOf(missing).type, "config");
    assert.equal(errorOf(missing).hint, "available profiles: default, work");

    assert.equal((await h.run(["profile", "use", "work"])).code, 0);
    assert.equal(
      (await h.run(["config", "show"])).json<{ data: { profile: string } }>().data.profile,
      "work",
    );
    assert.equal((await h.run(["profile", "use", "-"])).code, 0);
    assert.equal(
      (await h.run(["config", "show"])).json<{ data: { profile: string } }>().data.profile,
      "default",
    );
    assert.equal((await h.run(["profile", "rename", "work", "office"])).code, 0);
    const before = [...Deno.readDirSync(join(h.dir, "secrets"))].length;
    assert.equal((await h.run(["profile", "remove", "office"])).code, 0);
    assert.equal([...Deno.readDirSync(join(h.dir, "secrets"))].length, before - 1);
    const bad = await h.run(["profile", "add", "--name", "a b", "--app-id", "x", "--app-secret-stdin"], {
      stdin: "s\n",
    });
    assert.equal(errorOf(bad).type, "validation");
  });
});

Deno.test("config: default-as steers status, set validates keys, remove forgets everything", async () => {
  await harness(async (h) => {
    await configure(h);
    assert.deepEqual((await h.run(["config", "default-as"])).json<{ data: unknown }>().data, {
      defaultAs: "auto",
    });
    assert.equal((await h.run(["config", "default-as", "user"])).code, 0);
    const status = (await h.run(["auth", "status"])).json<{ data: Record<string, unknown> }>().data;
    assert.deepEqual([status.defaultAs, status.identity], ["user", "user"]);
    const bad = await h.run(["config", "default-as", "robot"]);
    assert.equal(errorOf(bad).type, "validation");
    assert.equal(errorOf(await h.run(["config", "set", "colour", "x"])).type, "validation");
    assert.equal(
      errorOf(await h.run(["config", "set", "base-url", "http://example.com"])).type,
      "validation",
    );
    const noSecretFlag = await h.run(["config", "init", "--app-id", "cli_x", "--app-secret", "oops"]);
    assert.deepEqual([errorOf(noSecretFlag).type, errorOf(noSecretFlag).subtype], ["validation", "usage"]);

    // Everything goes at once: without --yes (and no terminal to ask) nothing is removed.
    const unconfirmed = await h.run(["config", "remove"]);
    assert.deepEqual([errorOf(unconfirmed).type, errorOf(unconfirmed).subtype], [
      "confirmation",
      "confirmation_required",
    ]);
    assert.match(String(errorOf(unconfirmed).hint), /--yes/);
    assert.equal((await h.run(["auth", "status"])).code, 0);
    const removed = await h.run(["config", "remove", "--yes"]);
    assert.equal(removed.code, 0, removed.stderr);
    const after = await h.run(["auth", "status"]);
    assert.equal(after.code, 3);
    assert.deepEqual(errorOf(after), {
      type: "config",
      subtype: "config",
      message: "not configured",
      retryable: false,
      hint: "run larkit config init --app-id <id> --app-secret-stdin",
    });
    assert.deepEqual([...Deno.readDirSync(h.dir)].filter((e) => e.name === "secrets"), []);
  });
});
