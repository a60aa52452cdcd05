/**
 * The local scope pre-check: a command that declares scopes fails before it sends anything when the
 * identity's known grant lacks one of them.
 *
 * Where the grant is known from (no request is ever made for it):
 * - user: the scope string stored with the user's token at login or refresh;
 * - bot: the app's granted scopes as configured for the profile (`larkit config set bot-scopes "a b"`, or
 *   `LARKIT_BOT_SCOPES` with the environment provider), since a tenant token carries no scope list;
 * - extension providers: whatever their `grantedScopes` answers.
 * Unknown grants pass: the suite still refuses, and that refusal is mapped to `permission` with a hint.
 */
import type { RunContext } from "../context.ts";
import { errors, scopeConsoleUrl } from "../output/errors.ts";
import { loginCommandFor } from "./login_command.ts";
import type { Identity } from "./types.ts";

/** Scopes as written by people and the OAuth server: separated by spaces and/or commas. */
export function parseScopes(text: string | undefined): string[] {
  return [...new Set((text ?? "").split(/[\s,]+/).filter((s) => s.length > 0))];
}

export function missingScopes(granted: string[], required: string[]): string[] {
  const have = new Set(granted);
  return [...new Set(required)].filter((s) => !have.has(s));
}

/**
 * The next action for each identity, naming the exact command where there is one. The other identity is
 * suggested only when the command supports it (`supported`): a user-only command never hints `--as bot`.
 */
export function missingScopeHint(
  identity: Identity,
  missing: string[],
  profile?: string,
  supported: Identity[] = ["user", "bot"],
): string {
  if (identity === "user") {
    const login = loginCommandFor(profile)(missing);
    const other = supported.includes("bot") ? "; or run the command with --as bot" : "";
    return `grant them by logging in again: ${login}${other}`;
  }
  const other = supported.includes("user") ? "; or run the command with --as user" : "";
  return `ask the app admin to enable ${missing.join(", ")} in the developer console, then record them ` +
    `with \`larkit config set bot-scopes "<all granted scopes>"\`${other}`;
}

/** The contract's permission facts: the missing scopes and, for the app's, the console page that grants them. */
export async function scopeFacts(
  ctx: RunContext,
  identity: Identity,
  missing: string[],
): Promise<{ missing_scopes: string[]; console_url?: string }> {
  if (identity === "user") return { missing_scopes: missing };
  const account = await ctx.credentials().account();
  return {
    missing_scopes: missing,
    console_url: account.appId ? scopeConsoleUrl(account.endpoints.open, account.appId, missing) : undefined,
  };
}

/** Throws `missing_scope` when the identity's known grant lacks any required scope; unknown grants pass. */
export async function checkScopes(
  ctx: RunContext,
  identity: Identity,
  required: string[],
  supported?: Identity[],
): Promise<void> {
  if (required.length === 0) return;
  const granted = await ctx.credentials().grantedScopes(identity);
  if (granted === undefined) return;
  const missing = missingScopes(granted, required);
  if (missing.length === 0) return;
  throw errors.missingScope(`missing required scope(s) for ${identity}: ${missing.join(", ")}`, {
    hint: missingScopeHint(identity, missing, ctx.globals.profile, supported),
    ...await scopeFacts(ctx, identity, missing),
    detail: { identity, missing, required },
  });
}
