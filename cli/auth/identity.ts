/**
 * Which identity a command runs as. The rule is fixed, so an agent can predict it:
 *
 * 1. Strict mode (from the account) forces its identity; an explicit `--as` naming the other one is a
 *    `strict_mode` error rather than a silent switch, and a command that cannot run as the forced identity
 *    is refused the same way (help and completion hide it already).
 * 2. An explicit `--as user|bot` is used as given, if the command supports it.
 * 3. Without `--as`, the account's default (`config default-as`, LARKIT_DEFAULT_AS) is used when it is not
 *    `auto`. `--as auto` skips this step on purpose.
 * 4. Auto: the first of user, bot that the command supports and that has credentials now (a logged-in user
 *    whose refresh token is alive; an app secret or a given bot token). A logged-in user wins because a
 *    person who logged in expects to act as themselves. A domain that means the person by default (calendar
 *    shortcuts, as in the reference) refuses to fall back to the bot here: `auth` error naming both ways on.
 */
import type { RunContext } from "../context.ts";
import { errors } from "../output/errors.ts";
import type { AsFlag, Identity, StrictMode } from "./types.ts";

/** Auto's preference, first match wins. */
export const AUTO_ORDER: readonly Identity[] = ["user", "bot"];

export interface IdentityRequest {
  flag?: AsFlag;
  supported: Identity[];
  /**
   * The domain whose commands mean the person by default (the reference's calendar guard: "my agenda" is not
   * the bot's): auto landing on the bot because no user is logged in is refused, naming both ways on.
   */
  userByDefault?: string;
}

function strictRefusal(mode: Exclude<StrictMode, "off">, why: string) {
  return errors.strictMode(`strict mode is "${mode}": ${why}`, {
    hint:
      `only the ${mode} identity is allowed; run without --as or with --as ${mode}. This setting is managed by ` +
      "the administrator (larkit config strict-mode); do not change it as an agent",
  });
}

function unsupported(identity: Identity, via: string, supported: Identity[]) {
  return errors.validation(
    `${via} "${identity}" is not supported, this command only supports: ${supported.join(", ")}`,
    { hint: `use --as ${supported[0]}` },
  );
}

function noCredentials(supported: Identity[]) {
  if (!supported.includes("user")) {
    return errors.config("the bot identity needs the app secret, and none is configured", {
      hint: "larkit config init --app-id <id> --app-secret-stdin",
    });
  }
  const bot = supported.includes("bot")
    ? "; or configure the app secret for the bot identity: larkit config init --app-id <id> --app-secret-stdin"
    : "";
  return errors.auth(`no credentials for the ${supported.join(" or ")} identity: no user is logged in`, {
    hint: `log in: larkit auth login${bot}`,
  });
}

/** Resolves the identity for a command (see the rule above) and records it for the envelope. */
export async function resolveIdentity(ctx: RunContext, req: IdentityRequest): Promise<Identity> {
  const chain = ctx.credentials();
  const account = await chain.account();
  const explicit = req.flag === "user" || req.flag === "bot" ? req.flag : undefined;
  let identity: Identity | undefined;
  if (account.strictMode !== "off") {
    const mode = account.strictMode;
    if (explicit && explicit !== mode) throw strictRefusal(mode, `--as ${explicit} is not allowed`);
    if (!req.supported.includes(mode)) {
      throw strictRefusal(mode, `this command only supports ${req.supported.join(", ")}`);
    }
    identity = mode;
  } else if (explicit) {
    if (!req.supported.includes(explicit)) throw unsupported(explicit, "--as", req.supported);
    identity = explicit;
  } else if (req.flag === undefined && account.defaultAs && account.defaultAs !== "auto") {
    if (!req.supported.includes(account.defaultAs)) {
      // Named where it was set, so the fix is found where the value came from.
      const where = account.source === "env"
        ? "LARKIT_DEFAULT_AS"
        : account.source === "config"
        ? "config default-as"
        : `the ${account.source} provider's default`;
      throw unsupported(account.defaultAs, `default identity (${where})`, req.supported);
    }
    identity = account.defaultAs;
  } else {
    const available = await chain.identities();
    identity = AUTO_ORDER.find((i) => req.supported.includes(i) && available.includes(i));
    if (!identity) throw noCredentials(req.supported);
    if (identity === "bot" && req.userByDefault && req.supported.includes("user")) {
      throw errors.auth(
        `${req.userByDefault} commands act as the logged-in user by default, and no user is logged in`,
        { hint: "log in: larkit auth login; to act as the app's bot on purpose, rerun with --as bot" },
      );
    }
  }
  ctx.state.identity = identity;
  return identity;
}
