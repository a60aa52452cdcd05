/**
 * `im +chat-members-list`: the people in a chat (the suite's member list holds people only; bots are not
 * listed), one page or every page with `--page-all`.
 */
import * as z from "zod";
import { renderTable } from "../../cli/output/formats/table.ts";
import { defineShortcut, flag } from "../declare.ts";
import { checkId } from "./ids.ts";
import { listPages, pageFlags, PageInfo } from "./paging.ts";

const Page = z.extend(PageInfo, {
  items: z._default(z.array(z.looseObject({ member_id: z.string(), name: z.optional(z.string()) })), []),
  member_total: z.optional(z.number()),
});

function membersText(data: unknown, columns?: number): string {
  const members = data as { member_id: string; name?: string }[];
  if (members.length === 0) return "No members.\n";
  return renderTable(members.map((m) => ({ name: m.name, member_id: m.member_id })), columns, [
    "name",
    "member_id",
  ]);
}

export const chatMembersList = defineShortcut({
  service: "im",
  command: "+chat-members-list",
  description: "List the people in a chat",
  examples: [
    "larkit im +chat-members-list --chat-id oc_123",
    "larkit im +chat-members-list --chat-id oc_123 --member-id-type user_id --page-all --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["im:chat.members:read"], bot: ["im:chat.members:read"] },
  hasFormat: true,
  columns: ["name", "member_id"],
  flags: {
    "chat-id": flag.requiredString("chat ID (oc_\u2026)"),
    "member-id-type": flag.choice(["open_id", "union_id", "user_id"] as const, "ID type of the members", {
      default: "open_id",
    }),
    ...pageFlags({ default: 20, max: 100, noun: "members" }),
  },
  async run(ctx) {
    const chatId = checkId("chat-id", ctx.flags["chat-id"], "oc_", "a chat ID");
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: `/open-apis/im/v1/chats/${encodeURIComponent(chatId)}/members`,
      params: { member_id_type: ctx.flags["member-id-type"] },
      response: Page,
      planned: { items: [], has_more: false },
    });
    const members = pages.flatMap((p) => p.items).map(({ member_id, name }) => ({ member_id, name }));
    const total = pages[0]?.member_total;
    await ctx.outFormat(
      members,
      { ...meta(members.length), ...(total !== undefined ? { total } : {}) },
      membersText,
    );
  },
});
