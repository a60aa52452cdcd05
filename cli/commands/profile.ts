/**
 * `larkit profile add|list|use|rename|remove`: several apps side by side; `--profile`/LARKIT_PROFILE pick one
 * for a single command, `profile use` changes the default.
 */
import type { Command } from "commander";
import * as z from "zod";
import { forgetProfileCredentials } from "../auth/forget_profile.ts";
import { readUserToken, tokenStatus } from "../auth/user_token.ts";
import { readOnlyInTurns, refusedInTurns, setMeta } from "../command_meta.ts";
import { loadConfig, saveConfig } from "../config/config_file.ts";
import {
  removeProfile,
  renameProfile,
  selectProfile,
  useProfile,
  validateProfileName,
} from "../config/profiles.ts";
import { appSecretKey, secretStore } from "../config/secret_store.ts";
import { placeNew } from "../config/setup.ts";
import type { RunContext } from "../context.ts";
import { emitSuccess } from "../output/emit.ts";
import { errors } from "../output/errors.ts";
import { addAppFlags, appCredentialsFrom, AppFlagsSchema, appSettingsFrom } from "./app_flags.ts";
import { parseOptions } from "./parse_options.ts";
import { emitEnvelope, envelopeOutput } from "./envelope_output.ts";

async function existing(ctx: RunContext) {
  const config = await loadConfig(ctx.p);
  if (!config || config.profiles.length === 0) {
    throw errors.config("not configured", {
      hint: "run larkit config init --app-id <id> --app-secret-stdin",
    });
  }
  return config;
}

export function registerProfile(program: Command, ctx: RunContext): void {
  const profile = program.command("profile").description("manage named app profiles");
  setMeta(profile, { layer: "builtin" });

  const add = addAppFlags(profile.command("add"))
    .description("add a profile (the secret only on stdin: --app-secret-stdin)")
    .requiredOption("--name <profile>", "the new profile's name")
    .option("--use", "make it the current profile")
    .action(async (raw) => {
      const flags = parseOptions(
        z.extend(AppFlagsSchema, { name: z.string(), use: z.optional(z.boolean()) }),
        raw,
        "profile add",
      );
      validateProfileName(flags.name);
      const { appId, appSecret } = await appCredentialsFrom(ctx, flags, "profile add");
      const placed = placeNew(
        await loadConfig(ctx.p),
        appSettingsFrom(flags, appId),
        flags.name,
        !!flags.use,
      );
      await secretStore(ctx.p).set(appSecretKey(appId), appSecret);
      await saveConfig(ctx.p, placed.config);
      await ctx.diag.info(`OK: Profile "${flags.name}" added (${appId}, ${placed.profile.brand})`);
      await emitSuccess(ctx, {
        data: {
          name: flags.name,
          appId,
          brand: placed.profile.brand,
          active: placed.config.currentProfile === flags.name,
        },
      });
    });
  setMeta(add, { layer: "builtin", turn: refusedInTurns("writes a profile and its secret") });

  const list = envelopeOutput(profile.command("list"), ["json", "table", "csv", "ndjson"])
    .description("list the profiles; active = the current profile (not --profile)")
    .action(async () => {
      const config = await loadConfig(ctx.p);
      const current = selectProfile(config)?.name;
      const store = secretStore(ctx.p);
      const rows = [];
      for (const p of config?.profiles ?? []) {
        const user = p.users[0];
        const token = user && await readUserToken(store, p.appId, user.openId);
        rows.push({
          name: p.name,
          appId: p.appId,
          brand: p.brand,
          active: p.name === current,
          user: user && (user.name ? `${user.name} (${user.openId})` : user.openId),
          tokenStatus: user ? (token ? tokenStatus(token, ctx.p.clock.now()) : "no_token") : undefined,
        });
      }
      await emitEnvelope(ctx, list, {
        data: rows,
        meta: { count: rows.length },
        columns: ["name", "active", "appId", "brand", "user", "tokenStatus"],
      });
    });
  setMeta(list, { layer: "builtin", turn: readOnlyInTurns("lists profile names and app ids") });

  const use = profile.command("use")
    .description("make a profile the current one; - switches back to the previous one")
    .argument("<name>", "profile name or app id, or -")
    .action(async (name: string) => {
      const next = useProfile(await existing(ctx), name);
      await saveConfig(ctx.p, next);
      const chosen = next.profiles.find((p) => p.name === next.currentProfile)!;
      await ctx.diag.info(`OK: Switched to profile "${chosen.name}" (${chosen.appId}, ${chosen.brand})`);
      await emitSuccess(ctx, { data: { name: chosen.name, appId: chosen.appId, brand: chosen.brand } });
    });
  setMeta(use, { layer: "builtin", turn: refusedInTurns("changes the default profile") });

  const rename = profile.command("rename")
    .description("rename a profile")
    .argument("<old>", "current name")
    .argument("<new>", "new name")
    .action(async (from: string, to: string) => {
      await saveConfig(ctx.p, renameProfile(await existing(ctx), from, to));
      await ctx.diag.info(`OK: Profile "${from}" renamed to "${to}"`);
      await emitSuccess(ctx, { data: { from, to } });
    });
  setMeta(rename, { layer: "builtin", turn: refusedInTurns("changes the configuration") });

  const remove = profile.command("remove")
    .description("remove a profile with its app secret and tokens")
    .argument("<name>", "profile name or app id")
    .action(async (name: string) => {
      const { config, removed } = removeProfile(await existing(ctx), name);
      await forgetProfileCredentials(secretStore(ctx.p), removed);
      await saveConfig(ctx.p, config);
      await ctx.diag.info(`OK: Profile "${removed.name}" removed`);
      await emitSuccess(ctx, { data: { removed: removed.name, current: config.currentProfile } });
    });
  setMeta(remove, { layer: "builtin", turn: refusedInTurns("deletes a profile and its secrets") });
}
