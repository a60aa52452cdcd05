/**
 * `larkit auth login|status|logout|scopes|check`: user login by device flow and what the credentials allow.
 */
import { flag, type FlagValues } from "../../shortcuts/declare.ts";
import { requireAppSecret, selectUser } from "../auth/config_provider.ts";
import {
  completeLogin,
  type LoginResult,
  type LoginSession,
  pendingLogin,
  startLogin,
  USER_INFO_PATH,
} from "../auth/login.ts";
import { loginCommandFor } from "../auth/login_command.ts";
import { cachedRecommendation, domainScopes, parseDomains } from "../auth/recommended_scopes.ts";
import { parseScopes } from "../auth/scopes.ts";
import { checkGrant, describeAuth } from "../auth/status.ts";
import type { Account, Identity } from "../auth/types.ts";
import { readUserToken, tokenStatus, userTokenKey } from "../auth/user_token.ts";
import { readOnlyInTurns, refusedInTurns } from "../command_meta.ts";
import { IDENTITIES, loadConfig, saveConfig } from "../config/config_file.ts";
import { requireProfile, selectProfile, updateProfile } from "../config/profiles.ts";
import { appSecretKey, secretStore } from "../config/secret_store.ts";
import type { RunContext } from "../context.ts";
import { joinPath } from "../files.ts";
import { emitSuccess } from "../output/emit.ts";
import { errors } from "../output/errors.ts";
import { lazy } from "../lazy.ts";
import { type CommandModule, defineCommand } from "../resolve/declare.ts";
import { emitOutput, jqFlag, LIST_FORMATS, listFlags } from "./envelope_output.ts";

const LOGIN_FLAGS = {
  scope: flag.string(
    'scopes to grant, space-separated: --scope "calendar:calendar.event:read im:chat:read"',
    {
      placeholder: "scopes",
    },
  ),
  domain: flag.strings(
    "grant every scope the shortcuts of these services declare: --domain calendar,im, or all (repeatable)",
    { placeholder: "services" },
  ),
  exclude: flag.string("scopes not to ask for, space- or comma-separated", { placeholder: "scopes" }),
  recommend: flag.boolean(
    "only the recommended scopes (of --domain, else of every service): the suite's list registry refresh " +
      "cached, else the read-only ones",
  ),
  json: flag.boolean("the result with every scope list in full ([] when empty), not the summary"),
  wait: flag.negatable("print {verification_url, device_code, expires_in, hint} and return at once"),
  "device-code": flag.string("resume waiting for a code printed by --no-wait", { placeholder: "code" }),
};
type LoginFlags = FlagValues<typeof LOGIN_FLAGS>;

/** Logins are stored for a config profile; with another credential source a login would be ignored. */
function requireConfigSource(account: Account, action: string): void {
  if (account.source === "config") return;
  throw errors.config(`credentials come from ${account.source}, so ${action} does not apply to them`, {
    hint: account.source === "env"
      ? "unset the LARKIT_APP_* / token variables to use the configured profile, or set LARKIT_USER_ACCESS_TOKEN"
      : "the extension provider manages its own logins; remove it from credential-providers to use a profile",
  });
}

async function loginSession(ctx: RunContext): Promise<LoginSession> {
  const account = await ctx.credentials().account();
  if (account.strictMode === "bot") {
    throw errors.strictMode('strict mode is "bot": user login is not allowed', {
      hint:
        "this setting is managed by the administrator (larkit config strict-mode); do not change it as an agent",
    });
  }
  requireConfigSource(account, "auth login");
  const profile = requireProfile(await loadConfig(ctx.p), account.profile);
  const store = secretStore(ctx.p);
  return {
    p: ctx.p,
    send: ctx.http().send,
    store,
    profile,
    endpoints: account.endpoints,
    appSecret: await requireAppSecret(store, profile),
    user: ctx.globals.user,
    loginCommand: loginCommandFor(ctx.globals.profile, ctx.globals.user),
    signal: ctx.p.signal,
    waiting: (left) =>
      ctx.diag.status(`waiting for approval in the browser\u2026 ${left} s left on the code`),
  };
}

