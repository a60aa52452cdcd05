/** `im +messages-mget`: up to 50 messages by ID, in the order given, each with its parsed content. */
import { MESSAGE_COLUMNS } from "../common/columns.ts";
import * as z from "zod";
import { defineShortcut, flag } from "../declare.ts";
import { idList } from "./ids.ts";
import { MESSAGES, messagesText, READ_MESSAGE_SCOPES } from "./messages_list.ts";
import { shapeMessage, SuiteMessage } from "./messages.ts";
import { downloadResources, downloadResourcesFlag } from "./resources.ts";

const Got = z.object({ items: z._default(z.array(SuiteMessage), []) });

export const messagesMget = defineShortcut({
  service: "im",
  command: "+messages-mget",
  description: "Get up to 50 messages by ID",
  examples: [
    "larkit im +messages-mget --message-ids om_1,om_2",
    "larkit im +messages-mget --message-ids om_1 --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: READ_MESSAGE_SCOPES,
  hasFormat: true,
  columns: MESSAGE_COLUMNS,
  flags: {
    "message-ids": flag.requiredString("message IDs (om_\u2026), comma-separated, at most 50"),
    "download-resources": downloadResourcesFlag,
  },
  async run(ctx) {
    const ids = idList("message-ids", ctx.flags["message-ids"], {
      prefix: "om_",
      what: "message IDs",
      max: 50,
    });
    const messages = [];
    for (const id of ids) {
      const got = await ctx.api({
        method: "GET",
        path: `${MESSAGES}/${encodeURIComponent(id)}`,
        response: Got,
        planned: { items: [] },
      });
      messages.push(...got.items.map((m) => shapeMessage(m, ctx.timeZone)));
    }
    if (ctx.flags["download-resources"]) await downloadResources(ctx, messages);
    await ctx.outFormat(messages, { count: messages.length }, messagesText);
  },
});
