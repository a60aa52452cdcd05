/**
 * What `auth status`, `auth scopes` and `auth check` report: who is logged in, which identities are usable
 * now, which scopes each identity is known to hold. Read-only: nothing here sends a request or refreshes.
 */
import type { SecretStore } from "../config/secret_store.ts";
import type { Provider } from "../provider.ts";
import { AUTO_ORDER } from "./identity.ts";
import { missingScopes } from "./scopes.ts";
import type { AsFlag, CredentialChain, Identity, StrictMode } from "./types.ts";
import { readUserToken, type TokenStatus, tokenStatus } from "./user_token.ts";

export interface AuthStatus {
  source: string;
  profile?: string;
  appId?: string;
  brand: string;
  defaultAs: AsFlag;
  strictMode: StrictMode;
  /** Identities with credentials now. */
  identities: Identity[];
  /** What a command supporting both identities runs as without --as. */
  identity?: Identity;
  user?: { openId: string; name?: string };
  tokenStatus?: TokenStatus;
  scope?: string;
  expiresAt?: string;
  refreshExpiresAt?: string;
  grantedAt?: string;
  note?: string;
  /** With --verify: the identities whose tokens were proven to work. */
  verified?: Identity[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The identity `auto` would pick for a command supporting both (same rule as resolveIdentity). */
export function defaultIdentity(
  strictMode: StrictMode,
  defaultAs: AsFlag,
  identities: Identity[],
): Identity | undefined {
  if (strictMode !== "off") return strictMode;
  if (defaultAs !== "auto") return defaultAs;
  return AUTO_ORDER.find((i) => identities.includes(i));
}

export async function describeAuth(
  p: Provider,
  chain: CredentialChain,
  store: SecretStore,
): Promise<AuthStatus> {
  const account = await chain.account();
  const identities = await chain.identities();
  const defaultAs = account.defaultAs ?? "auto";
  const status: AuthStatus = {
    source: account.source,
    profile: account.profile,
    appId: account.appId,
    brand: account.brand,
    defaultAs,
    strictMode: account.strictMode,
    identities,
    identity: defaultIdentity(account.strictMode, defaultAs, identities),
  };
  const token = account.source === "config" && account.appId && account.user
    ? await readUserToken(store, account.appId, account.user.openId)
    : undefined;
  if (account.user) status.user = account.user;
  if (token) {
    status.tokenStatus = tokenStatus(token, p.clock.now());
    status.scope = token.scope;
    status.expiresAt = iso(token.expiresAt);
    status.refreshExpiresAt = iso(token.refreshExpiresAt);
    status.grantedAt = iso(token.grantedAt);
  }
  if (!identities.includes("user")) {
    status.note = "No user logged in. Only the bot identity is available for API calls. " +
      'Run `larkit auth login --scope "<scopes>"` (or --recommend) to log in.';
  }
  return status;
}

export interface ScopeCheck {
  ok: boolean;
  identity: Identity;
  granted: string[];
  missing: string[];
  /** Why the grant could not be compared: no user logged in, or the bot's scopes are not recorded. */
  error?: "not_logged_in" | "scopes_unknown";
  suggestion?: string;
}

/** Compares a required scope list with a known grant; pure. */
export function checkGrant(
  identity: Identity,
  required: string[],
  granted: string[] | undefined,
  next: { loginCommand: (scopes: string[]) => string; loggedIn: boolean },
): ScopeCheck {
  if (granted === undefined) {
    const error = identity === "user" && !next.loggedIn ? "not_logged_in" : "scopes_unknown";
    const result: ScopeCheck = { ok: false, identity, granted: [], missing: required, error };
    if (error === "not_logged_in") result.suggestion = next.loginCommand(required);
    if (identity === "bot") result.suggestion = 'larkit config set bot-scopes "<the app\'s granted scopes>"';
    return result;
  }
  const missing = missingScopes(granted, required);
  const result: ScopeCheck = {
    ok: missing.length === 0,
    identity,
    granted: required.filter((s) => granted.includes(s)),
    missing,
  };
  if (missing.length && identity === "user") result.suggestion = next.loginCommand(missing);
  if (missing.length && identity === "bot") {
    result.suggestion = `ask the app admin to enable ${missing.join(", ")} in the developer console`;
  }
  return result;
}