/**
 * The login's result: by default a summary an agent can read in one glance (who, how many scopes, what the
 * login added, what was refused: well under 1 KB); `--json` gives every list in full, `[]` when empty.
 */
async function reportLogin(ctx: RunContext, result: LoginResult, full: boolean): Promise<void> {
  await ctx.diag.status();
  const who = result.user_name ? `${result.user_name} (${result.user_open_id})` : result.user_open_id;
  await ctx.diag.info(`OK: Authorization successful! User: ${who}`);
  await ctx.diag.info(
    `  ${result.granted.length} scopes granted, ${result.newly_granted.length} of them new` +
      (full ? "" : " (larkit auth status --scopes lists them)"),
  );
  if (result.missing.length) {
    await ctx.diag.warn(
      `${result.missing.length} requested scope(s) not granted (ask the admin, or log in again with them)`,
    );
  }
  if (full) return await emitSuccess(ctx, { data: result });
  await emitSuccess(ctx, {
    data: {
      user_open_id: result.user_open_id,
      user_name: result.user_name,
      counts: {
        requested: result.requested.length,
        granted: result.granted.length,
        newly_granted: result.newly_granted.length,
        already_granted: result.already_granted.length,
        missing: result.missing.length,
      },
      // What to do next depends on these, so they are listed; at most a few in practice.
      missing: result.missing,
    },
  });
}

/** The scopes a login asks for, from its flags. */
async function requestedScopes(ctx: RunContext, flags: LoginFlags): Promise<string[]> {
  const { SHORTCUT_SERVICES } = await import("../../shortcuts/index.ts");
  const picked = flags.domain.length ? parseDomains(flags.domain, Object.keys(SHORTCUT_SERVICES)) : undefined;
  const scopes = new Set([
    ...parseScopes(flags.scope),
    ...(picked || flags.recommend
      ? await domainScopes(SHORTCUT_SERVICES, {
        domains: picked,
        readOnly: flags.recommend === true,
        recommended: flags.recommend
          ? await cachedRecommendation({
            files: ctx.p.files,
            cacheDir: ctx.p.paths.cacheDir,
            warn: (m) => ctx.diag.warn(m),
          })
          : undefined,
      })
      : []),
  ]);
  for (const s of parseScopes(flags.exclude)) scopes.delete(s);
  return [...scopes];
}

/** The picker at a terminal: the services with shortcuts, each granting what its shortcuts declare. */
async function pickDomains(pick: NonNullable<RunContext["p"]["stdin"]["pickMany"]>): Promise<string[]> {
  const { SHORTCUT_SERVICES } = await import("../../shortcuts/index.ts");
  const choices = Object.entries(SHORTCUT_SERVICES).map(([name, s]) => ({
    value: name,
    name,
    description: s.description,
  }));
  return await pick("Log in for which services? (space: select, a: all, enter: done)", choices);
}

const LOGIN_FLAGS_HINT = "larkit auth login --domain calendar,im (or all), --recommend for the read-only " +
  'scopes, --scope "<scope> <scope>"; --exclude "<scope>" drops some';

const login = defineCommand({
  words: ["auth", "login"],
  description:
    "log in as a user by device flow: prints a link to approve in a browser, then waits. Another person's " +
    "login adds a user to the profile (pick one per command with --user). At a terminal without flags, " +
    "pick the services from a list",
  flags: LOGIN_FLAGS,
  identities: ["user"],
  turn: refusedInTurns("stores new credentials on this machine"),
  async action(ctx, { flags }) {
    ctx.state.identity = "user";
    const session = await loginSession(ctx);
    const deviceCode = flags["device-code"];
    if (deviceCode) {
      await ctx.diag.info("Waiting for user authorization...");
      return await reportLogin(
        ctx,
        await completeLogin(session, await pendingLogin(session, deviceCode)),
        flags.json,
      );
    }
    if (flags.scope === undefined && flags.domain.length === 0 && !flags.recommend) {
      const pick = ctx.p.stdin.pickMany;
      // Only a person at a terminal is asked; an agent gets the flags it can give instead.
      if (!pick || flags.json) {
        throw errors.validation("please specify the scopes to authorize", { hint: LOGIN_FLAGS_HINT });
      }
      flags.domain = [(await pickDomains(pick)).join(",")];
    }
    const scopes = await requestedScopes(ctx, flags);
    if (scopes.length === 0) {
      throw errors.validation("no matching scopes found: every scope asked for was excluded", {
        hint: LOGIN_FLAGS_HINT,
      });
    }
    const { authorization, pending } = await startLogin(session, scopes);
    if (!flags.wait) {
      const resume = `${session.loginCommand([])} --device-code ${authorization.deviceCode}`;
      return await emitSuccess(ctx, {
        data: {
          verification_url: authorization.verificationUrl,
          device_code: authorization.deviceCode,
          expires_in: authorization.expiresIn,
          hint: `Show verification_url to the user, then immediately run: ${resume} (it blocks until the ` +
            "user approves or the code expires). Do not ask the user to run this command themselves.",
        },
      });
    }
    await ctx.diag.info(`Open this URL in your browser to authenticate:\n  ${authorization.verificationUrl}`);
    if (authorization.userCode) await ctx.diag.info(`User code: ${authorization.userCode}`);
    await ctx.diag.info("Waiting for user authorization...");
    await reportLogin(ctx, await completeLogin(session, pending), flags.json);
  },
});

