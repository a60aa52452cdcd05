/**
 * User login for a config profile by device flow: start (device code + link, remembered on disk so that
 * `auth login --device-code <code>` can resume in another process), then complete (poll, identify the user,
 * store the token, make that user the profile's default user; other users stay logged in).
 */
// The provider's own `join`: importing `node:path` costs every run's start-up (issue 17).
import { joinPath as join } from "../files.ts";
import * as z from "zod";
import { loadConfig, type Profile, type ProfileUser, saveConfig } from "../config/config_file.ts";
import type { Endpoints } from "../config/endpoints.ts";
import { updateProfile } from "../config/profiles.ts";
import type { SecretStore } from "../config/secret_store.ts";
import { errors, LarkitError } from "../output/errors.ts";
import type { Provider } from "../provider.ts";
import {
  type DeviceAuthorization,
  pollDeviceToken,
  requestDeviceAuthorization,
  withOfflineAccess,
} from "./device_flow.ts";
import type { Send } from "./oauth_token.ts";
import { missingScopes, parseScopes } from "./scopes.ts";
import { readUserToken, tokenFromGrant, writeUserToken } from "./user_token.ts";

export const USER_INFO_PATH = "/open-apis/authen/v1/user_info";
/** Resuming a code this process did not start: the reference CLI's fixed interval and window. */
const RESUME_INTERVAL_S = 5;
const RESUME_WINDOW_MS = 180_000;

export interface LoginSession {
  p: Provider;
  send: Send;
  store: SecretStore;
  profile: Profile;
  endpoints: Endpoints;
  appSecret: string;
  /** `--user`: the logged-in user whose grant this login adds to (by default the profile's default user). */
  user?: string;
  /** The exact command to start again, for hints. */
  loginCommand: (scopes: string[]) => string;
  signal?: AbortSignal;
  /** A progress line while the person has not decided yet (seconds left on the code). */
  waiting?: (secondsLeft: number) => Promise<void>;
}

const PendingLoginSchema = z.object({
  deviceCode: z.string(),
  appId: z.string(),
  requestedScopes: z.array(z.string()),
  interval: z.number(),
  expiresAt: z.number(),
});
export type PendingLogin = z.infer<typeof PendingLoginSchema>;

const UserInfoSchema = z.object({
  code: z.number(),
  msg: z.optional(z.string()),
  data: z.optional(
    z.object({ open_id: z.string(), name: z.optional(z.string()), tenant_key: z.optional(z.string()) }),
  ),
});

export interface LoginResult {
  user_open_id: string;
  user_name?: string;
  requested: string[];
  granted: string[];
  newly_granted: string[];
  already_granted: string[];
  missing: string[];
}

function pendingPath(p: Provider, deviceCode: string): string {
  return join(p.paths.stateDir, "device_logins", `${deviceCode.replace(/[^a-zA-Z0-9._-]/g, "_")}.json`);
}

async function forgetPending(p: Provider, deviceCode: string): Promise<void> {
  const path = pendingPath(p, deviceCode);
  if (await p.files.stat(path)) await p.files.remove(path);
}

/** Asks for a device code and remembers it (0600) so a later process can resume polling. */
export async function startLogin(
  s: LoginSession,
  scopes: string[],
): Promise<{ authorization: DeviceAuthorization; pending: PendingLogin }> {
  const app = { endpoints: s.endpoints, appId: s.profile.appId, appSecret: s.appSecret };
  // A login adds to what the profile's user already granted (a missing-scope hint names only the missing
  // scopes): asking for the new ones alone would replace the grant and lose the others.
  const user = s.user === undefined
    ? s.profile.users[0]
    : s.profile.users.find((u) => u.openId === s.user || u.name === s.user);
  const held = user ? parseScopes((await readUserToken(s.store, s.profile.appId, user.openId))?.scope) : [];
  scopes = [...new Set([...held, ...scopes])];
  const authorization = await requestDeviceAuthorization(s.send, app, scopes, s.signal);
  const pending: PendingLogin = {
    deviceCode: authorization.deviceCode,
    appId: s.profile.appId,
    requestedScopes: withOfflineAccess(scopes),
    interval: authorization.interval,
    expiresAt: s.p.clock.now() + authorization.expiresIn * 1000,
  };
  await s.p.files.writeFileAtomic(pendingPath(s.p, pending.deviceCode), JSON.stringify(pending), {
    mode: 0o600,
  });
  return { authorization, pending };
}

