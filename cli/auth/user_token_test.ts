import assert from "node:assert/strict";
import { secretStore } from "../config/secret_store.ts";
import { LarkitError } from "../output/errors.ts";
import { testProvider } from "../test_provider.ts";
import type { Send } from "./oauth_token.ts";
import {
  readUserToken,
  tokenFromGrant,
  tokenStatus,
  type UserToken,
  type UserTokenDeps,
  validUserToken,
  writeUserToken,
} from "./user_token.ts";

const NOW = 1_700_000_000_000;
const endpoints = {
  open: "https://open.test",
  accounts: "https://accounts.test",
  mcp: "https://mcp.test/mcp",
};

function stored(over: Partial<UserToken> = {}): UserToken {
  return {
    userOpenId: "ou_1",
    appId: "cli_1",
    accessToken: "u-old",
    refreshToken: "r-old",
    expiresAt: NOW - 1,
    refreshExpiresAt: NOW + 86_400_000,
    scope: "a:b offline_access",
    grantedAt: NOW - 3_600_000,
    ...over,
  };
}

function setup(send: Send) {
  const p = testProvider({ now: () => NOW });
  const store = secretStore(p);
  const deps: UserTokenDeps = {
    p,
    store,
    send,
    endpoints,
    appId: "cli_1",
    appSecret: () => Promise.resolve("s3cret"),
    loginCommand: (s) => `larkit auth login --scope "${s.join(" ")}"`,
  };
  return { p, store, deps };
}

Deno.test("status: valid until 5 minutes before expiry, then refreshable while the refresh token lives", () => {
  assert.equal(tokenStatus(stored({ expiresAt: NOW + 301_000 }), NOW), "valid");
  assert.equal(tokenStatus(stored({ expiresAt: NOW + 299_000 }), NOW), "needs_refresh");
  assert.equal(tokenStatus(stored({ refreshExpiresAt: NOW }), NOW), "expired");
  assert.equal(tokenStatus(stored({ refreshToken: undefined }), NOW), "expired");
});

Deno.test("a refresh grant keeps what it leaves out from the previous token", () => {
  const prev = stored();
  const next = tokenFromGrant({ accessToken: "u-new", expiresIn: 7200 }, {
    appId: "cli_1",
    openId: "ou_1",
    now: NOW,
    previous: prev,
  });
  assert.equal(next.refreshToken, "r-old");
  assert.equal(next.scope, prev.scope);
  assert.equal(next.refreshExpiresAt, prev.refreshExpiresAt);
  assert.equal(next.expiresAt, NOW + 7_200_000);
});

Deno.test("concurrent callers refresh once: the second re-reads what the first stored", async () => {
  let refreshes = 0;
  const { store, deps } = setup(async (_u, init) => {
    refreshes++;
    assert.equal(new URLSearchParams(String(init.body)).get("refresh_token"), "r-old");
    await new Promise((r) => setTimeout(r, 30));
    return Response.json({ code: 0, access_token: "u-new", refresh_token: "r-new", expires_in: 7200 });
  });
  await writeUserToken(store, stored());
  const [a, b] = await Promise.all([validUserToken(deps, "ou_1"), validUserToken(deps, "ou_1")]);
  assert.equal(refreshes, 1);
  assert.equal(a.accessToken, "u-new");
  assert.equal(b.accessToken, "u-new");
  assert.equal((await readUserToken(store, "cli_1", "ou_1"))?.refreshToken, "r-new");
});

Deno.test("a refused refresh deletes the token and names the login command", async () => {
  const { store, deps } = setup(() =>
    Promise.resolve(
      Response.json({ code: 20073, error: "invalid_grant", error_description: "used" }, { status: 400 }),
    )
  );
  await writeUserToken(store, stored());
  await assert.rejects(validUserToken(deps, "ou_1"), (e) => {
    assert.ok(e instanceof LarkitError);
    assert.deepEqual([e.type, e.subtype], ["authentication", "auth"]);
    assert.equal(e.hint, 'log in again: larkit auth login --scope "a:b"');
    return true;
  });
  assert.equal(await readUserToken(store, "cli_1", "ou_1"), undefined);
});

Deno.test("a lost refresh answer keeps the token for the next try", async () => {
  const { store, deps } = setup(() => Promise.reject(new TypeError("connection reset")));
  await writeUserToken(store, stored());
  await assert.rejects(validUserToken(deps, "ou_1"));
  assert.equal((await readUserToken(store, "cli_1", "ou_1"))?.refreshToken, "r-old");
});
