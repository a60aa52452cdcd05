/**
 * `larkit config init|show|set|remove|strict-mode|default-as`: the config file and the app secret.
 */
import type { Command } from "commander";
import * as z from "zod";
import { forgetProfileCredentials } from "../auth/forget_profile.ts";
import type { AsFlag, StrictMode } from "../auth/types.ts";
import { readOnlyInTurns, refusedInTurns, setMeta } from "../command_meta.ts";
import {
  AS_VALUES,
  configPath,
  type LarkitConfig,
  loadConfig,
  type Profile,
  saveConfig,
  STRICT_MODES,
} from "../config/config_file.ts";
import { UNTRUSTED_FLAG } from "../config/endpoints.ts";
import { requireProfile, updateProfile, validateProfileName } from "../config/profiles.ts";
import { appSecretKey, keychainKeys, secretsDir, secretStore } from "../config/secret_store.ts";
import { applySetting, confirmConfigRemove, SETTING_KEYS } from "../config/settings.ts";
import { placeInit } from "../config/setup.ts";
import type { RunContext } from "../context.ts";
import { emitSuccess } from "../output/emit.ts";
import { addAppFlags, appCredentialsFrom, AppFlagsSchema, appSettingsFrom } from "./app_flags.ts";
import { emitEnvelope, envelopeOutput } from "./envelope_output.ts";
import { parseOptions } from "./parse_options.ts";

const AGENT_WARNING = "managed by the administrator: AI agents must not change it";

async function loaded(ctx: RunContext): Promise<{ config: LarkitConfig; profile: Profile }> {
  const config = await loadConfig(ctx.p);
  return { config: config ?? { profiles: [] }, profile: requireProfile(config, ctx.globals.profile) };
}

function registerInit(config: Command, ctx: RunContext): void {
  const init = addAppFlags(config.command("init"))
    .description("configure the app (replaces the configuration, or with --name adds/updates that profile)")
    .option("--name <profile>", "add or update this named profile instead of replacing the configuration")
    .action(async (raw) => {
      const flags = parseOptions(
        z.extend(AppFlagsSchema, { name: z.optional(z.string()) }),
        raw,
        "config init",
      );
      if (flags.name) validateProfileName(flags.name);
      const { appId, appSecret } = await appCredentialsFrom(ctx, flags, "config init");
      const placed = placeInit(await loadConfig(ctx.p), appSettingsFrom(flags, appId), flags.name);
      const store = secretStore(ctx.p);
      for (const old of placed.dropped) await forgetProfileCredentials(store, old);
      await store.set(appSecretKey(appId), appSecret);
      await saveConfig(ctx.p, placed.config);
      await ctx.diag.info(`OK: Configuration saved to ${configPath(ctx.p)}`);
      const { name, brand, baseUrl } = placed.profile;
      await emitSuccess(ctx, { data: { profile: name, appId, appSecret: "****", brand, baseUrl } });
    });
  setMeta(init, { layer: "builtin", turn: refusedInTurns("writes the app configuration and secret") });
}

