/**
 * What `auth status`, `auth scopes` and `auth check` report: who is logged in, which identities are usable
 * now, which scopes each identity is known to hold. Read-only: nothing here sends a request or refreshes.
 */
import { loadConfig } from "../config/config_file.ts";
import { selectProfile } from "../config/profiles.ts";
import type { SecretStore } from "../config/secret_store.ts";
import type { Provider } from "../provider.ts";
import { AUTO_ORDER } from "./identity.ts";
import { missingScopes, parseScopes } from "./scopes.ts";
import type { AsFlag, CredentialChain, Identity, StrictMode } from "./types.ts";
import { readUserToken, type TokenStatus, tokenStatus } from "./user_token.ts";

/** One logged-in user of the profile, as `auth status` reports it. */
export interface UserStatus {
  name?: string;
  open_id: string;
  tenant_key?: string;
  /** The profile's default user (its latest login): who acts without --user. */
  default: boolean;
  /** The user this run's user identity is (the default, or --user / LARKIT_USER). */
  selected: boolean;
  token_status: TokenStatus | "no_token";
  expires_at?: string;
  refresh_expires_at?: string;
  /** How many scopes the user granted; the list itself with --scopes. */
  scope_count: number;
  scopes?: string[];
}

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
  /** What `--as auto` resolves to now (strict mode, else the first identity with credentials) and why. */
  auto: { identity: Identity | null; why: string };
  /** The app's bot: usable when the app secret (or a bot token) is at hand; its scopes as configured. */
  bot: { available: boolean; appId?: string; scope_count: number | null; scopes?: string[] };
  /** Every logged-in user of the profile (with an environment or extension source: the one it gives). */
  users: UserStatus[];
  /** The selected user, with its token's state (kept flat for scripts written against earlier versions). */
  user?: { openId: string; name?: string };
  tokenStatus?: TokenStatus;
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

/** `--as auto` and why, in the words of the rule in identity.ts. */
function autoReason(
  strictMode: StrictMode,
  identities: Identity[],
  user: { openId: string; name?: string } | undefined,
): AuthStatus["auto"] {
  if (strictMode !== "off") {
    return { identity: strictMode, why: `strict mode "${strictMode}" forces it (set by the administrator)` };
  }
  const who = user ? (user.name ? `${user.name} (${user.openId})` : user.openId) : "the user";
  if (identities.includes("user")) {
    return { identity: "user", why: `${who} is logged in with a live refresh token; auto prefers the user` };
  }
  if (identities.includes("bot")) {
    return {
      identity: "bot",
      why: user
        ? `${who}'s login has expired; the app secret gives the bot (log in again for the user)`
        : "no user is logged in; the app secret gives the bot",
    };
  }
  return { identity: null, why: "no credentials: no user is logged in and no app secret is at hand" };
}

export interface DescribeOptions {
  /** The scope lists themselves, not just their counts. */
  scopes?: boolean;
}

export async function describeAuth(
  p: Provider,
  chain: CredentialChain,
  store: SecretStore,
  opts: DescribeOptions = {},
): Promise<AuthStatus> {
  const account = await chain.account();
  const identities = await chain.identities();
  const defaultAs = account.defaultAs ?? "auto";
  const botScopes = await chain.grantedScopes("bot");
  const status: AuthStatus = {
    source: account.source,
    profile: account.profile,
    appId: account.appId,
    brand: account.brand,
    defaultAs,
    strictMode: account.strictMode,
    identities,
    identity: defaultIdentity(account.strictMode, defaultAs, identities),
    auto: autoReason(account.strictMode, identities, account.user),
    bot: {
      available: identities.includes("bot"),
      appId: account.appId,
      scope_count: botScopes?.length ?? null,
      ...(opts.scopes && botScopes ? { scopes: botScopes } : {}),
    },
    users: [],
  };
  // With the config as source, every logged-in user of its profile is described, not just the selected one.
  const profile = account.source === "config"
    ? selectProfile(await loadConfig(p), account.profile)
    : undefined;
  for (const [i, u] of (profile?.users ?? []).entries()) {
    const token = await readUserToken(store, profile!.appId, u.openId);
    const granted = parseScopes(token?.scope);
    status.users.push({
      name: u.name,
      open_id: u.openId,
      tenant_key: u.tenantKey,
      default: i === 0,
      selected: u.openId === account.user?.openId,
      token_status: token ? tokenStatus(token, p.clock.now()) : "no_token",
      expires_at: token && iso(token.expiresAt),
      refresh_expires_at: token && iso(token.refreshExpiresAt),
      scope_count: granted.length,
      ...(opts.scopes ? { scopes: granted } : {}),
    });
    if (u.openId === account.user?.openId && token) {
      status.tokenStatus = tokenStatus(token, p.clock.now());
      status.expiresAt = iso(token.expiresAt);
      status.refreshExpiresAt = iso(token.refreshExpiresAt);
      status.grantedAt = iso(token.grantedAt);
    }
  }
  if (account.source !== "config" && account.user) {
    // A user from the environment or an extension: what the source says, no stored token to read.
    const granted = await chain.grantedScopes("user");
    status.users.push({
      name: account.user.name,
      open_id: account.user.openId,
      default: true,
      selected: true,
      token_status: identities.includes("user") ? "valid" : "expired",
      scope_count: granted?.length ?? 0,
      ...(opts.scopes && granted ? { scopes: granted } : {}),
    });
  }
  if (account.user) status.user = account.user;
  if (!identities.includes("user")) {
    status.note = "No user logged in. Only the bot identity is available for API calls. " +
      "Run `larkit auth login --domain <service,...>` (or --recommend) to log in.";
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
