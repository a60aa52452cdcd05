/**
 * `config set <key> <value>` and `config remove` as checked steps over the parsed config. The settings that
 * decide where credentials go (`base-url`, `brand`) and what runs with them (`credential-providers`) are
 * checked here, so every caller gets the same rules: untrusted endpoints need a confirmation typed at a
 * terminal, and a provider program may not live where turns download files.
 */
import * as z from "zod";
import { checkProviderProgram } from "../auth/extension_provider.ts";
import { parseScopes } from "../auth/scopes.ts";
import type { RunContext } from "../context.ts";
import { errors } from "../output/errors.ts";
import type { Provider } from "../provider.ts";
import { confirmRisk } from "../risk.ts";
import { BRANDS, LANGS, type LarkitConfig, type Profile } from "./config_file.ts";
import { endpointsFor, isTrustedOrigin, parseBaseUrl, UNTRUSTED_FLAG } from "./endpoints.ts";
import { updateProfile } from "./profiles.ts";
import { lazy } from "../lazy.ts";
import { moveSecrets } from "./secret_store.ts";

export interface SettingOptions {
  /** `--allow-untrusted-endpoint`: the user confirms a base URL off the suite's domains. */
  allowUntrustedEndpoint?: boolean;
}

type Setter = (
  p: Provider,
  config: LarkitConfig,
  profile: Profile,
  value: string,
  opts: SettingOptions,
) => Promise<LarkitConfig> | LarkitConfig;

const SETTERS: Record<string, Setter> = {
  "brand": (_p, c, profile, v) => {
    const brand = z.enum(BRANDS).parse(v);
    endpointsFor(brand, profile.baseUrl, { allowUntrusted: confirmedFor(profile, profile.baseUrl) });
    return updateProfile(c, profile.name, { brand });
  },
  "base-url": (_p, c, profile, v, opts) => {
    const baseUrl = parseBaseUrl(v, { allowUntrusted: opts.allowUntrustedEndpoint });
    // Recorded only when it was needed: a suite or loopback origin carries no confirmation.
    return updateProfile(c, profile.name, {
      brand: "custom",
      baseUrl,
      confirmedEndpoint: isTrustedOrigin(baseUrl) ? undefined : baseUrl,
    });
  },
  "lang": (_p, c, profile, v) => updateProfile(c, profile.name, { lang: z.enum(LANGS).parse(v) }),
  "bot-scopes": (_p, c, profile, v) =>
    updateProfile(c, profile.name, { botScopes: v.trim() ? parseScopes(v) : undefined }),
  "secret-store": async (p, c, _profile, v) => {
    const to = z.enum(["file", "keychain"]).parse(v);
    const from = c.secretStore ?? "file";
    if (to === "keychain") {
      // Refused before anything moves when there is no keychain to move to (a headless machine).
      (await lazy("cli/config/keychain.ts")).probeKeychain(p);
    }
    await moveSecrets(p, c, from, to);
    return { ...c, secretStore: to === "file" ? undefined : to };
  },
  "credential-providers": async (p, c, _profile, v) => {
    const entries = v.trim() ? v.split(",").map((s) => s.trim()).filter(Boolean) : [];
    for (const entry of entries) await checkProviderProgram(p, entry);
    return { ...c, credentialProviders: entries.length ? entries : undefined };
  },
};

export const SETTING_KEYS = Object.keys(SETTERS);

/** Settings that decide where credentials go or what runs with them. */
const TERMINAL_ONLY = new Set(["base-url", "brand", "credential-providers", "secret-store"]);

function confirmedFor(profile: Profile, baseUrl: string | undefined): boolean {
  return profile.confirmedEndpoint !== undefined && profile.confirmedEndpoint === baseUrl;
}

/** The config after `config set key value`; a `validation` error names what is wrong and the fix. */
export async function applySetting(
  p: Provider,
  config: LarkitConfig,
  profile: Profile,
  key: string,
  value: string,
  opts: SettingOptions = {},
): Promise<LarkitConfig> {
  const setter = SETTERS[key];
  if (!setter) {
    throw errors.validation(`unknown setting "${key}"`, { hint: `one of: ${SETTING_KEYS.join(", ")}` });
  }
  if (opts.allowUntrustedEndpoint && key !== "base-url") {
    throw errors.validation(`${UNTRUSTED_FLAG} applies to base-url only`, {
      hint: `larkit config set base-url <url> ${UNTRUSTED_FLAG}`,
    });
  }
  // An in-process host (an agent-server turn) acts for a client; only the person at the terminal may decide
  // where this machine's credentials go and what runs with them. The agent server refuses `config` in turns
  // anyway; this holds for any other in-process host too.
  if (p.approver && (opts.allowUntrustedEndpoint || TERMINAL_ONLY.has(key))) {
    throw errors.permission(
      `${
        opts.allowUntrustedEndpoint ? UNTRUSTED_FLAG : `config set ${key}`
      } is refused inside an agent-server turn`,
      { hint: "run the command yourself at a terminal" },
    );
  }
  try {
    return await setter(p, config, profile, value, opts);
  } catch (e) {
    if (!(e instanceof z.$ZodError)) throw e;
    throw errors.validation(`invalid value for ${key}: "${value}"`, { hint: e.issues[0].message });
  }
}

/**
 * `config remove` deletes every profile, app secret and token: a high-risk step, so `--yes` or a "y" typed at
 * a terminal, like any high-risk write (an in-process host asks its approver).
 */
export async function confirmConfigRemove(ctx: RunContext, yes: boolean): Promise<void> {
  await confirmRisk(ctx, {
    risk: "high-risk-write",
    argv: ["config", "remove"],
    command: ["config", "remove"],
    yes,
    summary: { removes: ["config.json", "every profile", "every app secret and token"] },
  });
}
