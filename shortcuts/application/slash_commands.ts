/**
 * `application +slash-command-*`: the slash commands (`/name` in chats) of the app larkit is configured with.
 * A command is addressed by `--command-id` or by its name (`--command`, looked up in the list first); names are
 * unique per app, so `+slash-command-create` refuses an existing name unless `--force` turns it into an update.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { tableOr } from "../common/pretty.ts";
import { defineShortcut, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { PageInfo } from "../im/paging.ts";

const COMMANDS = "/open-apis/application/v7/app_slash_commands";
const READ = ["application:app_slash_command:read"];
const WRITE = ["application:app_slash_command:write"];
const LOCALES = ["zh_cn", "en_us", "ja_jp"] as const;

const Command = z.looseObject({
  command_id: z.string(),
  command: z.optional(z.string()),
  description: z.optional(z.string()),
  icon_key: z.optional(z.string()),
});
type Command = z.infer<typeof Command>;
const Page = z.extend(PageInfo, { items: z._default(z.array(Command), []) });
const One = z.object({ app_slash_command: z.optional(Command) });

/**
 * Every command of the app (the list is short: the suite allows a few dozen per app). `planned` is what the
 * plan sees: a lookup by name plans as if the name were found, a check for a free name as if it were free.
 */
async function allCommands<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  description?: string,
  planned: Command[] = [],
) {
  const pages = await ctx.paginate({
    method: "GET",
    path: COMMANDS,
    params: { page_size: 100 },
    description,
    response: Page,
    planned: { items: planned, has_more: false },
  }, { maxPages: 20 });
  return pages.flatMap((p) => p.items);
}

/** `/deploy` and `deploy` name the same command; names are letters, digits, `_` and `-`. */
export function commandName(value: string): string {
  const name = value.replace(/^\//, "");
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(name)) {
    throw errors.validation(`--command must be 1-32 letters, digits, _ or -, got "${value}"`);
  }
  return name;
}

/** `--description-i18n en_us=Deploy,ja_jp=...` -> `{ en_us: "Deploy", ... }`. */
export function i18nOf(value: string | undefined): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const pair of value.split(",").map((s) => s.trim()).filter(Boolean)) {
    const i = pair.indexOf("=");
    const locale = pair.slice(0, i);
    if (i < 1 || !(LOCALES as readonly string[]).includes(locale) || !pair.slice(i + 1)) {
      throw errors.validation(
        `--description-i18n: "${pair}" is not locale=text with a locale of ${LOCALES.join(", ")}`,
      );
    }
    out[locale] = pair.slice(i + 1);
  }
  return out;
}

const fieldFlags = {
  description: flag.string("what the command does, shown in the chat's command menu"),
  "description-i18n": flag.string(
    `localized descriptions: locale=text pairs, comma-separated (${LOCALES.join(", ")})`,
  ),
  "icon-key": flag.string("icon image key (img_\u2026)"),
};

function patchBody(f: { description?: string; "description-i18n"?: string; "icon-key"?: string }) {
  return {
    description: f.description,
    description_i18n: i18nOf(f["description-i18n"]),
    icon_key: f["icon-key"],
  };
}

const addressFlags = {
  "command-id": flag.string("the command's ID (from +slash-command-list)"),
  command: flag.string("or the command's name, looked up in the list"),
};

/** The command's ID: given, or found by name in the list (a validation error when there is none). */
async function resolveId<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  f: { "command-id"?: string; command?: string },
): Promise<string> {
  if ((f["command-id"] === undefined) === (f.command === undefined)) {
    throw errors.validation("give exactly one of --command-id and --command");
  }
  if (f["command-id"] !== undefined) return f["command-id"];
  const name = commandName(f.command ?? "");
  const planned = [{ command_id: "<command_id>", command: name }];
  const found = (await allCommands(ctx, "find the command by name", planned)).find((c) => c.command === name);
  return found?.command_id ?? notFound(name);
}

function notFound(name: string): never {
  throw errors.validation(`the app has no slash command named "${name}"`, {
    hint: "see the app's commands: larkit application +slash-command-list",
  });
}