function registerShow(config: Command, ctx: RunContext): void {
  const show = envelopeOutput(config.command("show"))
    .description("show the selected profile's configuration (the secret is never shown)")
    .action(async () => {
      const { config: file, profile } = await loaded(ctx);
      const hasSecret = await secretStore(ctx.p).get(appSecretKey(profile.appId)) !== undefined;
      await ctx.diag.info(`Config file path: ${configPath(ctx.p)}`);
      await emitEnvelope(ctx, show, {
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
    });
  setMeta(show, { layer: "builtin", turn: readOnlyInTurns("shows the configuration, the secret masked") });
}

function registerSet(config: Command, ctx: RunContext): void {
  const set = config.command("set")
    .description(
      "change one setting: brand, base-url, lang, bot-scopes (the app's granted scopes, space-separated; " +
        '"" = unknown), credential-providers (comma-separated provider programs; "" = none), secret-store ' +
        "(file: the encrypted file, the default; keychain: the OS keychain; the secrets move over)",
    )
    .argument("<key>", SETTING_KEYS.join(", "))
    .argument("<value>", "the new value")
    .option(
      UNTRUSTED_FLAG,
      "base-url: accept a host off the suite's domains (it will receive your tokens and app secret)",
    )
    .action(async (key: string, value: string, raw) => {
      const flags = parseOptions(
        z.object({ allowUntrustedEndpoint: z.optional(z.boolean()) }),
        raw,
        "config set",
      );
      const { config: file, profile } = await loaded(ctx);
      const next = await applySetting(ctx.p, file, profile, key, value, flags);
      await saveConfig(ctx.p, next);
      await emitSuccess(ctx, { data: { profile: profile.name, key, value } });
    });
  setMeta(set, {
    layer: "builtin",
    turn: refusedInTurns(
      "changes endpoints or credential providers: a turn could redirect tokens or run code",
    ),
  });
}

function registerRemove(config: Command, ctx: RunContext): void {
  const remove = config.command("remove")
    .description("remove the whole configuration: every profile, app secret and token (high-risk: --yes)")
    .option("--yes", "confirm: everything is deleted, with no way back")
    .action(async (raw) => {
      const flags = parseOptions(z.object({ yes: z.optional(z.boolean()) }), raw, "config remove");
      await confirmConfigRemove(ctx, flags.yes ?? false);
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
    });
  setMeta(remove, {
    layer: "builtin",
    risk: "high-risk-write",
    turn: refusedInTurns("deletes configuration and secrets"),
  });
}

function registerStrictMode(config: Command, ctx: RunContext): void {
  const strict = envelopeOutput(config.command("strict-mode"))
    .description(`show or set the identity restriction (bot, user, off); ${AGENT_WARNING}`)
    .argument("[mode]", "bot, user or off")
    .option("--global", "set it for every profile (a profile's own setting still wins)")
    .option("--reset", "remove the profile's own setting, so the global one applies")
    .action(async (mode: string | undefined, raw) => {
      const flags = parseOptions(
        z.object({ global: z.optional(z.boolean()), reset: z.optional(z.boolean()) }),
        raw,
        "config strict-mode",
      );
      const value = mode === undefined
        ? undefined
        : parseOptions(z.enum(STRICT_MODES), mode, "config strict-mode");
      const account = await ctx.credentials().account();
      if (value === undefined && !flags.reset) {
        if (account.source !== "config") {
          return await emitEnvelope(ctx, strict, {
            data: { strictMode: account.strictMode, source: account.source },
          });
        }
        const { config: file, profile } = await loaded(ctx);
        const source = profile.strictMode
          ? `profile "${profile.name}"`
          : file.strictMode
          ? "global"
          : "global (default)";
        return await emitEnvelope(ctx, strict, {
          data: { strictMode: profile.strictMode ?? file.strictMode ?? "off", source },
        });
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
      await emitEnvelope(ctx, strict, {
        data: { strictMode: flags.reset ? file.strictMode ?? "off" : value, scope },
        wrote: true,
      });
    });
  setMeta(strict, { layer: "builtin", turn: refusedInTurns("strict mode is the administrator's setting") });
}

function registerDefaultAs(config: Command, ctx: RunContext): void {
  const defaultAs = envelopeOutput(config.command("default-as"))
    .description("show or set the identity used when a command gets no --as (user, bot or auto)")
    .argument("[identity]", "user, bot or auto")
    .action(async (identity: string | undefined) => {
      const { config: file, profile } = await loaded(ctx);
      if (identity === undefined) {
        return await emitEnvelope(ctx, defaultAs, { data: { defaultAs: profile.defaultAs ?? "auto" } });
      }
      const value: AsFlag = parseOptions(z.enum(AS_VALUES), identity, "config default-as");
      await saveConfig(
        ctx.p,
        updateProfile(file, profile.name, { defaultAs: value === "auto" ? undefined : value }),
      );
      await ctx.diag.info(`Default identity set to: ${value}`);
      await emitEnvelope(ctx, defaultAs, { data: { defaultAs: value }, wrote: true });
    });
  setMeta(defaultAs, { layer: "builtin", turn: refusedInTurns("changes the configuration") });
}

export function registerConfig(program: Command, ctx: RunContext): void {
  const config = program.command("config").description("configure the app, brand and profiles' settings");
  setMeta(config, { layer: "builtin" });
  registerInit(config, ctx);
  registerShow(config, ctx);
  registerSet(config, ctx);
  registerRemove(config, ctx);
  registerStrictMode(config, ctx);
  registerDefaultAs(config, ctx);
}
