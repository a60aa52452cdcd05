/**
 * User access tokens: stored per app and user in the secret store, refreshed transparently when they near
 * expiry. A refresh token is single-use, so the refresh runs under a cross-process lock and re-reads the
 * stored token once it holds the lock (double-checked): a second process waiting on the lock finds the token
 * the first one stored and never spends the old refresh token again.
 */
// The provider's own `join`: importing `node:path` costs every run's start-up (issue 17).
import { joinPath as join } from "../files.ts";
import * as z from "zod";
import type { Endpoints } from "../config/endpoints.ts";
import type { SecretStore } from "../config/secret_store.ts";
import { errors, LarkitError } from "../output/errors.ts";
import type { Provider } from "../provider.ts";
import { withFileLock } from "./file_lock.ts";
import { requestToken, type Send, type TokenAnswer, type TokenGrant } from "./oauth_token.ts";

/** Refresh this long before the access token expires, so a request never leaves with a dying token. */
export const REFRESH_AHEAD_MS = 5 * 60_000;
/** The suite's refresh-token lifetime when the grant does not say (7 days). */
const DEFAULT_REFRESH_LIFETIME_S = 604_800;

// Schemas are built on first parse, not at import: most runs never parse these (start-up).
export const UserTokenSchema = z.lazy(() =>
  z.object({
    userOpenId: z.string(),
    appId: z.string(),
    accessToken: z.string(),
    refreshToken: z.optional(z.string()),
    /** Unix ms. */
    expiresAt: z.number(),
    refreshExpiresAt: z.number(),
    /** Space-separated, as the OAuth server returns it. */
    scope: z.string(),
    grantedAt: z.number(),
  })
);
export type UserToken = z.infer<typeof UserTokenSchema>;

export type TokenStatus = "valid" | "needs_refresh" | "expired";

export function tokenStatus(t: UserToken, now: number): TokenStatus {
  if (now < t.expiresAt - REFRESH_AHEAD_MS) return "valid";
  if (t.refreshToken && now < t.refreshExpiresAt) return "needs_refresh";
  return "expired";
}

export const userTokenKey = (appId: string, openId: string) => `uat:${appId}:${openId}`;

/** The stored record for a fresh grant; what the refresh grant leaves out is kept from the previous one. */
export function tokenFromGrant(
  grant: TokenGrant,
  at: { appId: string; openId: string; now: number; previous?: UserToken },
): UserToken {
  const prev = at.previous;
  return {
    userOpenId: at.openId,
    appId: at.appId,
    accessToken: grant.accessToken,
    refreshToken: grant.refreshToken ?? prev?.refreshToken,
    expiresAt: at.now + grant.expiresIn * 1000,
    refreshExpiresAt: grant.refreshExpiresIn !== undefined
      ? at.now + grant.refreshExpiresIn * 1000
      : prev?.refreshExpiresAt ?? at.now + DEFAULT_REFRESH_LIFETIME_S * 1000,
    scope: grant.scope ?? prev?.scope ?? "",
    grantedAt: prev && grant.scope === undefined ? prev.grantedAt : at.now,
  };
}

export async function readUserToken(
  store: SecretStore,
  appId: string,
  openId: string,
): Promise<UserToken | undefined> {
  const text = await store.get(userTokenKey(appId, openId));
  if (text === undefined) return undefined;
  const parsed = UserTokenSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : undefined;
}

export async function writeUserToken(store: SecretStore, t: UserToken): Promise<void> {
  await store.set(userTokenKey(t.appId, t.userOpenId), JSON.stringify(t));
}

export interface UserTokenDeps {
  p: Provider;
  store: SecretStore;
  send: Send;
  endpoints: Endpoints;
  appId: string;
  appSecret: () => Promise<string>;
  /** The exact command that logs this user in again (for the hint of every dead-login error). */
  loginCommand: (scopes: string[]) => string;
  signal?: AbortSignal;
}

function loginExpired(deps: UserTokenDeps, t: UserToken | undefined, why: string) {
  const scopes = (t?.scope ?? "").split(" ").filter((s) => s && s !== "offline_access");
  return errors.auth(`the user login has expired: ${why}`, {
    hint: `log in again: ${deps.loginCommand(scopes)}`,
  });
}

/** The request reached the suite but its answer did not reach us: the refresh may have happened. */
function answerLost(e: LarkitError): boolean {
  return e.type === "outcome_unknown" || (e.body.detail as { lost?: string } | undefined)?.lost === "body";
}

/** The access token may still be sent: the suite accepts it until it expires, refresh token or not. */
function stillUsable(deps: UserTokenDeps, t: UserToken): boolean {
  return deps.p.clock.now() < t.expiresAt;
}

