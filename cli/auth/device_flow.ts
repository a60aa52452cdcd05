/**
 * The OAuth device flow (RFC 8628) as the suite runs it: ask the accounts service for a device code and a
 * verification link, then poll the token endpoint until the person approves, refuses, or the code expires.
 *
 * Polling rules: sleep `interval` before each poll; `authorization_pending` -> poll again; `slow_down` ->
 * interval + 5 s (at most 60 s); a lost or unreadable answer -> interval + 1 s; `access_denied` -> stop;
 * `expired_token`/`invalid_grant` -> stop; stop at the code's expiry or after 200 polls.
 */
import * as z from "zod";
import type { Endpoints } from "../config/endpoints.ts";
import { errors, LarkitError } from "../output/errors.ts";
import type { Clock } from "../provider.ts";
import { formBody, requestToken, type Send, type TokenGrant } from "./oauth_token.ts";

export const DEVICE_AUTHORIZATION_PATH = "/oauth/v1/device_authorization";
export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

const MAX_POLLS = 200;
/** A poll whose answer was lost is simply polled again (a poll changes nothing on the server). */
const LOST_ANSWER = new Set(["network", "timeout", "outcome_unknown"]);
const MAX_INTERVAL_S = 60;

const DeviceAuthorizationSchema = z.object({
  device_code: z.optional(z.string()),
  user_code: z.optional(z.string()),
  verification_uri: z.optional(z.string()),
  verification_uri_complete: z.optional(z.string()),
  expires_in: z.optional(z.number()),
  interval: z.optional(z.number()),
  error: z.optional(z.string()),
  error_description: z.optional(z.string()),
});

export interface DeviceAuthorization {
  deviceCode: string;
  userCode: string;
  /** The complete link to show the person (code included when the server offers one). */
  verificationUrl: string;
  /** Seconds. */
  expiresIn: number;
  /** Seconds between polls. */
  interval: number;
}

export interface AppCredentials {
  endpoints: Endpoints;
  appId: string;
  appSecret: string;
}

/** `offline_access` is what makes the server return a refresh token, so it is always asked for. */
export function withOfflineAccess(scopes: string[]): string[] {
  return scopes.includes("offline_access") ? scopes : [...scopes, "offline_access"];
}

export async function requestDeviceAuthorization(
  send: Send,
  app: AppCredentials,
  scopes: string[],
  signal?: AbortSignal,
): Promise<DeviceAuthorization> {
  const basic = new TextEncoder().encode(`${app.appId}:${app.appSecret}`).toBase64();
  const init = formBody(
    { client_id: app.appId, scope: withOfflineAccess(scopes).join(" ") },
    { Authorization: `Basic ${basic}` },
  );
  const url = new URL(DEVICE_AUTHORIZATION_PATH, app.endpoints.accounts).toString();
  const res = await send(url, init, { signal, label: DEVICE_AUTHORIZATION_PATH });
  const text = await res.text();
  let body: z.infer<typeof DeviceAuthorizationSchema>;
  try {
    body = DeviceAuthorizationSchema.parse(JSON.parse(text));
  } catch {
    throw errors.network(`device authorization answered HTTP ${res.status} with an unreadable body`, {
      hint: "check the configured brand / base URL (larkit config show) and retry",
    });
  }
  if (body.error || !body.device_code || !body.verification_uri) {
    throw errors.auth(`device authorization failed: ${body.error_description ?? body.error ?? res.status}`, {
      hint: "check the app id and secret (larkit config show) and the requested scopes",
    });
  }
  return {
    deviceCode: body.device_code,
    userCode: body.user_code ?? "",
    verificationUrl: body.verification_uri_complete ?? body.verification_uri,
    expiresIn: body.expires_in ?? 240,
    interval: body.interval ?? 5,
  };
}

export interface PollTarget {
  deviceCode: string;
  /** Seconds. */
  interval: number;
  /** Unix ms after which the code is dead. */
  expiresAt: number;
}

/** Polls until the person decides; the grant on approval, an `auth` error value otherwise. */
export async function pollDeviceToken(
  deps: {
    send: Send;
    clock: Clock;
    signal?: AbortSignal;
    loginHint: string;
    /** Told before each wait how many seconds the code has left (a progress line). */
    waiting?: (secondsLeft: number) => Promise<void>;
  },
  app: AppCredentials,
  target: PollTarget,
): Promise<TokenGrant> {
  let interval = target.interval;
  for (let poll = 0; poll < MAX_POLLS; poll++) {
    if (deps.clock.now() + interval * 1000 > target.expiresAt) break;
    await deps.waiting?.(Math.round((target.expiresAt - deps.clock.now()) / 1000));
    await deps.clock.sleep(interval * 1000, deps.signal);
    let answer;
    try {
      answer = await requestToken(deps.send, app.endpoints, {
        grant_type: DEVICE_CODE_GRANT,
        device_code: target.deviceCode,
        client_id: app.appId,
        client_secret: app.appSecret,
      }, deps.signal);
    } catch (e) {
      if (deps.signal?.aborted || !(e instanceof LarkitError) || !LOST_ANSWER.has(e.subtype)) throw e;
      interval = Math.min(interval + 1, MAX_INTERVAL_S);
      continue;
    }
    if (answer.kind === "granted") return answer.grant;
    switch (answer.error) {
      case "authorization_pending":
        continue;
      case "slow_down":
        interval = Math.min(interval + 5, MAX_INTERVAL_S);
        continue;
      case "access_denied":
        throw errors.auth("the authorization was denied in the browser", {
          hint: `to try again: ${deps.loginHint}`,
        });
      case "expired_token":
      case "invalid_grant":
        throw errors.auth("the device code expired or is no longer valid", {
          hint: `start again: ${deps.loginHint}`,
        });
      default:
        throw errors.auth(`login failed: ${answer.error}: ${answer.description}`, {
          hint: `start again: ${deps.loginHint}`,
        });
    }
  }
  throw errors.auth("the device code expired before it was approved", {
    hint: `start again: ${deps.loginHint}`,
  });
}
