/**
 * Credentials as the suite issues and checks them: tenant tokens from app id + secret, user tokens through the
 * OAuth device flow (RFC 8628) and refresh-token rotation, bearer validation and per-route scope checks with
 * the suite's error codes. Everything is dated by the injected clock, so tests move time instead of sleeping.
 */
import { all, one, run, tx } from "./db.ts";
import { fail, type Reply } from "./reply.ts";
import type { EmulatorState } from "./state.ts";

export type TokenKind = "tenant" | "user";

export interface Caller {
  kind: TokenKind;
  appId: string;
  /** The user, or the app's bot for tenant tokens. */
  openId: string;
  scopes: Set<string>;
  token: string;
}

export const ACCESS_TOKEN_TTL_S = 7200;
export const REFRESH_TOKEN_TTL_S = 604800;
export const DEVICE_CODE_TTL_S = 240;
export const DEVICE_POLL_INTERVAL_S = 5;
/** RFC 8628 §3.5: each slow_down adds five seconds to the interval the client must keep. */
const SLOW_DOWN_STEP_S = 5;

function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}

export function appSecretMatches(
  st: EmulatorState,
  appId: string,
  secret: string,
): "ok" | "unknown_app" | "bad_secret" {
  const app = one<{ app_secret: string }>(st.db, "SELECT app_secret FROM apps WHERE app_id = ?", appId);
  if (!app) return "unknown_app";
  return app.app_secret === secret ? "ok" : "bad_secret";
}

function enabledScopes(st: EmulatorState, kind: TokenKind): Set<string> {
  return new Set(
    all<{ scope: string }>(st.db, "SELECT scope FROM app_scopes WHERE kind = ?", kind).map((r) => r.scope),
  );
}

export function issueTenantToken(st: EmulatorState, appId: string): { token: string; expire: number } {
  const token = `t-${randomHex(20)}`;
  run(
    st.db,
    "INSERT INTO tokens (token, kind, app_id, open_id, scopes, expires_at) VALUES (?, 'tenant', ?, ?, '', ?)",
    token,
    appId,
    st.app.botOpenId,
    st.clock.now() + ACCESS_TOKEN_TTL_S * 1000,
  );
  return { token, expire: ACCESS_TOKEN_TTL_S };
}

export interface UserTokenGrant {
  access_token: string;
  expires_in: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
  scope: string;
  token_type: "Bearer";
}

/** A refresh token only comes with `offline_access`, as on the suite. */
export function issueUserTokens(st: EmulatorState, openId: string, scopes: string[]): UserTokenGrant {
  const now = st.clock.now();
  const access = `u-${randomHex(20)}`;
  const scope = scopes.join(" ");
  run(
    st.db,
    "INSERT INTO tokens (token, kind, app_id, open_id, scopes, expires_at) VALUES (?, 'user', ?, ?, ?, ?)",
    access,
    st.app.appId,
    openId,
    scope,
    now + ACCESS_TOKEN_TTL_S * 1000,
  );
  const grant: UserTokenGrant = {
    access_token: access,
    expires_in: ACCESS_TOKEN_TTL_S,
    scope,
    token_type: "Bearer",
  };
  if (scopes.includes("offline_access")) {
    const refresh = `ur-${randomHex(20)}`;
    run(
      st.db,
      "INSERT INTO refresh_tokens (token, open_id, scopes, expires_at) VALUES (?, ?, ?, ?)",
      refresh,
      openId,
      scope,
      now + REFRESH_TOKEN_TTL_S * 1000,
    );
    grant.refresh_token = refresh;
    grant.refresh_token_expires_in = REFRESH_TOKEN_TTL_S;
  }
  return grant;
}

export type RefreshOutcome =
  | { ok: true; grant: UserTokenGrant }
  | { ok: false; code: number; description: string };

/** Rotation: the presented refresh token is spent, a used one answers 20073 from then on. */
export function refreshUserTokens(st: EmulatorState, refreshToken: string): RefreshOutcome {
  return tx(st.db, () => {
    const row = one<{ open_id: string; scopes: string; expires_at: number; used_at: number | null }>(
      st.db,
      "SELECT open_id, scopes, expires_at, used_at FROM refresh_tokens WHERE token = ?",
      refreshToken,
    );
    if (!row) return { ok: false, code: 20026, description: "The refresh token passed is invalid." };
    if (row.used_at !== null) {
      return { ok: false, code: 20073, description: "The refresh token has been used." };
    }
    if (row.expires_at <= st.clock.now()) {
      return { ok: false, code: 20037, description: "The refresh token passed has expired." };
    }
    run(st.db, "UPDATE refresh_tokens SET used_at = ? WHERE token = ?", st.clock.now(), refreshToken);
    return { ok: true, grant: issueUserTokens(st, row.open_id, row.scopes.split(" ").filter(Boolean)) };
  });
}

