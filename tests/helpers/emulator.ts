/**
 * One suite emulator per test file (or per test) on a free loopback port, always torn down. Tests that drive
 * larkit point it at `emu.url` with the custom brand and the seeded app's credentials (`emu.app`).
 */
import { CALENDARS } from "../../sandbox/fixtures.ts";
import { type Emulator, type EmulatorOptions, startEmulator } from "../../sandbox/server.ts";

export type { Emulator, EmulatorOptions } from "../../sandbox/server.ts";
export { startEmulator } from "../../sandbox/server.ts";
export * as fixtures from "../../sandbox/fixtures.ts";

export async function withEmulator<T>(
  opts: EmulatorOptions,
  fn: (emu: Emulator) => Promise<T>,
): Promise<T> {
  const emu = await startEmulator(opts);
  try {
    return await fn(emu);
  } finally {
    await emu.stop();
  }
}

/** A settable clock for emulators under test: `advance` moves time without sleeping. */
export function manualClock(start = Date.UTC(2026, 10, 23, 8, 0, 0)) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
    set(ms: number) {
      now = ms;
    },
  };
}

/** The generated `calendar events list` of the bot's seeded calendar: the plain read many API tests run. */
export const BOT_EVENTS_LIST = [
  "calendar",
  "events",
  "list",
  "--params",
  JSON.stringify({ calendar_id: CALENDARS.bot }),
];

/** Env for running larkit against this emulator as the seeded app (custom brand, loopback base URL). */
export { sandboxEnv as emulatorEnv } from "../../sandbox/larkit_env.ts";

/** Raw HTTP helpers for emulator tests: a tenant token for the seeded app. */
export async function tenantToken(emu: Emulator): Promise<string> {
  const res = await fetch(`${emu.url}/open-apis/auth/v3/tenant_access_token/internal`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ app_id: emu.app.appId, app_secret: emu.app.appSecret }),
  });
  const body = await res.json() as { tenant_access_token: string };
  return body.tenant_access_token;
}

/** A user token for `userOpenId` (the seeded default user when absent), through the real device flow. */
export async function userToken(
  emu: Emulator,
  opts: { userOpenId?: string; scope?: string } = {},
): Promise<{ access_token: string; refresh_token?: string; scope: string }> {
  const basic = new TextEncoder().encode(`${emu.app.appId}:${emu.app.appSecret}`).toBase64();
  const auth = await fetch(`${emu.url}/oauth/v1/device_authorization`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` },
    body: new URLSearchParams({ client_id: emu.app.appId, scope: opts.scope ?? defaultUserScope(emu) }),
  });
  const { device_code } = await auth.json() as { device_code: string };
  emu.approveDevice(device_code, { userOpenId: opts.userOpenId });
  const res = await fetch(`${emu.url}/open-apis/authen/v2/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      device_code,
      client_id: emu.app.appId,
      client_secret: emu.app.appSecret,
    }),
  });
  return await res.json() as { access_token: string; refresh_token?: string; scope: string };
}

function defaultUserScope(emu: Emulator): string {
  const rows = emu.db.prepare("SELECT scope FROM app_scopes WHERE kind = 'user'").all() as {
    scope: string;
  }[];
  return rows.map((r) => r.scope).join(" ");
}
