import assert from "node:assert/strict";
import { errors, LarkitError } from "../output/errors.ts";
import { pollDeviceToken, requestDeviceAuthorization, withOfflineAccess } from "./device_flow.ts";
import type { Send } from "./oauth_token.ts";

const app = {
  endpoints: { open: "https://open.test", accounts: "https://accounts.test", mcp: "https://mcp.test/mcp" },
  appId: "cli_1",
  appSecret: "s3cret",
};

/** A token endpoint answering from a script; `null` stands for a lost answer. */
function scripted(answers: (Record<string, unknown> | null)[]) {
  const bodies: URLSearchParams[] = [];
  const send: Send = (_url, init) => {
    bodies.push(new URLSearchParams(String(init.body)));
    const next = answers.shift();
    if (next === undefined) throw new Error("polled more than scripted");
    if (next === null) return Promise.reject(errors.network("connection reset"));
    return Promise.resolve(Response.json(next, { status: "access_token" in next ? 200 : 400 }));
  };
  return { send, bodies };
}

function fakeClock(start = 1_000_000) {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    clock: {
      now: () => now,
      sleep: (ms: number) => {
        sleeps.push(ms);
        now += ms;
        return Promise.resolve();
      },
    },
  };
}

const deps = (send: Send, clock: ReturnType<typeof fakeClock>["clock"]) => ({
  send,
  clock,
  loginHint: "larkit auth login",
});

Deno.test("polling waits the interval, adds 5 s on slow_down and 1 s on a lost answer, then returns the grant", async () => {
  const { send, bodies } = scripted([
    { error: "authorization_pending" },
    { error: "slow_down" },
    null,
    { error: "authorization_pending" },
    { access_token: "u-1", refresh_token: "r-1", expires_in: 7200, scope: "a offline_access" },
  ]);
  const t = fakeClock();
  const grant = await pollDeviceToken(deps(send, t.clock), app, {
    deviceCode: "dc_1",
    interval: 5,
    expiresAt: t.clock.now() + 240_000,
  });
  assert.deepEqual(t.sleeps, [5000, 5000, 10000, 11000, 11000]);
  assert.equal(grant.accessToken, "u-1");
  assert.equal(bodies[0].get("grant_type"), "urn:ietf:params:oauth:grant-type:device_code");
  assert.equal(bodies[0].get("device_code"), "dc_1");
});

Deno.test("slow_down never pushes the interval past 60 s", async () => {
  const { send } = scripted(
    [...[...Array(12)].map((): Record<string, unknown> => ({ error: "slow_down" })), { access_token: "u" }],
  );
  const t = fakeClock();
  await pollDeviceToken(deps(send, t.clock), app, {
    deviceCode: "d",
    interval: 5,
    expiresAt: t.clock.now() + 3_600_000,
  });
  assert.equal(Math.max(...t.sleeps), 60_000);
});

for (
  const [error, message] of [
    ["access_denied", /denied/],
    ["expired_token", /expired/],
    ["invalid_grant", /no longer valid/],
    ["server_error", /login failed: server_error/],
  ] as const
) {
  Deno.test(`"${error}" ends the wait with an auth error`, async () => {
    const { send } = scripted([{ error, error_description: "x" }]);
    const t = fakeClock();
    await assert.rejects(
      pollDeviceToken(deps(send, t.clock), app, {
        deviceCode: "d",
        interval: 5,
        expiresAt: t.clock.now() + 60_000,
      }),
      (e) =>
        e instanceof LarkitError && e.subtype === "auth" && message.test(e.body.message) &&
        /larkit auth login/.test(String(e.hint)),
    );
  });
}

Deno.test("the local expiry stops polling without another request", async () => {
  const { send, bodies } = scripted([{ error: "authorization_pending" }, { error: "authorization_pending" }]);
  const t = fakeClock();
  await assert.rejects(
    pollDeviceToken(deps(send, t.clock), app, {
      deviceCode: "d",
      interval: 5,
      expiresAt: t.clock.now() + 12_000,
    }),
    (e) => e instanceof LarkitError && e.subtype === "auth" && /expired/.test(e.body.message),
  );
  assert.equal(bodies.length, 2);
});

Deno.test("device authorization sends basic auth and offline_access; an error answer is an auth error", async () => {
  let seen: RequestInit | undefined;
  const ok: Send = (_u, init) => {
    seen = init;
    return Promise.resolve(
      Response.json({ device_code: "dc", user_code: "AB-CD", verification_uri: "https://v" }),
    );
  };
  const auth = await requestDeviceAuthorization(ok, app, ["a"]);
  assert.deepEqual(auth, {
    deviceCode: "dc",
    userCode: "AB-CD",
    verificationUrl: "https://v",
    expiresIn: 240,
    interval: 5,
  });
  assert.equal(new URLSearchParams(String(seen?.body)).get("scope"), "a offline_access");
  assert.equal((seen?.headers as Record<string, string>).Authorization, `Basic ${btoa("cli_1:s3cret")}`);
  assert.deepEqual(withOfflineAccess(["offline_access"]), ["offline_access"]);

  const refused: Send = () =>
    Promise.resolve(
      Response.json({ error: "invalid_client", error_description: "bad client" }, { status: 401 }),
    );
  await assert.rejects(
    requestDeviceAuthorization(refused, app, ["a"]),
    (e) => e instanceof LarkitError && e.subtype === "auth",
  );
});
