import assert from "node:assert/strict";
import { clockSkewCheck, SKEW_FAIL_MS, userTokenCheck } from "./checks.ts";

Deno.test("clock skew: pass within noise, warn past 30 s, fail past 5 minutes, either direction", () => {
  const server = Date.UTC(2026, 10, 23, 12, 0, 0);
  const date = new Date(server).toUTCString();
  assert.equal(clockSkewCheck(server + 1500, date).status, "pass");
  assert.equal(clockSkewCheck(server - 45_000, date).status, "warn");
  assert.equal(clockSkewCheck(server + SKEW_FAIL_MS, date).status, "fail");
  assert.match(clockSkewCheck(server - SKEW_FAIL_MS, date).message, /behind/);
  assert.equal(clockSkewCheck(server, null).status, "warn");
});

Deno.test("user token: expired refresh fails with the login hint, expired access passes (refreshable)", () => {
  const now = Date.UTC(2026, 10, 23);
  const iso = (ms: number) => new Date(ms).toISOString();
  const dead = userTokenCheck(now, {
    tokenStatus: "expired",
    refreshExpiresAt: iso(now - 1),
    grantedAt: iso(now - 8 * 86_400_000),
  }, "larkit auth login");
  assert.equal(dead.status, "fail");
  assert.equal(dead.hint, "log in again: larkit auth login");
  assert.match(dead.message, /granted 8 day\(s\) ago/);
  assert.equal(
    userTokenCheck(now, { tokenStatus: "needs_refresh", refreshExpiresAt: iso(now + 5 * 86_400_000) }, "x")
      .status,
    "pass",
  );
  assert.equal(
    userTokenCheck(now, {
      tokenStatus: "valid",
      expiresAt: iso(now + 3600_000),
      refreshExpiresAt: iso(now + 3600_000),
    }, "x").status,
    "warn",
  );
});
