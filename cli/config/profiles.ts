/**
 * Profiles: named app configurations inside the one config file. Pure functions over the parsed config;
 * the commands load, apply one of these and save.
 *
 * Selection: `--profile` (or LARKIT_PROFILE) > `currentProfile` > the first profile. A profile is found by
 * name first, then by app id, so `--profile cli_a1b2` works too.
 */
import { errors } from "../output/errors.ts";
import type { LarkitConfig, Profile } from "./config_file.ts";

export const DEFAULT_PROFILE = "default";

// Characters that break shells, paths or the hint commands larkit prints with the name in them.
const FORBIDDEN = /[\p{Cc}\s/\\"'`$#!&|;(){}[\]<>?*~]/u;

export function validateProfileName(name: string): string {
  if (name.length === 0 || [...name].length > 64 || FORBIDDEN.test(name)) {
    throw errors.validation(`invalid profile name "${name}"`, {
      hint: "use 1-64 letters, digits, '-', '_' or '.'; no spaces, quotes, slashes or shell characters",
    });
  }
  return name;
}

function findProfile(config: LarkitConfig, key: string): Profile | undefined {
  return config.profiles.find((p) => p.name === key) ?? config.profiles.find((p) => p.appId === key);
}

function notFound(config: LarkitConfig, key: string) {
  const names = config.profiles.map((p) => p.name);
  return errors.config(`profile "${key}" not found`, {
    hint: names.length ? `available profiles: ${names.join(", ")}` : "larkit profile add --name <name> ...",
  });
}

/** The profile this run uses; undefined when none is configured and none was asked for. */
export function selectProfile(config: LarkitConfig | undefined, requested?: string): Profile | undefined {
  if (requested) {
    const found = config && findProfile(config, requested);
    if (!found) throw notFound(config ?? { profiles: [] }, requested);
    return found;
  }
  if (!config || config.profiles.length === 0) return undefined;
  return (config.currentProfile && findProfile(config, config.currentProfile)) || config.profiles[0];
}

export function requireProfile(config: LarkitConfig | undefined, requested?: string): Profile {
  const profile = selectProfile(config, requested);
  if (!profile) {
    throw errors.config("not configured", {
      hint: "run larkit config init --app-id <id> --app-secret-stdin",
    });
  }
  return profile;
}

/** Adds the profile, or replaces the one with the same name; another profile with its app id is a conflict. */
export function upsertProfile(config: LarkitConfig, profile: Profile): LarkitConfig {
  validateProfileName(profile.name);
  const clash = config.profiles.find((p) => p.appId === profile.appId && p.name !== profile.name);
  if (clash) {
    throw errors.validation(`app ${profile.appId} is already configured as profile "${clash.name}"`, {
      hint: `use that profile (larkit profile use ${clash.name}) or remove it first`,
    });
  }
  const at = config.profiles.findIndex((p) => p.name === profile.name);
  const profiles = at === -1
    ? [...config.profiles, profile]
    : config.profiles.map((p, i) => i === at ? profile : p);
  return { ...config, profiles };
}

export function addProfile(config: LarkitConfig, profile: Profile): LarkitConfig {
  if (config.profiles.some((p) => p.name === profile.name)) {
    throw errors.validation(`profile "${profile.name}" already exists`, {
      hint: `pick another --name, or change it with larkit config init --name ${profile.name} ...`,
    });
  }
  return upsertProfile(config, profile);
}

export function updateProfile(config: LarkitConfig, name: string, change: Partial<Profile>): LarkitConfig {
  if (!config.profiles.some((p) => p.name === name)) throw notFound(config, name);
  return { ...config, profiles: config.profiles.map((p) => p.name === name ? { ...p, ...change } : p) };
}

/** `-` switches back to the previously used profile. */
export function useProfile(config: LarkitConfig, key: string): LarkitConfig {
  const target = key === "-" ? config.previousProfile : key;
  if (!target) {
    throw errors.validation("no previous profile to switch back to", { hint: "larkit profile list" });
  }
  const profile = findProfile(config, target);
  if (!profile) throw notFound(config, target);
  const current = selectProfile(config)?.name;
  return {
    ...config,
    currentProfile: profile.name,
    previousProfile: current !== profile.name ? current : config.previousProfile,
  };
}

export function renameProfile(config: LarkitConfig, from: string, to: string): LarkitConfig {
  validateProfileName(to);
  const profile = findProfile(config, from);
  if (!profile) throw notFound(config, from);
  if (config.profiles.some((p) => p.name === to)) {
    throw errors.validation(`profile "${to}" already exists`, { hint: "pick another name" });
  }
  const rename = (n: string | undefined) => n === profile.name ? to : n;
  return {
    ...config,
    currentProfile: rename(config.currentProfile),
    previousProfile: rename(config.previousProfile),
    profiles: config.profiles.map((p) => p === profile ? { ...p, name: to } : p),
  };
}

/** Removes a profile; the caller deletes its secret and tokens. The only profile cannot be removed. */
export function removeProfile(config: LarkitConfig, key: string): { config: LarkitConfig; removed: Profile } {
  const removed = findProfile(config, key);
  if (!removed) throw notFound(config, key);
  if (config.profiles.length === 1) {
    throw errors.validation(`"${removed.name}" is the only profile and cannot be removed`, {
      hint: "to remove all configuration: larkit config remove --yes",
    });
  }
  const profiles = config.profiles.filter((p) => p !== removed);
  const clear = (n: string | undefined) => n === removed.name ? undefined : n;
  return {
    config: {
      ...config,
      currentProfile: clear(config.currentProfile) ?? profiles[0].name,
      previousProfile: clear(config.previousProfile),
      profiles,
    },
    removed,
  };
}