export const slashCommandList = defineShortcut({
  service: "application",
  command: "+slash-command-list",
  description: "List the slash commands of the configured app",
  examples: [
    "larkit application +slash-command-list",
    "larkit application +slash-command-list --format table",
  ],
  risk: "read",
  authTypes: ["bot", "user"],
  scopes: { bot: READ, user: READ },
  hasFormat: true,
  columns: ["command", "description", "command_id"],
  flags: {},
  async run(ctx) {
    const commands = await allCommands(ctx);
    await ctx.outFormat(
      commands,
      { count: commands.length },
      tableOr("The app has no slash commands.\n", ["command", "command_id", "description"]),
    );
  },
});

export const slashCommandCreate = defineShortcut({
  service: "application",
  command: "+slash-command-create",
  description:
    "Register a slash command on the configured app (--force updates an existing one of that name)",
  examples: [
    'larkit application +slash-command-create --command deploy --description "Deploy a branch"',
    'larkit application +slash-command-create --command deploy --description "Deploy" --description-i18n zh_cn=\u90E8\u7F72 --force',
  ],
  risk: "write",
  authTypes: ["bot", "user"],
  scopes: { bot: [...WRITE, ...READ], user: [...WRITE, ...READ] },
  hasFormat: false,
  flags: {
    command: flag.requiredString("the command's name, without the slash"),
    ...fieldFlags,
    force: flag.boolean("when the name exists, update that command instead of failing"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const name = commandName(f.command);
    if (!f.description) throw errors.validation("--description is required");
    const existing = (await allCommands(ctx, "is the name taken?")).find((c) => c.command === name);
    if (existing && !f.force) {
      throw errors.validation(`the app already has a slash command "${name}" (${existing.command_id})`, {
        hint: "add --force to update it, or use larkit application +slash-command-update",
      });
    }
    const done = existing
      ? await ctx.api({
        method: "PATCH",
        path: `${COMMANDS}/${encodeURIComponent(existing.command_id)}`,
        body: patchBody(f),
        response: One,
        planned: {},
      })
      : await ctx.api({
        method: "POST",
        path: COMMANDS,
        body: { command: name, ...patchBody(f) },
        response: One,
        planned: { app_slash_command: { command_id: "<command_id>", command: name } },
      });
    await ctx.out({ ...done.app_slash_command, command: name, updated: !!existing });
  },
});

export const slashCommandUpdate = defineShortcut({
  service: "application",
  command: "+slash-command-update",
  description: "Change a slash command's description, localized descriptions or icon",
  examples: [
    'larkit application +slash-command-update --command deploy --description "Deploy any branch"',
    "larkit application +slash-command-update --command-id 7301 --icon-key img_v3_abc",
  ],
  risk: "write",
  authTypes: ["bot", "user"],
  scopes: { bot: [...WRITE, ...READ], user: [...WRITE, ...READ] },
  hasFormat: false,
  flags: { ...addressFlags, ...fieldFlags },
  async run(ctx) {
    const f = ctx.flags;
    const body = patchBody(f);
    if (Object.values(body).every((v) => v === undefined)) {
      throw errors.validation("nothing to change: give --description, --description-i18n or --icon-key");
    }
    const id = await resolveId(ctx, f);
    const done = await ctx.api({
      method: "PATCH",
      path: `${COMMANDS}/${encodeURIComponent(id)}`,
      body,
      response: One,
      planned: {},
    });
    await ctx.out({ command_id: id, ...done.app_slash_command, updated: true });
  },
});

export const slashCommandDelete = defineShortcut({
  service: "application",
  command: "+slash-command-delete",
  description: "Delete a slash command (irreversible: recreating the name gives a new command ID)",
  examples: [
    "larkit application +slash-command-delete --command deploy --yes",
    "larkit application +slash-command-delete --command-id 7301 --dry-run",
  ],
  risk: "high-risk-write",
  authTypes: ["bot", "user"],
  scopes: { bot: [...WRITE, ...READ], user: [...WRITE, ...READ] },
  hasFormat: false,
  flags: addressFlags,
  async run(ctx) {
    const id = await resolveId(ctx, ctx.flags);
    await ctx.api({
      method: "DELETE",
      path: `${COMMANDS}/${encodeURIComponent(id)}`,
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ command_id: id, deleted: true });
  },
});
