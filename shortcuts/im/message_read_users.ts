/** `im +message-read-users`: who has read a message (the caller must still be in its chat). */
import * as z from "zod";
import { tableOr } from "../common/pretty.ts";
import { defineShortcut, flag } from "../declare.ts";
import { checkId } from "./ids.ts";
import { listPages, pageFlags, PageInfo } from "./paging.ts";

const Page = z.extend(PageInfo, {
  items: z._default(z.array(z.looseObject({ user_id: z.string(), timestamp: z.optional(z.string()) })), []),
});

export const messageReadUsers = defineShortcut({
  service: "im",
  command: "+message-read-users",
  description: "List the people who have read a message",
  examples: [
    "larkit im +message-read-users --message-id om_123",
    "larkit im +message-read-users --message-id om_123 --page-all --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["im:message:readonly"], bot: ["im:message:readonly"] },
  hasFormat: true,
  columns: ["user_id", "timestamp"],
  flags: {
    "message-id": flag.requiredString("message ID (om_\u2026)"),
    "user-id-type": flag.choice(["open_id", "union_id", "user_id"] as const, "ID type of the readers", {
      default: "open_id",
    }),
    ...pageFlags({ default: 100, max: 100, noun: "readers" }),
  },
  async run(ctx) {
    const id = checkId("message-id", ctx.flags["message-id"], "om_", "a message ID");
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: `/open-apis/im/v1/messages/${encodeURIComponent(id)}/read_users`,
      params: { user_id_type: ctx.flags["user-id-type"] },
      response: Page,
      planned: { items: [], has_more: false },
    });
    const readers = pages.flatMap((p) => p.items).map(({ user_id, timestamp }) => ({ user_id, timestamp }));
    await ctx.outFormat(
      readers,
      meta(readers.length),
      tableOr("Nobody has read it yet.\n", ["user_id", "timestamp"]),
    );
  },
});
