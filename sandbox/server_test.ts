import assert from "node:assert/strict";
import { startEmulator } from "./server.ts";
import { manualClock, tenantToken, userToken } from "../tests/helpers/emulator.ts";
import { call } from "./test_http.ts";
import { READ_CALENDAR } from "./scopes.ts";

Deno.test("a seeded in-memory emulator starts fast and stops cleanly", async () => {
  const t0 = performance.now();
  const emu = await startEmulator();
  const elapsed = performance.now() - t0;
  try {
    assert.ok(emu.url.startsWith("http://127.0.0.1:"));
    assert.ok(elapsed < 1000, `start-up took ${elapsed.toFixed(0)} ms`);
  } finally {
    await emu.stop();
  }
});

Deno.test("tenant_access_token/internal: {code:0, msg, tenant_access_token, expire} and credential errors", async () => {
  const emu = await startEmulator({ seed: false });
  try {
    const good = await call(emu.url, "POST", "/open-apis/auth/v3/tenant_access_token/internal", {
      body: { app_id: emu.app.appId, app_secret: emu.app.appSecret },
    });
    const body = good.body as unknown as { code: number; tenant_access_token: string; expire: number };
    assert.deepEqual(body.code, 0);
    assert.ok(body.tenant_access_token.startsWith("t-"));
    assert.deepEqual(body.expire, 7200);
    assert.ok(good.headers.get("x-tt-logid"));

    const app = await call(emu.url, "POST", "/open-apis/auth/v3/app_access_token/internal", {
      body: { app_id: emu.app.appId, app_secret: emu.app.appSecret },
    });
    assert.ok((app.body as unknown as { app_access_token: string }).app_access_token.startsWith("t-"));

    const bad = await call(emu.url, "POST", "/open-apis/auth/v3/tenant_access_token/internal", {
      body: { app_id: emu.app.appId, app_secret: "wrong" },
    });
    assert.deepEqual(bad.body.code, 10014);
  } finally {
    await emu.stop();
  }
});

Deno.test("bearer validation: missing 99991661, invalid 99991663/99991668, expired user 99991677", async () => {
  const clock = manualClock();
  const emu = await startEmulator({ clock });
  try {
    const path = "/open-apis/calendar/v4/calendars";
    assert.deepEqual((await call(emu.url, "GET", path)).body.code, 99991661);
    assert.deepEqual((await call(emu.url, "GET", path, { token: "t-nope" })).body.code, 99991663);
    assert.deepEqual((await call(emu.url, "GET", path, { token: "u-nope" })).body.code, 99991668);

    const user = await userToken(emu);
    assert.deepEqual((await call(emu.url, "GET", path, { token: user.access_token })).body.code, 0);
    const tenant = await tenantToken(emu);
    clock.advance(7200 * 1000);
    const expiredUser = await call(emu.url, "GET", path, { token: user.access_token });
    assert.deepEqual(expiredUser.body.code, 99991677);
    assert.deepEqual(expiredUser.status, 400);
    assert.deepEqual((await call(emu.url, "GET", path, { token: tenant })).body.code, 99991663);
  } finally {
    await emu.stop();
  }
});

Deno.test("expireTokens makes issued tokens fail at once", async () => {
  const emu = await startEmulator();
  try {
    const tenant = await tenantToken(emu);
    emu.expireTokens("tenant");
    assert.deepEqual(
      (await call(emu.url, "GET", "/open-apis/calendar/v4/calendars", { token: tenant })).body.code,
      99991663,
    );
  } finally {
    await emu.stop();
  }
});

Deno.test("missing scope: 99991672 for tenant, 99991679 for user, with error.permission_violations and log_id", async () => {
  const emu = await startEmulator();
  try {
    const tenant = await tenantToken(emu);
    const user = await userToken(emu);
    emu.revokeScopes("tenant", READ_CALENDAR);
    emu.revokeScopes("user", READ_CALENDAR);
    const path = "/open-apis/calendar/v4/calendars";
    const t = await call(emu.url, "GET", path, { token: tenant });
    assert.deepEqual(t.body.code, 99991672);
    assert.deepEqual(t.body.error?.permission_violations?.map((v) => v.subject), READ_CALENDAR);
    assert.deepEqual(t.body.error?.log_id, t.headers.get("x-tt-logid"));
    const u = await call(emu.url, "GET", path, { token: user.access_token });
    assert.deepEqual(u.body.code, 99991679);
    assert.deepEqual(u.body.error?.permission_violations?.[0].subject, READ_CALENDAR[0]);

    emu.grantScopes("user", [READ_CALENDAR[1]]);
    assert.deepEqual((await call(emu.url, "GET", path, { token: user.access_token })).body.code, 0);
  } finally {
    await emu.stop();
  }
});

Deno.test("unknown /open-apis/ path: 404 in the suite's {code, msg} shape", async () => {
  const emu = await startEmulator({ seed: false });
  try {
    const r = await call(emu.url, "GET", "/open-apis/nothing/v1/here");
    assert.deepEqual(r.status, 404);
    assert.deepEqual(r.body.code, 404);
    assert.ok(r.body.msg.includes("/open-apis/nothing/v1/here"));
  } finally {
    await emu.stop();
  }
});

Deno.test("request log: every request with method, path, query, redacted auth, body and status", async () => {
  const emu = await startEmulator();
  try {
    const tenant = await tenantToken(emu);
    await call(emu.url, "GET", "/open-apis/im/v1/chats?page_size=2", { token: tenant });
    const log = emu.requests();
    assert.deepEqual(log.length, 2);
    assert.deepEqual((log[0].body as Record<string, unknown>).app_secret, "<redacted>");
    assert.deepEqual(log[1].method, "GET");
    assert.deepEqual(log[1].path, "/open-apis/im/v1/chats");
    assert.deepEqual(log[1].query, { page_size: "2" });
    assert.deepEqual(log[1].headers.authorization, "Bearer <redacted>");
    assert.deepEqual(log[1].status, 200);
    emu.clearRequests();
    assert.deepEqual(emu.requests().length, 0);
  } finally {
    await emu.stop();
  }
});

Deno.test("--data keeps state across restarts", async () => {
  const dir = await Deno.makeTempDir({ prefix: "larkit-sandbox-" });
  try {
    const first = await startEmulator({ dataDir: dir });
    const tenant = await tenantToken(first);
    await first.stop();
    const second = await startEmulator({ dataDir: dir });
    try {
      const r = await call(second.url, "GET", "/open-apis/im/v1/chats", { token: tenant });
      assert.deepEqual(r.body.code, 0);
    } finally {
      await second.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