/**
 * Spends the refresh token for a new pair. The suite rotates refresh tokens, so a refresh whose answer is lost
 * may have spent the stored one: the stored pair is then kept (its access token still works until it expires,
 * and the next refresh tells whether the refresh token survived), and the run ends with an `auth` error
 * saying so, never an `internal` one. `accessRejected`: the suite already refused the access token, so a
 * refused refresh leaves nothing usable.
 */
async function refresh(deps: UserTokenDeps, t: UserToken, accessRejected = false): Promise<UserToken> {
  const secret = await deps.appSecret();
  let answer: TokenAnswer;
  try {
    answer = await requestToken(deps.send, deps.endpoints, {
      grant_type: "refresh_token",
      refresh_token: t.refreshToken ?? "",
      client_id: deps.appId,
      client_secret: secret,
    }, deps.signal);
  } catch (e) {
    if (deps.signal?.aborted || !(e instanceof LarkitError) || !answerLost(e)) throw e;
    const scopes = (t.scope ?? "").split(" ").filter((s) => s && s !== "offline_access");
    throw errors.auth(`the user token refresh got no usable answer (${e.message})`, {
      hint: `retry the command: the stored login is kept${
        !accessRejected && stillUsable(deps, t) ? " and its access token still works for now" : ""
      }; if the suite already replaced the refresh token, log in again: ${deps.loginCommand(scopes)}`,
      detail: { cause: e.type },
    });
  }
  if (answer.kind === "refused") {
    const why = `the refresh token was refused (${answer.error}: ${answer.description})`;
    if (!accessRejected && stillUsable(deps, t)) {
      // E.g. spent by an earlier refresh whose answer was lost: the access token serves until it expires.
      const kept = { ...t, refreshToken: undefined };
      await writeUserToken(deps.store, kept);
      return kept;
    }
    // A refused refresh token never works again; keeping it would only repeat this failure.
    await deps.store.remove(userTokenKey(t.appId, t.userOpenId));
    throw loginExpired(deps, t, why);
  }
  const next = tokenFromGrant(answer.grant, {
    appId: t.appId,
    openId: t.userOpenId,
    now: deps.p.clock.now(),
    previous: t,
  });
  await writeUserToken(deps.store, next);
  return next;
}

export function refreshLockPath(p: Provider, appId: string, openId: string): string {
  return join(p.paths.configDir, "locks", `refresh_${appId}_${openId}.lock`.replace(/[^a-zA-Z0-9._-]/g, "_"));
}

/**
 * `t` itself when it needs no refresh; undefined when it must be refreshed; an `auth` error when it cannot be
 * (nothing left to refresh with, and the access token has expired too).
 */
function usableUnrefreshed(deps: UserTokenDeps, t: UserToken): UserToken | undefined {
  const status = tokenStatus(t, deps.p.clock.now());
  if (status === "valid") return t;
  if (status === "needs_refresh") return undefined;
  // No refresh possible, but the access token has minutes left: use them; the next run says to log in.
  if (stillUsable(deps, t)) return t;
  throw loginExpired(deps, t, t.refreshToken ? "the refresh token has expired" : "no refresh token is left");
}

/** A usable token for the user: the stored one, or a refreshed one; an `auth` error when the login is dead. */
export async function validUserToken(deps: UserTokenDeps, openId: string): Promise<UserToken> {
  const { p, store, appId } = deps;
  const stored = await readUserToken(store, appId, openId);
  if (!stored) throw loginExpired(deps, undefined, "no token is stored for this user");
  const ready = usableUnrefreshed(deps, stored);
  if (ready) return ready;
  // Another process may have refreshed it while this one waited for the lock: read it again under the lock.
  return await withFileLock(p, refreshLockPath(p, appId, openId), async () => {
    const current = await readUserToken(store, appId, openId);
    if (!current) throw loginExpired(deps, stored, "the token was removed by another larkit process");
    return usableUnrefreshed(deps, current) ?? await refresh(deps, current);
  }, { signal: deps.signal });
}

/**
 * The suite rejected `rejected` as expired while it looked valid here (clock skew, revoked early): refresh it
 * now, under the same lock as a due refresh. Unless another process already replaced it, in which case the
 * stored token is the new one and nothing is spent.
 */
export async function refreshRejectedUserToken(
  deps: UserTokenDeps,
  openId: string,
  rejected: string,
): Promise<void> {
  const { p, store, appId } = deps;
  await withFileLock(p, refreshLockPath(p, appId, openId), async () => {
    const current = await readUserToken(store, appId, openId);
    if (!current) throw loginExpired(deps, undefined, "no token is stored for this user");
    if (current.accessToken !== rejected) return;
    if (!current.refreshToken || p.clock.now() >= current.refreshExpiresAt) {
      throw loginExpired(
        deps,
        current,
        "the suite rejected the access token and the refresh token has expired",
      );
    }
    await refresh(deps, current, true);
  }, { signal: deps.signal });
}