const status = defineCommand({
  words: ["auth", "status"],
  aliases: ["whoami"],
  description:
    "who am I: profile, app, bot, each logged-in user with token expiry and scope counts, what --as auto " +
    "picks and why (no request unless --verify)",
  flags: {
    jq: jqFlag(),
    scopes: flag.boolean("list the granted scopes themselves, not just how many"),
    verify: flag.boolean(
      "prove each usable identity's token works (refreshing or minting it); fail if one does not",
    ),
  },
  turn: readOnlyInTurns("reports identities and token state, secrets redacted"),
  async action(ctx, { flags }) {
    const data = await describeAuth(ctx.p, ctx.credentials(), secretStore(ctx.p), { scopes: flags.scopes });
    if (flags.verify) data.verified = await verifyIdentities(ctx, data.identities);
    await emitOutput(ctx, ["auth", "status"], ["json"], flags, { data });
  },
});

const list = defineCommand({
  words: ["auth", "list"],
  description: "every profile's bot and logged-in user on this machine, one line each (no request)",
  flags: listFlags(),
  turn: readOnlyInTurns("lists profiles and user names; no secret"),
  async action(ctx, { flags }) {
    const config = await loadConfig(ctx.p);
    const current = selectProfile(config, ctx.globals.profile)?.name;
    const store = secretStore(ctx.p);
    const rows = [];
    for (const p of config?.profiles ?? []) {
      const secret = await store.get(appSecretKey(p.appId)) !== undefined;
      const base = { profile: p.name, current: p.name === current, appId: p.appId, brand: p.brand };
      rows.push({
        ...base,
        kind: "bot",
        name: null,
        openId: null,
        default: null,
        token: secret ? "app_secret" : "no_secret",
      });
      for (const [i, u] of p.users.entries()) {
        const token = await readUserToken(store, p.appId, u.openId);
        rows.push({
          ...base,
          kind: "user",
          name: u.name ?? null,
          openId: u.openId,
          default: i === 0,
          token: token ? tokenStatus(token, ctx.p.clock.now()) : "no_token",
        });
      }
    }
    await emitOutput(ctx, ["auth", "list"], LIST_FORMATS, flags, {
      data: rows,
      meta: { count: rows.length },
      columns: ["profile", "kind", "name", "openId", "default", "token", "current", "appId", "brand"],
    });
  },
});

/** A user token is proven by asking who it belongs to; a bot token by minting (or reusing) it. */
async function verifyIdentities(ctx: RunContext, identities: Identity[]): Promise<Identity[]> {
  for (const identity of identities) {
    if (identity === "user") {
      await ctx.http().call({ method: "GET", path: USER_INFO_PATH, identity, signal: ctx.p.signal });
    } else await ctx.credentials().token(identity, ctx.p.signal);
  }
  return identities;
}