const TOKEN_MISSING = "Missing access token for authorization. Please make a request with token attached.";
const TOKEN_INVALID = "Invalid access token for authorization. Please make a request with token attached.";

/** Reads `Authorization: Bearer <token>` and answers the suite's 9999166x codes when it does not hold. */
export function authenticate(st: EmulatorState, authorization: string | null): Caller | Reply {
  const m = authorization?.match(/^Bearer\s+(\S+)$/i);
  if (!authorization) return fail(400, 99991661, TOKEN_MISSING);
  if (!m) {
    return fail(400, 99991671, "Token format error: the Authorization header must be 'Bearer <token>'.");
  }
  return callerFromToken(st, m[1]);
}

export function callerFromToken(st: EmulatorState, token: string): Caller | Reply {
  const row = one<{ kind: TokenKind; app_id: string; open_id: string; scopes: string; expires_at: number }>(
    st.db,
    "SELECT kind, app_id, open_id, scopes, expires_at FROM tokens WHERE token = ?",
    token,
  );
  if (!row) return fail(400, token.startsWith("u-") ? 99991668 : 99991663, TOKEN_INVALID);
  if (row.expires_at <= st.clock.now()) {
    return row.kind === "user"
      ? fail(400, 99991677, "Authentication token expired. Please refresh the user access token.")
      : fail(400, 99991663, TOKEN_INVALID);
  }
  const enabled = enabledScopes(st, row.kind);
  const scopes = row.kind === "tenant"
    ? enabled
    : new Set(row.scopes.split(" ").filter((s) => s && enabled.has(s)));
  return { kind: row.kind, appId: row.app_id, openId: row.open_id, scopes, token };
}

/**
 * A route accepts any one of its scopes. The miss is reported the suite's way: 99991672 when the app never
 * enabled the scope (tenant), 99991679 when the user did not grant it, each with `permission_violations`.
 */
export function checkScopes(caller: Caller, accepted: string[]): Reply | undefined {
  if (accepted.length === 0 || accepted.some((s) => caller.scopes.has(s))) return undefined;
  const permission_violations = accepted.map((subject) => ({ type: "action_scope_required", subject }));
  if (caller.kind === "tenant") {
    return fail(
      400,
      99991672,
      `Access denied. One of the following scopes is required: [${accepted.join(", ")}]. ` +
        "The app has not enabled the required scopes for the tenant identity.",
      { permission_violations },
    );
  }
  return fail(
    400,
    99991679,
    "Unauthorized. You do not have permission to perform the requested operation on the resource. " +
      `Please request user re-authorization and try again. required one of these privileges under the user ` +
      `identity: [${accepted.join(", ")}]`,
    { permission_violations },
  );
}

export function setScopes(st: EmulatorState, kind: TokenKind, scopes: string[], granted: boolean): void {
  tx(st.db, () => {
    for (const s of scopes) {
      if (granted) run(st.db, "INSERT OR IGNORE INTO app_scopes (kind, scope) VALUES (?, ?)", kind, s);
      else run(st.db, "DELETE FROM app_scopes WHERE kind = ? AND scope = ?", kind, s);
    }
    if (granted && kind === "user") {
      // Granting to users also reaches tokens already issued, so a test need not log in again.
      for (
        const t of all<{ token: string; scopes: string }>(
          st.db,
          "SELECT token, scopes FROM tokens WHERE kind = 'user'",
        )
      ) {
        const merged = [...new Set([...t.scopes.split(" ").filter(Boolean), ...scopes])].join(" ");
        run(st.db, "UPDATE tokens SET scopes = ? WHERE token = ?", merged, t.token);
      }
    }
  });
}

export function expireTokens(st: EmulatorState, kind: TokenKind | "all"): void {
  const past = st.clock.now() - 1;
  if (kind === "all") run(st.db, "UPDATE tokens SET expires_at = ?", past);
  else run(st.db, "UPDATE tokens SET expires_at = ? WHERE kind = ?", past, kind);
}

// ---- device flow ----

export interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

function userCode(): string {
  const letters = "BCDFGHJKLMNPQRSTVWXZ";
  const pick = crypto.getRandomValues(new Uint8Array(8));
  const chars = Array.from(pick, (b) => letters[b % letters.length]).join("");
  return `${chars.slice(0, 4)}-${chars.slice(4)}`;
}

