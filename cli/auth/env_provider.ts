/**
 * The environment credential provider, registered at start-up ahead of every other provider: a CI job or an
 * agent sandbox configures larkit with variables alone, and they win over the config file for that run.
 *
 * | variable | meaning |
 * |---|---|
 * | LARKIT_APP_ID / LARKIT_APP_SECRET | app credentials; bot tokens are minted from them |
 * | LARKIT_USER_ACCESS_TOKEN | a user token used verbatim (not refreshed) |
 * | LARKIT_TENANT_ACCESS_TOKEN | a bot token used verbatim |
 * | LARKIT_BRAND | feishu (default), lark, or custom |
 * | LARKIT_BASE_URL | the origin of a custom brand (https; http only on loopback); implies custom |
 * | LARKIT_DEFAULT_AS | user, bot or auto |
 * | LARKIT_STRICT_MODE | bot, user or off (default off) |
 * | LARKIT_BOT_SCOPES | the app's granted scopes, for the bot-side scope pre-check |
 *
 * Each is also read as `LARKSUITE_CLI_<NAME>` when the `LARKIT_` one is unset, so lark-cli setups keep
 * working. None of them set -> the provider passes; an incomplete set is a `config` error, not a silent skip,
 * because falling through to another account would act with credentials the caller did not mean.
 */
import { endpointsFor } from "../config/endpoints.ts";
import { AS_VALUES, BRANDS, STRICT_MODES } from "../config/values.ts";
import { errors } from "../output/errors.ts";
import type { Env } from "../provider.ts";
import type { ProviderDeps } from "./provider_deps.ts";
import { lazy } from "../lazy.ts";
import type { CredentialProvider, CredentialSource, Identity } from "./types.ts";

const PREFIXES = ["LARKIT_", "LARKSUITE_CLI_"];

/** `LARKIT_BOT_SCOPES` is parsed when a scope check asks for it, not with the account (start-up). */
const scopes = () => lazy("cli/auth/scopes.ts");

/** The bot token cache and its zod schemas load with the first token asked for, not with the account. */
const tenantTokens = () => lazy("cli/auth/tenant_token.ts");

export function envValue(env: Env, name: string): string | undefined {
  for (const prefix of PREFIXES) {
    const value = env.get(prefix + name);
    if (value) return value;
  }
  return undefined;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[]): T | undefined {
  const value = envValue(env, name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw errors.config(`LARKIT_${name} must be one of ${allowed.join(", ")}, not "${value}"`, {
      hint: `fix or unset LARKIT_${name}`,
    });
  }
  return value as T;
}

function fromEnvironment(deps: ProviderDeps): CredentialSource | undefined {
  const env = deps.p.env;
  const appId = envValue(env, "APP_ID");
  const appSecret = envValue(env, "APP_SECRET");
  const userToken = envValue(env, "USER_ACCESS_TOKEN");
  const botToken = envValue(env, "TENANT_ACCESS_TOKEN");
  if (!appId && !appSecret && !userToken && !botToken) return undefined;
  if (appSecret && !appId) {
    throw errors.config("LARKIT_APP_SECRET is set but LARKIT_APP_ID is missing", {
      hint: "set LARKIT_APP_ID too, or unset LARKIT_APP_SECRET to use the configured profile",
    });
  }
  if (appId && !appSecret && !userToken && !botToken) {
    throw errors.config("LARKIT_APP_ID is set but neither LARKIT_APP_SECRET nor an access token is", {
      hint: "set LARKIT_APP_SECRET, or unset LARKIT_APP_ID to use the configured profile",
    });
  }
  const baseUrl = envValue(env, "BASE_URL");
  const brand = oneOf(env, "BRAND", BRANDS) ?? (baseUrl ? "custom" : "feishu");
  // The environment is set where larkit is started, never by a turn: it may confirm an untrusted host itself.
  const endpoints = endpointsFor(brand, baseUrl, {
    allowUntrusted: envValue(env, "ALLOW_UNTRUSTED_ENDPOINT") === "1",
  });
  const account = {
    source: "env",
    appId,
    brand,
    endpoints,
    defaultAs: oneOf(env, "DEFAULT_AS", AS_VALUES),
    strictMode: oneOf(env, "STRICT_MODE", STRICT_MODES) ?? "off",
  };
  const botScopes = envValue(env, "BOT_SCOPES");
  return {
    account,
    identities() {
      const ids: Identity[] = [];
      if (userToken) ids.push("user");
      if (appSecret || botToken) ids.push("bot");
      return Promise.resolve(ids);
    },
    async grantedScopes(identity) {
      return identity === "bot" && botScopes !== undefined
        ? (await scopes()).parseScopes(botScopes)
        : undefined;
    },
    async token(identity, signal) {
      if (identity === "user") {
        if (!userToken) {
          throw errors.auth("no user token: credentials come from the environment, which has none", {
            hint:
              "set LARKIT_USER_ACCESS_TOKEN, or unset the LARKIT_APP_* variables and run larkit auth login",
          });
        }
        return { identity, token: userToken };
      }
      if (botToken) return { identity, token: botToken };
      if (!appId || !appSecret) {
        throw errors.auth(
          "no bot token: the environment has neither LARKIT_TENANT_ACCESS_TOKEN nor app credentials",
          {
            hint: "set LARKIT_APP_SECRET or LARKIT_TENANT_ACCESS_TOKEN",
          },
        );
      }
      return await (await tenantTokens()).tenantToken({ ...deps, endpoints, appId, appSecret, signal });
    },
    async invalidate(identity, token, signal) {
      // Tokens given verbatim cannot be replaced; only a bot token minted from the app secret can.
      if (identity === "user" || botToken || !appId || !appSecret) return false;
      await (await tenantTokens()).dropRejectedTenantToken(
        { ...deps, endpoints, appId, appSecret, signal },
        token,
      );
      return true;
    },
    ...(appSecret ? { appSecret: () => Promise.resolve(appSecret) } : {}),
  };
}

export function envProvider(deps: ProviderDeps): CredentialProvider {
  return { name: "env", resolve: () => Promise.resolve().then(() => fromEnvironment(deps)) };
}
