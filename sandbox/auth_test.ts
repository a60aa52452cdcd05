import assert from "node:assert/strict";
import { startEmulator } from "./server.ts";
import { manualClock } from "../tests/helpers/emulator.ts";
import { call, form } from "./test_http.ts";
import { USERS } from "./fixtures.ts";

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

async function setup() {
  const clock = manualClock();
  const emu = await startEmulator({ clock });
  const basic = new TextEncoder().encode(`${emu.app.appId}:${emu.app.appSecret}`).toBase64();
  const authorize = (scope: string) =>
    form(emu.url, "/oauth/v1/device_authorization", { client_id: emu.app.appId, scope }, {
      authorization: `Basic ${basic}`,
    });
  const poll = (device_code: string) =>
    form(emu.url, "/open-apis/authen/v2/oauth/token", {
      grant_type: DEVICE_GRANT,
      device_code,
      client_id: emu.app.appId,
      client_secret: emu.app.appSecret,
    });
  /** A device flow for `scope` approved at once: the token endpoint's first answer. */
  const approved = async (scope: string) => {
    const { device_code } = (await authorize(scope)).body as { device_code: string };
    emu.approveDevice(device_code);
    return await poll(device_code);
  };
  return { clock, emu, authorize, poll, approved };
}

Deno.test("device_authorization answers device_code, user_code, verification_uri(_complete), expires_in, interval", async () => {
  const { emu, authorize } = await setup();
  try {
    const r = await authorize("calendar:calendar:readonly offline_access");
    assert.equal(r.status, 200);
    const b = r.body as Record<string, string | number>;
    assert.match(String(b.user_code), /^[A-Z]{4}-[A-Z]{4}$/);
    assert.equal(b.verification_uri, `${emu.url}/emulator/verify`);
    assert.equal(b.verification_uri_complete, `${emu.url}/emulator/verify?user_code=${b.user_code}`);
    assert.equal(b.expires_in, 240);
    assert.equal(b.interval, 5);
    const page = await fetch(String(b.verification_uri_complete));
    assert.match(await page.text(), /emulator only/);
  } finally {
    await emu.stop();
  }
});

Deno.test("device flow polling: authorization_pending, slow_down, then approved tokens", async () => {
  const { clock, emu, authorize, poll } = await setup();
  try {
    const { device_code } = (await authorize("calendar:calendar:readonly offline_access")).body as {
      device_code: string;
    };
    const pending = await poll(device_code);
    assert.equal(pending.status, 400);
    assert.equal(pending.body.error, "authorization_pending");
    assert.ok(pending.body.error_description);
    clock.advance(1000);
    assert.equal((await poll(device_code)).body.error, "slow_down");
    clock.advance(10_000);
    assert.equal((await poll(device_code)).body.error, "authorization_pending");

    emu.approveDevice(device_code);
    clock.advance(10_000);
    const done = await poll(device_code);
    assert.equal(done.status, 200);
    assert.ok(String(done.body.access_token).startsWith("u-"));
    assert.ok(String(done.body.refresh_token).startsWith("ur-"));
    assert.equal(done.body.expires_in, 7200);
    assert.equal(done.body.refresh_token_expires_in, 604800);
    assert.equal(done.body.scope, "calendar:calendar:readonly offline_access");
    assert.equal(done.body.token_type, "Bearer");

    const info = await call(emu.url, "GET", "/open-apis/authen/v1/user_info", {
      token: String(done.body.access_token),
    });
    assert.equal(info.body.data?.open_id, USERS.alice.open_id);
    assert.equal(info.body.data?.name, USERS.alice.name);
    assert.equal((await poll(device_code)).body.error, "invalid_grant");
  } finally {
    await emu.stop();
  }
});

Deno.test("device flow: denied → access_denied; late → expired_token; HTTP approve endpoint works", async () => {
  const { clock, emu, authorize, poll } = await setup();
  try {
    const denied = (await authorize("im:message")).body as { device_code: string; user_code: string };
    emu.denyDevice(denied.user_code);
    assert.equal((await poll(denied.device_code)).body.error, "access_denied");

    const late = (await authorize("im:message")).body as { device_code: string };
    clock.advance(241_000);
    assert.equal((await poll(late.device_code)).body.error, "expired_token");

    const viaHttp = (await authorize("im:message offline_access")).body as {
      device_code: string;
      user_code: string;
    };
    const approve = await fetch(`${emu.url}/emulator/device/approve`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_code: viaHttp.user_code, open_id: USERS.bob.open_id }),
    });
    assert.deepEqual(await approve.json(), { ok: true });
    const tokens = await poll(viaHttp.device_code);
    const info = await call(emu.url, "GET", "/open-apis/authen/v1/user_info", {
      token: String(tokens.body.access_token),
    });
    assert.equal(info.body.data?.open_id, USERS.bob.open_id);
  } finally {
    await emu.stop();
  }
});

Deno.test("device flow grants only scopes the app enabled; no offline_access means no refresh_token", async () => {
  const { emu, approved } = await setup();
  try {
    const done = await approved("calendar:calendar:readonly not:a:scope");
    assert.equal(done.body.scope, "calendar:calendar:readonly");
    assert.equal(done.body.refresh_token, undefined);
  } finally {
    await emu.stop();
  }
});

Deno.test("refresh_token grant rotates: the new pair works, the spent refresh token answers 20073", async () => {
  const { emu, approved } = await setup();
  try {
    const first = (await approved("calendar:calendar:readonly offline_access")).body as {
      refresh_token: string;
    };
    const refresh = (refresh_token: string) =>
      form(emu.url, "/open-apis/authen/v2/oauth/token", {
        grant_type: "refresh_token",
        refresh_token,
        client_id: emu.app.appId,
        client_secret: emu.app.appSecret,
      });
    const second = await refresh(first.refresh_token);
    assert.equal(second.status, 200);
    assert.notEqual(second.body.refresh_token, first.refresh_token);
    assert.equal(second.body.scope, "calendar:calendar:readonly offline_access");
    const again = await refresh(first.refresh_token);
    assert.equal(again.status, 400);
    assert.equal(again.body.code, 20073);
    assert.equal(again.body.error, "invalid_grant");
    assert.equal((await refresh("ur-unknown")).body.code, 20026);
  } finally {
    await emu.stop();
  }
});

Deno.test("device authorization with a wrong secret is invalid_client", async () => {
  const { emu } = await setup();
  try {
    const basic = new TextEncoder().encode(`${emu.app.appId}:nope`).toBase64();
    const r = await form(emu.url, "/oauth/v1/device_authorization", { client_id: emu.app.appId, scope: "" }, {
      authorization: `Basic ${basic}`,
    });
    assert.equal(r.status, 401);
    assert.equal(r.body.error, "invalid_client");
  } finally {
    await emu.stop();
  }
});
