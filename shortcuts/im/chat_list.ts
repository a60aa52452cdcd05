/**
 * `im +chat-list`: the group chats the identity is a member of, by creation time or by latest activity; one
 * page, or every page with `--page-all`.
 */
import * as z from "zod";
import { defineShortcut, flag } from "../declare.ts";
import { Chat, CHAT_COLUMNS, chatsText, shapeChat } from "./chat_search.ts";
import { listPages, pageFlags, PageInfo } from "./paging.ts";

const Page = z.extend(PageInfo, { items: z._default(z.array(Chat), []) });

export const chatList = defineShortcut({
  service: "im",
  command: "+chat-list",
  description: "List the group chats you (or the bot) are a member of",
  examples: [
    "larkit im +chat-list",
    "larkit im +chat-list --sort active_time --page-all --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["im:chat:read"], bot: ["im:chat:read"] },
  hasFormat: true,
  columns: CHAT_COLUMNS,
  flags: {
    sort: flag.choice(
      ["create_time", "active_time"] as const,
      "order: oldest created first, or most active first",
      {
        default: "create_time",
      },
    ),
    ...pageFlags({ default: 20, max: 100, noun: "chats" }),
  },
  async run(ctx) {
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: "/open-apis/im/v1/chats",
      params: {
        user_id_type: "open_id",
        sort_type: ctx.flags.sort === "active_time" ? "ByActiveTimeDesc" : "ByCreateTimeAsc",
      },
      response: Page,
      planned: { items: [], has_more: false },
    });
    const chats = pages.flatMap((p) => p.items).map(shapeChat);
    await ctx.outFormat(chats, meta(chats.length), chatsText);
  },
});
