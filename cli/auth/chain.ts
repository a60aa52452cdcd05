/**
 * FIRST VERSION, to be replaced by the auth work: the credential chain with only the environment provider
 * (LARKIT_APP_ID, LARKIT_APP_SECRET, LARKIT_BRAND, LARKIT_BASE_URL, LARKIT_TENANT_ACCESS_TOKEN,
 * LARKIT_USER_ACCESS_TOKEN). Bot tokens are minted from the app credentials.
 */
import { endpointsFor, type Brand } from "../config/endpoints.ts";
import type { Diagnostics } from "../output/diagnostics.ts";
import { errors } from "../output/errors.ts";
import type { Provider } from "../provider.ts";
import type { AccessToken, Account, CredentialChain, Identity } from "./types.ts";

export function createCredentialChain(
  p: Provider,
  _opts: { profile?: string; diag: Diagnostics },
): CredentialChain {
  const env = (k: string) => p.env.get(`LARKIT_${k}`) || undefined;
  let tenant: AccessToken | undefined;

  async function account(): Promise<Account> {
    const appId = env("APP_ID");
    if (!appId && !env("TENANT_ACCESS_TOKEN") && !env("USER_ACCESS_TOKEN")) {
      throw errors.config("not configured", { hint: "run larkit config init --app-id <id> --app-secret-stdin" });
    }
    const brand = (env("BRAND") ?? (env("BASE_URL") ? "custom" : "feishu")) as Brand;
    return { source: "env", appId, brand, endpoints: endpointsFor(brand, env("BASE_URL")), strictMode: "off" };
  }

  async function token(identity: Identity, signal?: AbortSignal): Promise<AccessToken> {
    if (identity === "user") {
      const t = env("USER_ACCESS_TOKEN");
      if (!t) throw errors.auth("no user is logged in", { hint: "larkit auth login" });
      return { identity, token: t };
    }
    const given = env("TENANT_ACCESS_TOKEN");
    if (given) return { identity, token: given };
    if (tenant) return tenant;
    const acct = await account();
    const res = await p.fetch(new URL("/open-apis/auth/v3/tenant_access_token/internal", acct.endpoints.open), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ app_id: acct.appId, app_secret: env("APP_SECRET") }),
      signal,
    });
    const body = await res.json() as { code: number; msg: string; tenant_access_token?: string };
    if (body.code !== 0 || !body.tenant_access_token) {
      throw errors.auth(`tenant access token refused: [${body.code}] ${body.msg}`, { hint: "larkit config show" });
    }
    return tenant = { identity, token: body.tenant_access_token };
  }

  async function identities(): Promise<Identity[]> {
    const ids: Identity[] = [];
    if (env("APP_SECRET") || env("TENANT_ACCESS_TOKEN")) ids.push("bot");
    if (env("USER_ACCESS_TOKEN")) ids.push("user");
    return ids;
  }

  return { account, token, identities };
}
