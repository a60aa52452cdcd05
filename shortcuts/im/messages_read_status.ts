/** `im +messages-read-status`: whether you have read each of up to 50 messages (user only). */
import * as z from "zod";
import { defineShortcut, flag } from "../declare.ts";
import { idList } from "./ids.ts";

const Status = z.object({
  items: z._default(z.array(z.looseObject({ message_id: z.string(), is_read: z.optional(z.boolean()) })), []),
  invalid_message_ids: z._default(z.array(z.string()), []),
});

export const messagesReadStatus = defineShortcut({
  service: "im",
  command: "+messages-read-status",
  description: "Whether you have read each of up to 50 messages (user identity only)",
  examples: ["larkit im +messages-read-status --message-ids om_1,om_2"],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["im:message:readonly"] },
  hasFormat: true,
  columns: ["message_id", "is_read"],
  flags: {
    "message-ids": flag.requiredString("message IDs (om_\u2026), comma-separated, at most 50"),
  },
  async run(ctx) {
    const ids = idList("message-ids", ctx.flags["message-ids"], {
      prefix: "om_",
      what: "message IDs",
      max: 50,
    });
    const status = await ctx.api({
      method: "POST",
      path: "/open-apis/im/v1/messages/read_status",
      body: { message_ids: ids },
      response: Status,
      planned: { items: [], invalid_message_ids: [] },
    });
    const items = status.items.map(({ message_id, is_read }) => ({ message_id, is_read: is_read === true }));
    await ctx.outFormat(items, { count: items.length, invalid_message_ids: status.invalid_message_ids });
  },
});
