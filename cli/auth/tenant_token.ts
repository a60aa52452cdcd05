/**
 * Bot (tenant) access tokens: minted from the app id and secret, cached on disk in the secret store until
 * shortly before they expire, so consecutive commands do not each pay a token request.
 *
 * The cache key is a hash of (OpenAPI origin, app id, app secret): a rotated secret or another base URL can
 * never be served a token minted for different credentials, and the env provider shares the cache safely.
 */
import * as z from "zod";
import type { Endpoints } from "../config/endpoints.ts";
import type { SecretStore } from "../config/secret_store.ts";
import { suiteError } from "../http/suite_errors.ts";
import { errors } from "../output/errors.ts";
import type { Provider } from "../provider.ts";
import type { Send } from "./oauth_token.ts";
import type { AccessToken } from "./types.ts";

export const TENANT_TOKEN_PATH = "/open-apis/auth/v3/tenant_access_token/internal";
/** Re-mint this long before expiry (the suite also hands out a new token in its last 30 minutes). */
export const TENANT_REFRESH_AHEAD_MS = 5 * 60_000;

// Schemas are built on first parse, not at import: most runs never parse these (start-up).
const MintResponseSchema = z.lazy(() =>
  z.object({
    code: z.number(),
    msg: z.optional(z.string()),
    tenant_access_token: z.optional(z.string()),
    /** Seconds. */
    expire: z.optional(z.number()),
  })
);

const CachedSchema = z.lazy(() => z.object({ token: z.string(), expiresAt: z.number() }));

export interface TenantTokenDeps {
  p: Provider;
  store: SecretStore;
  send: Send;
  endpoints: Endpoints;
  appId: string;
  appSecret: string;
  signal?: AbortSignal;
  /** Skip the cache read (`--record`): see `ChainOptions.freshBotToken`. */
  freshBotToken?: boolean;
}

export async function tenantTokenCacheKey(origin: string, appId: string, appSecret: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(`${origin}\n${appId}\n${appSecret}`),
  );
  return `tat:${new Uint8Array(digest).toHex().slice(0, 32)}`;
}

async function mint(deps: TenantTokenDeps): Promise<{ token: string; expiresAt: number }> {
  const res = await deps.send(new URL(TENANT_TOKEN_PATH, deps.endpoints.open).toString(), {
    method: "POST",
    headers: { "Content-Type": "application/json; charset=utf-8" },
    body: JSON.stringify({ app_id: deps.appId, app_secret: deps.appSecret }),
  }, { signal: deps.signal, label: TENANT_TOKEN_PATH });
  let body: z.infer<typeof MintResponseSchema>;
  try {
    body = MintResponseSchema.parse(await res.json());
  } catch {
    throw errors.network(`the tenant token endpoint answered HTTP ${res.status} with an unreadable body`, {
      hint: "check the configured brand / base URL (larkit config show) and retry",
    });
  }
  if (body.code !== 0 || !body.tenant_access_token) {
    const mapped = suiteError({ code: body.code, msg: body.msg ?? "", status: res.status, identity: "bot" });
    if (mapped.subtype !== "api_error") throw mapped;
    throw errors.auth(`the tenant access token was refused: [${body.code}] ${body.msg ?? ""}`, {
      code: body.code,
      hint: "check the app id and secret: larkit config show",
    });
  }
  return { token: body.tenant_access_token, expiresAt: deps.p.clock.now() + (body.expire ?? 7200) * 1000 };
}

export async function tenantToken(deps: TenantTokenDeps): Promise<AccessToken> {
  const key = await tenantTokenCacheKey(deps.endpoints.open, deps.appId, deps.appSecret);
  const cached = CachedSchema.safeParse(
    deps.freshBotToken ? null : JSON.parse(await deps.store.get(key) ?? "null"),
  );
  if (cached.success && cached.data.expiresAt - TENANT_REFRESH_AHEAD_MS > deps.p.clock.now()) {
    return { identity: "bot", token: cached.data.token, expiresAt: cached.data.expiresAt };
  }
  const fresh = await mint(deps);
  await deps.store.set(key, JSON.stringify(fresh));
  return { identity: "bot", token: fresh.token, expiresAt: fresh.expiresAt };
}

/**
 * Forgets the cached token the suite rejected, so the next `tenantToken` mints a new one. A cache entry holding
 * another token is kept: a concurrent larkit process already replaced the rejected one.
 */
export async function dropRejectedTenantToken(deps: TenantTokenDeps, rejected: string): Promise<void> {
  const key = await tenantTokenCacheKey(deps.endpoints.open, deps.appId, deps.appSecret);
  const cached = CachedSchema.safeParse(JSON.parse(await deps.store.get(key) ?? "null"));
  if (!cached.success || cached.data.token === rejected) await deps.store.remove(key);
}
