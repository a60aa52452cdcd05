/**
 * `contact +search-bot`: bots (apps) matching a keyword, across the tenant or inside given chats, as the
 * logged-in user sees them (the suite's bot search is user-only).
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { idList } from "../im/ids.ts";
import { listPages, pageFlags, PageInfo } from "../im/paging.ts";

const Page = z.extend(PageInfo, {
  items: z._default(
    z.array(z.looseObject({ app_id: z.optional(z.string()), name: z.optional(z.string()) })),
    [],
  ),
});

export const searchBot = defineShortcut({
  service: "contact",
  command: "+search-bot",
  description: "Search bots (apps) by keyword, across the tenant or in given chats (user identity only)",
  examples: [
    'larkit contact +search-bot --query "deploy"',
    "larkit contact +search-bot --chat-ids oc_123 --format table",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["search:bot"] },
  hasFormat: true,
  columns: ["name", "app_id"],
  flags: {
    query: flag.string("keyword matched against bot names"),
    "chat-ids": flag.string("only bots in these chats: chat IDs (oc_\u2026), comma-separated, at most 20"),
    "has-chatted": flag.boolean("only bots you have chatted with"),
    ...pageFlags({ default: 20, max: 50, noun: "bots" }),
  },
  async run(ctx) {
    const f = ctx.flags;
    const chats = idList("chat-ids", f["chat-ids"], { prefix: "oc_", what: "chat IDs", max: 20 });
    if (!f.query && !chats.length) throw errors.validation("give --query and/or --chat-ids");
    const { pages, meta } = await listPages(ctx, f, {
      method: "POST",
      path: "/open-apis/bot/v4/bot/search",
      body: {
        query: f.query,
        // Inside `filter`, as the SDK's bot.v4.bot.search types it (`has_chatter`), else the suite ignores them.
        filter: { chat_ids: chats.length ? chats : undefined, has_chatter: f["has-chatted"] || undefined },
      },
      response: Page,
      planned: { items: [], has_more: false },
    });
    const bots = pages.flatMap((p) => p.items);
    await ctx.outFormat(bots, meta(bots.length));
  },
});
