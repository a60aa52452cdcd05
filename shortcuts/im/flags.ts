/**
 * `im +flag-create` / `+flag-cancel` / `+flag-list`: the user's bookmarks (flags). A bookmark sits on the
 * message layer (the message itself) or the feed layer (the message's chat in the feed); for the feed layer
 * the chat is looked up from the message, and its mode decides the item type (a topic chat's item is a thread).
 * Bookmarks belong to a person, so these shortcuts run as the user only.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { tableOr } from "../common/pretty.ts";
import { defineShortcut, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { checkId } from "./ids.ts";
import { MESSAGES } from "./messages_list.ts";
import { listPages, pageFlags, PageInfo } from "./paging.ts";

const FLAGS = "/open-apis/im/v1/flags";
const LOOKUP_SCOPES = ["im:message.group_msg:get_as_user", "im:message.p2p_msg:get_as_user", "im:chat:read"];

const FlagItem = z.looseObject({
  item_id: z.string(),
  item_type: z.optional(z.string()),
  flag_type: z.optional(z.string()),
  create_time: z.optional(z.string()),
});
type FlagItem = z.infer<typeof FlagItem>;
const FlagResult = z.object({ flag_items: z._default(z.array(FlagItem), []) });

const Message = z.object({
  items: z._default(z.array(z.looseObject({ chat_id: z.optional(z.string()) })), []),
});
const Chat = z.looseObject({ chat_mode: z.optional(z.string()) });

/** The feed-layer item of a message: its chat, as a thread item when the chat is a topic chat. */
async function feedItem<F extends FlagSpecs>(ctx: ShortcutContext<F>, messageId: string): Promise<FlagItem> {
  const got = await ctx.api({
    method: "GET",
    path: `${MESSAGES}/${encodeURIComponent(messageId)}`,
    description: "find the message's chat",
    response: Message,
    planned: { items: [{ chat_id: "<chat_id>" }] },
  });
  const chatId = got.items[0]?.chat_id ?? "";
  const chat = await ctx.api({
    method: "GET",
    path: `/open-apis/im/v1/chats/${encodeURIComponent(chatId)}`,
    description: "whether the chat is a topic chat",
    response: Chat,
    planned: { chat_mode: "group" },
  });
  return { item_id: chatId, item_type: chat.chat_mode === "topic" ? "thread" : "default", flag_type: "feed" };
}

const messageItem = (id: string): FlagItem => ({ item_id: id, item_type: "default", flag_type: "message" });

const flagsText = tableOr("No bookmarks.\n", ["flag_type", "item_type", "item_id", "create_time"]);

export const flagCreate = defineShortcut({
  service: "im",
  command: "+flag-create",
  description: "Bookmark a message, or its chat in the feed (user identity only)",
  examples: [
    "larkit im +flag-create --message-id om_123",
    "larkit im +flag-create --message-id om_123 --flag-type feed",
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ["im:feed.flag:write", ...LOOKUP_SCOPES] },
  hasFormat: false,
  flags: {
    "message-id": flag.requiredString("message ID (om_\u2026)"),
    "flag-type": flag.choice(["message", "feed"] as const, "bookmark the message, or its chat in the feed", {
      default: "message",
    }),
  },
  async run(ctx) {
    const id = checkId("message-id", ctx.flags["message-id"], "om_", "a message ID");
    const item = ctx.flags["flag-type"] === "feed" ? await feedItem(ctx, id) : messageItem(id);
    const done = await ctx.api({
      method: "POST",
      path: FLAGS,
      body: { flag_items: [item] },
      response: FlagResult,
      planned: { flag_items: [item] },
    });
    await ctx.out(done.flag_items[0] ?? item);
  },
});

export const flagCancel = defineShortcut({
  service: "im",
  command: "+flag-cancel",
  description:
    "Remove a bookmark; without --flag-type, from both the message and its chat (user identity only)",
  examples: [
    "larkit im +flag-cancel --message-id om_123",
    "larkit im +flag-cancel --message-id om_123 --flag-type message",
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ["im:feed.flag:write", ...LOOKUP_SCOPES] },
  hasFormat: false,
  flags: {
    "message-id": flag.requiredString("message ID (om_\u2026)"),
    "flag-type": flag.string("only this layer: message or feed (default: both)"),
  },
  async run(ctx) {
    const id = checkId("message-id", ctx.flags["message-id"], "om_", "a message ID");
    const layer = ctx.flags["flag-type"];
    if (layer !== undefined && layer !== "message" && layer !== "feed") {
      throw errors.validation(
        `invalid value "${layer}" for --flag-type; allowed: message, feed`,
      );
    }
    const items = [
      ...(layer !== "feed" ? [messageItem(id)] : []),
      ...(layer !== "message" ? [await feedItem(ctx, id)] : []),
    ];
    const done = await ctx.api({
      method: "POST",
      path: `${FLAGS}/cancel`,
      body: { flag_items: items },
      response: FlagResult,
      planned: { flag_items: items },
    });
    await ctx.out({ cancelled: done.flag_items }, { count: done.flag_items.length });
  },
});

const Page = z.extend(PageInfo, { flag_items: z._default(z.array(FlagItem), []) });

export const flagList = defineShortcut({
  service: "im",
  command: "+flag-list",
  description: "List your bookmarks (user identity only)",
  examples: ["larkit im +flag-list", "larkit im +flag-list --page-all --format table"],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["im:feed.flag:read"] },
  hasFormat: true,
  columns: ["flag_type", "item_type", "item_id", "create_time"],
  flags: pageFlags({ default: 50, max: 50, noun: "bookmarks" }),
  async run(ctx) {
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: FLAGS,
      response: Page,
      planned: { flag_items: [], has_more: false },
    });
    const items = pages.flatMap((p) => p.flag_items);
    await ctx.outFormat(items, meta(items.length), flagsText);
  },
});
