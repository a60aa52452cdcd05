/**
 * The default credential provider, asked last: the selected profile of the config file, its app secret and
 * user token from the secret store. It passes (so the chain reports "not configured") when no profile exists.
 */
import type { LarkitConfig, Profile, ProfileUser } from "../config/config_file.ts";
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

/**
 * The user this run acts for: the one `--user` / LARKIT_USER names (by open_id, else by name), or the
 * profile's default, its most recent login (listed first). A name that matches no login, or two of them, is an
 * `auth` error listing who is logged in: acting for somebody else instead would be the worst answer.
 */
export function selectUser(profile: Profile, wanted: string | undefined): ProfileUser | undefined {
  if (wanted === undefined) return profile.users[0];
  const byId = profile.users.find((u) => u.openId === wanted);
  if (byId) return byId;
  const byName = profile.users.filter((u) => u.name === wanted);
  if (byName.length === 1) return byName[0];
  const who = profile.users.map((u) => u.name ? `${u.name} (${u.openId})` : u.openId).join(", ");
  const why = byName.length > 1
    ? `${byName.length} logged-in users are named "${wanted}"`
    : `"${wanted}" is not logged in`;
  throw errors.auth(`${why} on profile "${profile.name}"`, {
    hint: profile.users.length
      ? `give --user one of: ${who}; or log that person in: larkit auth login`
      : "no user is logged in on this profile: larkit auth login",
    detail: { users: profile.users },
  });
}

function profileSource(
  deps: ProviderDeps & { user?: string },
  config: LarkitConfig,
  profile: Profile,
): CredentialSource {
  const { p, store } = deps;
  const endpoints = endpointsFor(profile.brand, profile.baseUrl, {
    allowUntrusted: profile.confirmedEndpoint !== undefined && profile.confirmedEndpoint === profile.baseUrl,
  });
  // A `--user` naming nobody logged in fails the first use of the user identity, not the account: the bot
  // identity and `auth login` (which may be about to log that person in) still work.
  let unknownUser: unknown;
  let user: ProfileUser | undefined;
  try {
    user = selectUser(profile, deps.user);
  } catch (e) {
    unknownUser = e;
  }
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
      // A user named by --user is what the run asked for: auto picks the user identity, whose token request
      // then says why that login is unusable, rather than acting as the bot instead.
      const alive = token && (await userTokens()).tokenStatus(token, p.clock.now()) !== "expired";
      if (alive || deps.user !== undefined) ids.push("user");
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
      if (unknownUser) throw unknownUser;
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
  deps: ProviderDeps & { config: () => Promise<LarkitConfig | undefined>; profile?: string; user?: string },
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
