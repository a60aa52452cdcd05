/**
 * `larkit config init|show|set|remove|strict-mode|default-as`: the config file and the app secret.
 */
import { flag } from "../../shortcuts/declare.ts";
import { forgetProfileCredentials } from "../auth/forget_profile.ts";
import type { AsFlag, StrictMode } from "../auth/types.ts";
import { readOnlyInTurns, refusedInTurns } from "../command_meta.ts";
import {
  AS_VALUES,
  configPath,
  type LarkitConfig,
  loadConfig,
  type Profile,
  saveConfig,
  STRICT_MODES,
} from "../config/config_file.ts";
import { requireProfile, updateProfile, validateProfileName } from "../config/profiles.ts";
import { appSecretKey, keychainKeys, secretsDir, secretStore } from "../config/secret_store.ts";
import { applySetting, confirmConfigRemove, SETTING_KEYS } from "../config/settings.ts";
import { placeInit } from "../config/setup.ts";
import type { RunContext } from "../context.ts";
import { emitSuccess } from "../output/emit.ts";
import { errors } from "../output/errors.ts";
import { type CommandModule, defineCommand } from "../resolve/declare.ts";
import { appCredentialsFrom, appFlags, appFlagsOf, appSettingsFrom } from "./app_flags.ts";
import { emitOutput, jqFlag } from "./envelope_output.ts";

const AGENT_WARNING = "managed by the administrator: AI agents must not change it";

async function loaded(ctx: RunContext): Promise<{ config: LarkitConfig; profile: Profile }> {
  const config = await loadConfig(ctx.p);
  return { config: config ?? { profiles: [] }, profile: requireProfile(config, ctx.globals.profile) };
}

const init = defineCommand({
  words: ["config", "init"],
  description: "configure the app (replaces the configuration, or with --name adds/updates that profile)",
  flags: {
    ...appFlags(),
    name: flag.string("add or update this named profile instead of replacing the configuration", {
      placeholder: "profile",
    }),
  },
  turn: refusedInTurns("writes the app configuration and secret"),
  async action(ctx, { flags }) {
    const app = appFlagsOf(flags);
    if (flags.name) validateProfileName(flags.name);
    const { appId, appSecret } = await appCredentialsFrom(ctx, app, "config init");
    const placed = placeInit(await loadConfig(ctx.p), appSettingsFrom(app, appId), flags.name);
    const store = secretStore(ctx.p);
    for (const old of placed.dropped) await forgetProfileCredentials(store, old);
    await store.set(appSecretKey(appId), appSecret);
    await saveConfig(ctx.p, placed.config);
    await ctx.diag.info(`OK: Configuration saved to ${configPath(ctx.p)}`);
    const { name, brand, baseUrl } = placed.profile;
    await emitSuccess(ctx, { data: { profile: name, appId, appSecret: "****", brand, baseUrl } });
  },
});

const show = defineCommand({
  words: ["config", "show"],
  description: "show the selected profile's configuration (the secret is never shown)",
  flags: { jq: jqFlag() },
  turn: readOnlyInTurns("shows the configuration, the secret masked"),
  async action(ctx, { flags }) {
    const { config: file, profile } = await loaded(ctx);
    const hasSecret = await secretStore(ctx.p).get(appSecretKey(profile.appId)) !== undefined;
    await ctx.diag.info(`Config file path: ${configPath(ctx.p)}`);
    await emitOutput(ctx, show.words, ["json"], flags, {
      data: {
        profile: profile.name,
        appId: profile.appId,
        appSecret: hasSecret ? "****" : "(not set)",
        brand: profile.brand,
        baseUrl: profile.baseUrl,
        lang: profile.lang,
        defaultAs: profile.defaultAs ?? "auto",
        strictMode: profile.strictMode ?? file.strictMode ?? "off",
        botScopes: profile.botScopes,
        users: profile.users,
        credentialProviders: file.credentialProviders,
      },
    });
  },
});

const set = defineCommand({
  words: ["config", "set"],
  description:
    "change one setting: brand, base-url, lang, bot-scopes (the app's granted scopes, space-separated; " +
    '"" = unknown), credential-providers (comma-separated provider programs; "" = none), secret-store ' +
    "(file: the encrypted file, the default; keychain: the OS keychain; the secrets move over)",
  flags: {
    // UNTRUSTED_FLAG, spelt out so the flag's value is typed.
    "allow-untrusted-endpoint": flag.boolean(
      "base-url: accept a host off the suite's domains (it will receive your tokens and app secret)",
    ),
  },
  args: [
    { name: "key", description: SETTING_KEYS.join(", "), required: true },
    { name: "value", description: "the new value", required: true },
  ],
  turn: refusedInTurns("changes endpoints or credential providers: a turn could redirect tokens or run code"),
  async action(ctx, { flags, args: [key, value] }) {
    const { config: file, profile } = await loaded(ctx);
    const next = await applySetting(ctx.p, file, profile, key, value, {
      allowUntrustedEndpoint: flags["allow-untrusted-endpoint"],
    });
    await saveConfig(ctx.p, next);
    await emitSuccess(ctx, { data: { profile: profile.name, key, value } });
  },
});