export function startDeviceAuthorization(
  st: EmulatorState,
  appId: string,
  scope: string,
): DeviceAuthorization {
  const deviceCode = `dc_${randomHex(16)}`;
  const code = userCode();
  run(
    st.db,
    `INSERT INTO device_codes (device_code, user_code, app_id, scopes, status, expires_at, interval_s)
     VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
    deviceCode,
    code,
    appId,
    scope,
    st.clock.now() + DEVICE_CODE_TTL_S * 1000,
    DEVICE_POLL_INTERVAL_S,
  );
  const verification_uri = `${st.origin}/emulator/verify`;
  return {
    device_code: deviceCode,
    user_code: code,
    verification_uri,
    verification_uri_complete: `${verification_uri}?user_code=${encodeURIComponent(code)}`,
    expires_in: DEVICE_CODE_TTL_S,
    interval: DEVICE_POLL_INTERVAL_S,
  };
}

interface DeviceRow {
  device_code: string;
  scopes: string;
  status: "pending" | "approved" | "denied" | "consumed";
  open_id: string | null;
  granted_scopes: string | null;
  expires_at: number;
  interval_s: number;
  last_poll_at: number | null;
}

function findDevice(st: EmulatorState, code: string): DeviceRow | undefined {
  return one<DeviceRow>(
    st.db,
    "SELECT * FROM device_codes WHERE device_code = ? OR user_code = ?",
    code,
    code,
  );
}

export const DEFAULT_USER_OPEN_ID = "ou_sandbox_user_0001";

/** Emulator-only: what the person at the verification page does. Unknown or settled codes return false. */
export function decideDevice(
  st: EmulatorState,
  code: string,
  decision: { approve: true; userOpenId?: string; scopes?: string[] } | { approve: false },
): boolean {
  const row = findDevice(st, code);
  if (!row || row.status !== "pending" || row.expires_at <= st.clock.now()) return false;
  if (!decision.approve) {
    run(st.db, "UPDATE device_codes SET status = 'denied' WHERE device_code = ?", row.device_code);
    return true;
  }
  const openId = decision.userOpenId ?? DEFAULT_USER_OPEN_ID;
  if (!one(st.db, "SELECT open_id FROM users WHERE open_id = ?", openId)) return false;
  const enabled = enabledScopes(st, "user");
  // The suite grants only what the app may ask for; a requested but unavailable scope stays missing.
  const granted = decision.scopes ?? row.scopes.split(/\s+/).filter((s) => s && enabled.has(s));
  run(
    st.db,
    "UPDATE device_codes SET status = 'approved', open_id = ?, granted_scopes = ? WHERE device_code = ?",
    openId,
    granted.join(" "),
    row.device_code,
  );
  return true;
}

export type DevicePoll =
  | { ok: true; grant: UserTokenGrant }
  | {
    ok: false;
    error: "authorization_pending" | "slow_down" | "expired_token" | "access_denied" | "invalid_grant";
    description: string;
  };

export function pollDevice(st: EmulatorState, deviceCode: string): DevicePoll {
  return tx(st.db, () => {
    const row = one<DeviceRow>(st.db, "SELECT * FROM device_codes WHERE device_code = ?", deviceCode);
    const now = st.clock.now();
    if (!row || row.status === "consumed") {
      return {
        ok: false,
        error: "invalid_grant",
        description: "The device code is invalid or already used.",
      };
    }
    if (row.expires_at <= now) {
      return { ok: false, error: "expired_token", description: "The device code has expired." };
    }
    if (row.status === "denied") {
      return { ok: false, error: "access_denied", description: "The user denied the authorization request." };
    }
    if (row.status === "approved" && row.open_id) {
      run(st.db, "UPDATE device_codes SET status = 'consumed' WHERE device_code = ?", deviceCode);
      const scopes = (row.granted_scopes ?? "").split(" ").filter(Boolean);
      return { ok: true, grant: issueUserTokens(st, row.open_id, scopes) };
    }
    const tooSoon = row.last_poll_at !== null && now - row.last_poll_at < row.interval_s * 1000;
    if (tooSoon) {
      run(
        st.db,
        "UPDATE device_codes SET last_poll_at = ?, interval_s = interval_s + ? WHERE device_code = ?",
        now,
        SLOW_DOWN_STEP_S,
        deviceCode,
      );
      return { ok: false, error: "slow_down", description: "Polling too frequently; increase the interval." };
    }
    run(st.db, "UPDATE device_codes SET last_poll_at = ? WHERE device_code = ?", now, deviceCode);
    return { ok: false, error: "authorization_pending", description: "The user has not yet authorized." };
  });
}

export function deviceByUserCode(
  st: EmulatorState,
  code: string,
): { user_code: string; scopes: string; status: string } | undefined {
  return one(
    st.db,
    "SELECT user_code, scopes, status FROM device_codes WHERE user_code = ? OR device_code = ?",
    code,
    code,
  );
}