const logout = defineCommand({
  words: ["auth", "logout"],
  description:
    "forget the profile's user tokens; with the global --user <name|open_id> only that user's (others stay)",
  flags: {},
  turn: refusedInTurns("deletes credentials on this machine"),
  async action(ctx) {
    const account = await ctx.credentials().account();
    requireConfigSource(account, "auth logout");
    const config = await loadConfig(ctx.p);
    const profile = requireProfile(config, account.profile);
    const store = secretStore(ctx.p);
    const gone = ctx.globals.user === undefined ? profile.users : [selectUser(profile, ctx.globals.user)!];
    for (const u of gone) await store.remove(userTokenKey(profile.appId, u.openId));
    const users = profile.users.filter((u) => !gone.includes(u));
    if (config) await saveConfig(ctx.p, updateProfile(config, profile.name, { users }));
    await ctx.diag.info(gone.length ? "OK: Logged out" : "Not logged in.");
    await emitSuccess(ctx, { data: { profile: profile.name, logged_out: gone, still_logged_in: users } });
  },
});

const scopes = defineCommand({
  words: ["auth", "scopes"],
  description: "the scopes each identity is known to hold (user: from the login; bot: config bot-scopes)",
  flags: { jq: jqFlag() },
  turn: readOnlyInTurns("lists granted scopes; no secret"),
  async action(ctx, { flags }) {
    const chain = ctx.credentials();
    const account = await chain.account();
    const [user, bot] = [await chain.grantedScopes("user"), await chain.grantedScopes("bot")];
    await emitOutput(ctx, ["auth", "scopes"], ["json"], flags, {
      data: {
        appId: account.appId,
        brand: account.brand,
        user: user === undefined ? null : { ...account.user, scopes: user },
        bot: bot === undefined ? null : { scopes: bot },
        note: bot === undefined
          ? 'bot scopes unknown: record the app\'s granted scopes with larkit config set bot-scopes "..."'
          : undefined,
      },
    });
  },
});

const check = defineCommand({
  words: ["auth", "check"],
  description: "whether the identity holds the given scopes; exits 1 when it does not",
  flags: {
    jq: jqFlag(),
    scope: flag.requiredString("the scopes a command needs, space-separated", { placeholder: "scopes" }),
    as: flag.choice(IDENTITIES, "user (default) or bot", { default: "user" }),
  },
  turn: readOnlyInTurns("compares scopes; no secret"),
  async action(ctx, { flags }) {
    const chain = ctx.credentials();
    const account = await chain.account();
    ctx.state.identity = flags.as;
    const result = checkGrant(flags.as, parseScopes(flags.scope), await chain.grantedScopes(flags.as), {
      loginCommand: loginCommandFor(ctx.globals.profile),
      loggedIn: account.user !== undefined || (await chain.identities()).includes("user"),
    });
    if (!result.ok) ctx.state.exitCode = 1;
    await emitOutput(ctx, ["auth", "check"], ["json"], flags, { data: result });
  },
});

const serve = defineCommand({
  words: ["auth", "serve"],
  description:
    "token broker for sandboxed agents: holds this machine's credentials and answers a short-lived access " +
    "token per request over a 0600 unix socket to runs with LARKIT_AUTH_BROKER=unix:<path>; they never " +
    "see a refresh token or the app secret. Serves until Ctrl-C",
  flags: {
    socket: flag.requiredString("the unix socket to listen on (made 0600)", { placeholder: "path" }),
    "allow-service": flag.strings(
      "only requests to these API services (the /open-apis/<service>/ of the path), comma-separated, repeatable",
      { placeholder: "services" },
    ),
    "read-only": flag.boolean("only requests whose method is a read"),
  },
  turn: refusedInTurns("serves this machine's credentials to other processes"),
  async action(ctx, { flags }) {
    const { serveTokens } = await lazy("cli/commands/auth_serve.ts");
    const socket = flags.socket.startsWith("/") ? flags.socket : joinPath(ctx.p.cwd, flags.socket);
    const socketPath = await serveTokens(ctx, {
      socket,
      allowService: flags["allow-service"],
      readOnly: flags["read-only"],
    });
    await emitSuccess(ctx, { data: { socket: socketPath, stopped: true } });
  },
});

export const authCommands: CommandModule = {
  groups: [{ words: ["auth"], description: "log in as a user and inspect credentials and scopes" }],
  commands: [login, status, list, serve, logout, scopes, check],
};
