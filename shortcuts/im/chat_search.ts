/**
 * `im +chat-search`: the group chats visible to the identity whose name or description matches a keyword,
 * typically to find a chat_id by its name.
 */
import type { Column } from "../../cli/output/formats/rows.ts";
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { renderTable } from "../../cli/output/formats/table.ts";
import { defineShortcut, flag } from "../declare.ts";
import { listPages, pageFlags, PageInfo } from "./paging.ts";

const SEARCH = "/open-apis/im/v1/chats/search";

export const Chat = z.looseObject({
  chat_id: z.string(),
  name: z.optional(z.string()),
  description: z.optional(z.string()),
  owner_id: z.optional(z.string()),
  external: z.optional(z.boolean()),
});
const Page = z.extend(PageInfo, { items: z._default(z.array(Chat), []) });

/** The table columns of a chat list. */
export const CHAT_COLUMNS: Column[] = ["name", "chat_id", "description", "owner_id"];

/** The fields larkit shows of a chat. */
export function shapeChat({ chat_id, name, description, owner_id, external }: z.infer<typeof Chat>) {
  return { chat_id, name, description, owner_id, external };
}

export function chatsText(data: unknown, columns?: number): string {
  const chats = data as z.infer<typeof Chat>[];
  if (chats.length === 0) return "No matching chats.\n";
  const rows = chats.map((c) => ({ chat_id: c.chat_id, name: c.name, description: c.description }));
  return renderTable(rows, columns, ["chat_id", "name", "description"]);
}

export const chatSearch = defineShortcut({
  service: "im",
  command: "+chat-search",
  description: "Search visible group chats by keyword (e.g. to look up a chat_id by name)",
  examples: [
    "larkit im +chat-search --query launch",
    "larkit im +chat-search --query eng --jq '.data[0].chat_id'",
    "larkit im +chat-search --query team --page-all --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["im:chat:read"], bot: ["im:chat:read"] },
  hasFormat: true,
  columns: CHAT_COLUMNS,
  flags: {
    query: flag.requiredString("keyword matched against chat names and descriptions (max 64 characters)"),
    ...pageFlags({ default: 20, max: 100, noun: "chats" }),
  },
  async run(ctx) {
    const f = ctx.flags;
    if ([...f.query].length > 64) throw errors.validation("--query is longer than 64 characters");
    const { pages, meta } = await listPages(ctx, f, {
      method: "GET",
      path: SEARCH,
      params: { query: f.query },
      response: Page,
      planned: { items: [], has_more: false },
    });
    const chats = pages.flatMap((p) => p.items).map(shapeChat);
    await ctx.outFormat(chats, meta(chats.length), chatsText);
  },
});
