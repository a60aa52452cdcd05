/**
 * The default credential provider, asked last: the selected profile of the config file, its app secret and
 * user token from the secret store. It passes (so the chain reports "not configured") when no profile exists.
 */
import type { LarkitConfig, Profile } from "../config/config_file.ts";
import { endpointsFor } from "../config/endpoints.ts";
import { selectProfile } from "../config/profiles.ts";
import { appSecretKey, type SecretStore } from "../config/secret_store.ts";
import { errors } from "../output/errors.ts";
import type { ProviderDeps } from "./provider_deps.ts";
import { parseScopes } from "./scopes.ts";
import { lazy } from "../lazy.ts";
import type { CredentialProvider, CredentialSource, Identity } from "./types.ts";

/** The token stores and their zod schemas load with the first token read, not with the account. */
const tenantTokens = () => lazy("cli/auth/tenant_token.ts");
const userTokens = () => lazy("cli/auth/user_token.ts");

export async function requireAppSecret(store: SecretStore, profile: Profile): Promise<string> {
  const secret = await store.get(appSecretKey(profile.appId));
  if (!secret) {
    throw errors.config(`no app secret is stored for profile "${profile.name}"`, {
      hint: `larkit config init --name ${profile.name} --app-id ${profile.appId} --app-secret-stdin`,
    });
  }
  return secret;
}

function profileSource(deps: ProviderDeps, config: LarkitConfig, profile: Profile): CredentialSource {
  const { p, store } = deps;
  const endpoints = endpointsFor(profile.brand, profile.baseUrl, {
    allowUntrusted: profile.confirmedEndpoint !== undefined && profile.confirmedEndpoint === profile.baseUrl,
  });
  const user = profile.users[0];
  const userToken = () =>
    user
      ? userTokens().then((u) => u.readUserToken(store, profile.appId, user.openId))
      : Promise.resolve(undefined);
  const appSecret = () => requireAppSecret(store, profile);
  return {
    account: {
      source: "config",
      profile: profile.name,
      appId: profile.appId,
      brand: profile.brand,
      endpoints,
      defaultAs: profile.defaultAs,
      strictMode: profile.strictMode ?? config.strictMode ?? "off",
      user: user && { openId: user.openId, name: user.name },
    },
    async identities() {
      const ids: Identity[] = [];
      const token = await userToken();
      if (token && (await userTokens()).tokenStatus(token, p.clock.now()) !== "expired") ids.push("user");
      if (await store.get(appSecretKey(profile.appId))) ids.push("bot");
      return ids;
    },
    async grantedScopes(identity) {
      if (identity === "bot") return profile.botScopes;
      const token = await userToken();
      return token && parseScopes(token.scope);
    },
    async token(identity, signal) {
      if (identity === "bot") {
        return await (await tenantTokens()).tenantToken({
          ...deps,
          endpoints,
          appId: profile.appId,
          appSecret: await appSecret(),
          signal,
        });
      }
      if (!user) {
        throw errors.auth(`no user is logged in for profile "${profile.name}"`, {
          hint: `log in: ${deps.loginCommand([])}`,
        });
      }
      const t = await (await userTokens()).validUserToken(
        { ...deps, endpoints, appId: profile.appId, appSecret, signal },
        user.openId,
      );
      return { identity, token: t.accessToken, scopes: parseScopes(t.scope), expiresAt: t.expiresAt };
    },
    async invalidate(identity, token, signal) {
      if (identity === "bot") {
        const bot = { ...deps, endpoints, appId: profile.appId, appSecret: await appSecret(), signal };
        await (await tenantTokens()).dropRejectedTenantToken(bot, token);
        return true;
      }
      if (!user) return false;
      await (await userTokens()).refreshRejectedUserToken(
        { ...deps, endpoints, appId: profile.appId, appSecret, signal },
        user.openId,
        token,
      );
      return true;
    },
    appSecret,
  };
}

export function configProvider(
  deps: ProviderDeps & { config: () => Promise<LarkitConfig | undefined>; profile?: string },
): CredentialProvider {
  return {
    name: "config",
    async resolve() {
      const config = await deps.config();
      const profile = selectProfile(config, deps.profile);
      return config && profile ? profileSource(deps, config, profile) : undefined;
    },
  };
}