const remove = defineCommand({
  words: ["config", "remove"],
  description: "remove the whole configuration: every profile, app secret and token (high-risk: --yes)",
  flags: { yes: flag.boolean("confirm: everything is deleted, with no way back") },
  risk: "high-risk-write",
  turn: refusedInTurns("deletes configuration and secrets"),
  async action(ctx, { flags }) {
    await confirmConfigRemove(ctx, flags.yes);
    // Secrets in the OS keychain go first, while the config still says which there are.
    const file = await loadConfig(ctx.p);
    if (file?.secretStore === "keychain") {
      const store = secretStore(ctx.p);
      for (const key of keychainKeys(file)) await store.remove(key);
    }
    for (const path of [configPath(ctx.p), secretsDir(ctx.p)]) {
      if (await ctx.p.files.stat(path)) await ctx.p.files.remove(path);
    }
    await ctx.diag.info("OK: Configuration removed");
    await emitSuccess(ctx, { data: { removed: true } });
  },
});

/** A positional that must be one of `values`: the same validation error a flag's choice gives. */
function oneOf<const V extends readonly string[]>(values: V, word: string, command: string): V[number] {
  if (values.includes(word)) return word;
  throw errors.validation(`invalid value "${word}": must be one of: ${values.join(", ")}`, {
    hint: `see larkit ${command} --help`,
  });
}

const strictMode = defineCommand({
  words: ["config", "strict-mode"],
  description: `show or set the identity restriction (bot, user, off); ${AGENT_WARNING}`,
  flags: {
    jq: jqFlag(),
    global: flag.boolean("set it for every profile (a profile's own setting still wins)"),
    reset: flag.boolean("remove the profile's own setting, so the global one applies"),
  },
  args: [{ name: "mode", description: "bot, user or off" }],
  turn: refusedInTurns("strict mode is the administrator's setting"),
  async action(ctx, { flags, args: [mode] }) {
    const emit = (parts: { data: unknown; wrote?: boolean }) =>
      emitOutput(ctx, ["config", "strict-mode"], ["json"], flags, parts);
    const value = mode === undefined ? undefined : oneOf(STRICT_MODES, mode, "config strict-mode");
    const account = await ctx.credentials().account();
    if (value === undefined && !flags.reset) {
      if (account.source !== "config") {
        return await emit({ data: { strictMode: account.strictMode, source: account.source } });
      }
      const { config: file, profile } = await loaded(ctx);
      const source = profile.strictMode
        ? `profile "${profile.name}"`
        : file.strictMode
        ? "global"
        : "global (default)";
      return await emit({ data: { strictMode: profile.strictMode ?? file.strictMode ?? "off", source } });
    }
    const { config: file, profile } = await loaded(ctx);
    let next: LarkitConfig;
    if (flags.reset) next = updateProfile(file, profile.name, { strictMode: undefined });
    else if (flags.global) next = { ...file, strictMode: value as StrictMode };
    else next = updateProfile(file, profile.name, { strictMode: value as StrictMode });
    await saveConfig(ctx.p, next);
    const scope = flags.global ? "global" : `profile "${profile.name}"`;
    await ctx.diag.info(
      flags.reset ? `Strict mode reset for ${scope}` : `Strict mode set to ${value} (${scope})`,
    );
    await emit({ data: { strictMode: flags.reset ? file.strictMode ?? "off" : value, scope }, wrote: true });
  },
});

const defaultAs = defineCommand({
  words: ["config", "default-as"],
  description: "show or set the identity used when a command gets no --as (user, bot or auto)",
  flags: { jq: jqFlag() },
  args: [{ name: "identity", description: "user, bot or auto" }],
  turn: refusedInTurns("changes the configuration"),
  async action(ctx, { flags, args: [identity] }) {
    const { config: file, profile } = await loaded(ctx);
    if (identity === undefined) {
      return await emitOutput(ctx, ["config", "default-as"], ["json"], flags, {
        data: { defaultAs: profile.defaultAs ?? "auto" },
      });
    }
    const value: AsFlag = oneOf(AS_VALUES, identity, "config default-as");
    await saveConfig(
      ctx.p,
      updateProfile(file, profile.name, { defaultAs: value === "auto" ? undefined : value }),
    );
    await ctx.diag.info(`Default identity set to: ${value}`);
    await emitOutput(ctx, ["config", "default-as"], ["json"], flags, {
      data: { defaultAs: value },
      wrote: true,
    });
  },
});

export const configCommands: CommandModule = {
  groups: [{ words: ["config"], description: "configure the app, brand and profiles' settings" }],
  commands: [init, show, set, remove, strictMode, defaultAs],
};
