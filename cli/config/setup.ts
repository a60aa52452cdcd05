/**
 * `config init` and `profile add` as pure steps over the parsed config: build the profile from the app's
 * settings, place it, and say which old profiles lost their place (their credentials must be forgotten).
 */
import type { LarkitConfig, Profile } from "./config_file.ts";
import type { Brand } from "./endpoints.ts";
import { endpointsFor, isTrustedOrigin } from "./endpoints.ts";
import { addProfile, DEFAULT_PROFILE, upsertProfile } from "./profiles.ts";

export interface AppSettings {
  appId: string;
  brand: Brand;
  baseUrl?: string;
  /** `--allow-untrusted-endpoint`: the base URL may be off the suite's domains (recorded for that origin). */
  allowUntrustedEndpoint?: boolean;
  lang?: "zh" | "en";
}

export interface Placement {
  config: LarkitConfig;
  profile: Profile;
  /** Profiles that no longer exist (or now hold another app): forget their secrets and tokens. */
  dropped: Profile[];
}

/** The profile for these settings; a re-configured app keeps its user, default identity and scopes. */
function profileFor(name: string, app: AppSettings, previous: Profile | undefined): Profile {
  const kept = previous?.appId === app.appId ? previous : undefined;
  const baseUrl = app.brand === "custom"
    ? endpointsFor("custom", app.baseUrl, { allowUntrusted: app.allowUntrustedEndpoint }).open
    : undefined;
  return {
    ...(kept ?? { users: [] }),
    name,
    appId: app.appId,
    brand: app.brand,
    baseUrl,
    // Recorded only when it was needed, and for this origin only.
    confirmedEndpoint: baseUrl && app.allowUntrustedEndpoint && !isTrustedOrigin(baseUrl)
      ? baseUrl
      : undefined,
    lang: app.lang ?? kept?.lang,
  };
}

/**
 * Without a name, the configuration becomes this one app as profile "default" (the administrator's global
 * strict mode and credential providers stay); with a name, that profile is added or updated.
 */
export function placeInit(config: LarkitConfig | undefined, app: AppSettings, name?: string): Placement {
  const base: LarkitConfig = config ?? { profiles: [] };
  const target = name ?? DEFAULT_PROFILE;
  const previous = base.profiles.find((p) => p.name === target);
  const profile = profileFor(target, app, previous);
  if (name) {
    const placed = upsertProfile(base, profile);
    return {
      config: { ...placed, currentProfile: placed.currentProfile ?? profile.name },
      profile,
      dropped: previous && previous.appId !== app.appId ? [previous] : [],
    };
  }
  return {
    config: { ...base, currentProfile: profile.name, previousProfile: undefined, profiles: [profile] },
    profile,
    dropped: base.profiles.filter((p) => !(p.name === target && p.appId === app.appId)),
  };
}

/** `profile add`: a new name only; `use` makes it the current profile. */
export function placeNew(
  config: LarkitConfig | undefined,
  app: AppSettings,
  name: string,
  use: boolean,
): Placement {
  const base: LarkitConfig = config ?? { profiles: [] };
  const profile = profileFor(name, app, undefined);
  const placed = addProfile(base, profile);
  const current = placed.currentProfile ?? base.profiles[0]?.name;
  return {
    config: use
      ? {
        ...placed,
        currentProfile: name,
        previousProfile: current !== name ? current : placed.previousProfile,
      }
      : { ...placed, currentProfile: current ?? name },
    profile,
    dropped: [],
  };
}