/** The remembered login for a device code, or a default polling window when this machine did not start it. */
export async function pendingLogin(s: LoginSession, deviceCode: string): Promise<PendingLogin> {
  const path = pendingPath(s.p, deviceCode);
  const fallback: PendingLogin = {
    deviceCode,
    appId: s.profile.appId,
    requestedScopes: [],
    interval: RESUME_INTERVAL_S,
    expiresAt: s.p.clock.now() + RESUME_WINDOW_MS,
  };
  if (!await s.p.files.stat(path)) return fallback;
  const parsed = PendingLoginSchema.safeParse(JSON.parse(await s.p.files.readTextFile(path)));
  if (!parsed.success) return fallback;
  if (parsed.data.appId !== s.profile.appId) {
    throw errors.validation(`device code ${deviceCode} was issued for app ${parsed.data.appId}`, {
      hint:
        `resume it with that app's profile: larkit --profile ${parsed.data.appId} auth login --device-code ...`,
    });
  }
  return parsed.data;
}

async function fetchUser(s: LoginSession, accessToken: string): Promise<ProfileUser> {
  const res = await s.send(new URL(USER_INFO_PATH, s.endpoints.open).toString(), {
    method: "GET",
    headers: { Authorization: `Bearer ${accessToken}` },
  }, { signal: s.signal, label: USER_INFO_PATH });
  const parsed = UserInfoSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success || parsed.data.code !== 0 || !parsed.data.data) {
    const why = parsed.success ? `[${parsed.data.code}] ${parsed.data.msg ?? ""}` : `HTTP ${res.status}`;
    throw errors.auth(`the new user token could not identify the user: ${why}`, {
      hint: `retry the login: ${s.loginCommand([])}`,
    });
  }
  const { open_id, name, tenant_key } = parsed.data.data;
  return { openId: open_id, name: name || undefined, ...(tenant_key ? { tenantKey: tenant_key } : {}) };
}

export function scopeReport(requested: string[], before: string[], granted: string[]): Omit<
  LoginResult,
  "user_open_id" | "user_name"
> {
  return {
    requested,
    granted,
    newly_granted: missingScopes(before, granted),
    already_granted: granted.filter((g) => before.includes(g)),
    missing: missingScopes(granted, requested),
  };
}

/** Polls until the person decides, then stores the token and makes that user the profile's default user. */
export async function completeLogin(s: LoginSession, pending: PendingLogin): Promise<LoginResult> {
  const app = { endpoints: s.endpoints, appId: s.profile.appId, appSecret: s.appSecret };
  const hintScopes = pending.requestedScopes.filter((x) => x !== "offline_access");
  let grant;
  try {
    grant = await pollDeviceToken(
      {
        send: s.send,
        clock: s.p.clock,
        signal: s.signal,
        loginHint: s.loginCommand(hintScopes),
        waiting: s.waiting,
      },
      app,
      pending,
    );
  } catch (e) {
    // A refused or expired code is dead; an interrupted wait can still be resumed.
    if (e instanceof LarkitError) await forgetPending(s.p, pending.deviceCode);
    throw e;
  }
  const user = await fetchUser(s, grant.accessToken);
  const previous = await readUserToken(s.store, s.profile.appId, user.openId);
  const token = tokenFromGrant(grant, { appId: s.profile.appId, openId: user.openId, now: s.p.clock.now() });
  await writeUserToken(s.store, token);

  // Re-read the config: a login can take minutes and the file may have changed meanwhile.
  const config = await loadConfig(s.p);
  const current = config?.profiles.find((x) => x.name === s.profile.name);
  if (!config || !current) {
    throw errors.config(`profile "${s.profile.name}" was removed during the login`, {
      hint: "configure it again, then log in",
    });
  }
  // Other users stay logged in with their own tokens; the newest login becomes the profile's default user.
  const users = [user, ...current.users.filter((u) => u.openId !== user.openId)];
  await saveConfig(s.p, updateProfile(config, current.name, { users }));
  await forgetPending(s.p, pending.deviceCode);
  return {
    user_open_id: user.openId,
    user_name: user.name,
    ...scopeReport(pending.requestedScopes, parseScopes(previous?.scope), parseScopes(token.scope)),
  };
}
