/**
 * `im +chat-create`: a new group (or topic) chat with the given people and bots. The suite de-duplicates chat
 * creation on the `uuid` query parameter, so the run's idempotency key makes a retried create safe.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { checkId, idList } from "./ids.ts";

const Created = z.looseObject({
  chat_id: z.string(),
  name: z.optional(z.string()),
  chat_mode: z.optional(z.string()),
  owner_id: z.optional(z.string()),
});

export const chatCreate = defineShortcut({
  service: "im",
  command: "+chat-create",
  description: "Create a group or topic chat and invite people and bots",
  examples: [
    'larkit im +chat-create --name "Launch war room" --users ou_1,ou_2',
    'larkit im +chat-create --name "Design" --chat-mode topic --type public --as user',
  ],
  risk: "write",
  authTypes: ["bot", "user"],
  scopes: { bot: ["im:chat:create"], user: ["im:chat:create_by_user"] },
  hasFormat: false,
  idempotencyKey: true,
  flags: {
    name: flag.requiredString("chat name (at most 60 characters)"),
    description: flag.string("chat description (at most 100 characters)"),
    users: flag.string("people to invite: open_ids (ou_\u2026), comma-separated, at most 50"),
    bots: flag.string("bots to invite: app IDs (cli_\u2026), comma-separated, at most 5"),
    owner: flag.string("owner's open_id (ou_\u2026); default: the creator (you, or the bot)"),
    type: flag.choice(["private", "public"] as const, "who can find and join the chat", {
      default: "private",
    }),
    "chat-mode": flag.choice(["group", "topic"] as const, "a normal group or a topic chat", {
      default: "group",
    }),
    "set-bot-manager": flag.boolean("make the creating bot a chat manager (bot only)"),
  },
  async run(ctx) {
    const f = ctx.flags;
    if ([...f.name].length > 60) throw errors.validation("--name is longer than 60 characters");
    if (f.description && [...f.description].length > 100) {
      throw errors.validation("--description is longer than 100 characters");
    }
    if (f["set-bot-manager"] && ctx.identity !== "bot") {
      throw errors.validation("--set-bot-manager only applies when the bot creates the chat", {
        hint: "drop --set-bot-manager",
      });
    }
    const users = idList("users", f.users, { prefix: "ou_", what: "open_ids", max: 50 });
    const bots = idList("bots", f.bots, { prefix: "cli_", what: "app IDs", max: 5 });
    const owner = f.owner === undefined ? undefined : checkId("owner", f.owner, "ou_", "an open_id");
    const chat = await ctx.api({
      method: "POST",
      path: "/open-apis/im/v1/chats",
      params: { user_id_type: "open_id", set_bot_manager: f["set-bot-manager"] || undefined },
      body: {
        name: f.name,
        description: f.description,
        chat_mode: f["chat-mode"],
        chat_type: f.type,
        owner_id: owner,
        user_id_list: users.length ? users : undefined,
        bot_id_list: bots.length ? bots : undefined,
      },
      dedup: { field: "uuid", in: "query" },
      response: Created,
      planned: { chat_id: "<chat_id>" },
    });
    const { chat_id, name, chat_mode, owner_id } = chat;
    await ctx.out({ chat_id, name, chat_mode, owner_id });
  },
});
