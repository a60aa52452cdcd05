/**
 * Deletes everything a profile left in the secret store: its app secret, its users' tokens and its cached
 * bot token -- so a removed or replaced profile leaves no usable credential behind.
 */
import type { Profile } from "../config/config_file.ts";
import { endpointsFor } from "../config/endpoints.ts";
import { appSecretKey, type SecretStore } from "../config/secret_store.ts";
import { tenantTokenCacheKey } from "./tenant_token.ts";
import { userTokenKey } from "./user_token.ts";

export async function forgetProfileCredentials(store: SecretStore, profile: Profile): Promise<void> {
  const secret = await store.get(appSecretKey(profile.appId));
  if (secret !== undefined) {
    // Only the cache key is computed here, nothing is sent: an unconfirmed host must not block the cleanup.
    const origin = endpointsFor(profile.brand, profile.baseUrl, { allowUntrusted: true }).open;
    await store.remove(await tenantTokenCacheKey(origin, profile.appId, secret));
  }
  for (const user of profile.users) await store.remove(userTokenKey(profile.appId, user.openId));
  await store.remove(appSecretKey(profile.appId));
}
