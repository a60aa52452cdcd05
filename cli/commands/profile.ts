/**
 * `larkit profile add|list|use|rename|remove`: several apps side by side; `--profile`/LARKIT_PROFILE pick one
 * for a single command, `profile use` changes the default.
 */
import { flag } from "../../shortcuts/declare.ts";
import { forgetProfileCredentials } from "../auth/forget_profile.ts";
import { readUserToken, tokenStatus } from "../auth/user_token.ts";
import { readOnlyInTurns, refusedInTurns } from "../command_meta.ts";
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
import { type CommandModule, defineCommand } from "../resolve/declare.ts";
import { appCredentialsFrom, appFlags, appFlagsOf, appSettingsFrom } from "./app_flags.ts";
import { emitOutput, LIST_FORMATS, listFlags } from "./envelope_output.ts";

async function existing(ctx: RunContext) {
  const config = await loadConfig(ctx.p);
  if (!config || config.profiles.length === 0) {
    throw errors.config("not configured", {
      hint: "run larkit config init --app-id <id> --app-secret-stdin",
    });
  }
  return config;
}

const add = defineCommand({
  words: ["profile", "add"],
  description: "add a profile (the secret only on stdin: --app-secret-stdin)",
  flags: {
    ...appFlags(),
    name: flag.requiredString("the new profile's name", { placeholder: "profile" }),
    use: flag.boolean("make it the current profile"),
  },
  turn: refusedInTurns("writes a profile and its secret"),
  async action(ctx, { flags }) {
    const app = appFlagsOf(flags);
    validateProfileName(flags.name);
    const { appId, appSecret } = await appCredentialsFrom(ctx, app, "profile add");
    const placed = placeNew(await loadConfig(ctx.p), appSettingsFrom(app, appId), flags.name, flags.use);
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
  },
});

const list = defineCommand({
  words: ["profile", "list"],
  description: "list the profiles; active = the current profile (not --profile)",
  flags: listFlags(),
  turn: readOnlyInTurns("lists profile names and app ids"),
  async action(ctx, { flags }) {
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
    await emitOutput(ctx, list.words, LIST_FORMATS, flags, {
      data: rows,
      meta: { count: rows.length },
      columns: ["name", "active", "appId", "brand", "user", "tokenStatus"],
    });
  },
});

const use = defineCommand({
  words: ["profile", "use"],
  description: "make a profile the current one; - switches back to the previous one",
  flags: {},
  args: [{ name: "name", description: "profile name or app id, or -", required: true }],
  turn: refusedInTurns("changes the default profile"),
  async action(ctx, { args: [name] }) {
    const next = useProfile(await existing(ctx), name);
    await saveConfig(ctx.p, next);
    const chosen = next.profiles.find((p) => p.name === next.currentProfile)!;
    await ctx.diag.info(`OK: Switched to profile "${chosen.name}" (${chosen.appId}, ${chosen.brand})`);
    await emitSuccess(ctx, { data: { name: chosen.name, appId: chosen.appId, brand: chosen.brand } });
  },
});

const rename = defineCommand({
  words: ["profile", "rename"],
  description: "rename a profile",
  flags: {},
  args: [
    { name: "old", description: "current name", required: true },
    { name: "new", description: "new name", required: true },
  ],
  turn: refusedInTurns("changes the configuration"),
  async action(ctx, { args: [from, to] }) {
    await saveConfig(ctx.p, renameProfile(await existing(ctx), from, to));
    await ctx.diag.info(`OK: Profile "${from}" renamed to "${to}"`);
    await emitSuccess(ctx, { data: { from, to } });
  },
});

const remove = defineCommand({
  words: ["profile", "remove"],
  description: "remove a profile with its app secret and tokens",
  flags: {},
  args: [{ name: "name", description: "profile name or app id", required: true }],
  turn: refusedInTurns("deletes a profile and its secrets"),
  async action(ctx, { args: [name] }) {
    const { config, removed } = removeProfile(await existing(ctx), name);
    await forgetProfileCredentials(secretStore(ctx.p), removed);
    await saveConfig(ctx.p, config);
    await ctx.diag.info(`OK: Profile "${removed.name}" removed`);
    await emitSuccess(ctx, { data: { removed: removed.name, current: config.currentProfile } });
  },
});

export const profileCommands: CommandModule = {
  groups: [{ words: ["profile"], description: "manage named app profiles" }],
  commands: [add, list, use, rename, remove],
};
