/**
 * `im +threads-messages-list`: the messages of a thread -- its root and the replies under it, oldest first by
 * default. `--thread` takes the thread ID (omt_...) or any message ID in the thread (om_...), which is looked up
 * first to find its thread.
 */
import { MESSAGE_COLUMNS } from "../common/columns.ts";
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { MessagePage, MESSAGES, messagesText, READ_MESSAGE_SCOPES } from "./messages_list.ts";
import { shapeMessage } from "./messages.ts";
import { listPages, pageFlags } from "./paging.ts";
import { downloadResources, downloadResourcesFlag } from "./resources.ts";

const Found = z.object({
  items: z._default(z.array(z.looseObject({ thread_id: z.optional(z.string()) })), []),
});

export const threadsMessagesList = defineShortcut({
  service: "im",
  command: "+threads-messages-list",
  description: "List the messages of a thread (by thread ID omt_\u2026 or a message ID om_\u2026 in it)",
  examples: [
    "larkit im +threads-messages-list --thread omt_123",
    "larkit im +threads-messages-list --thread om_456 --order desc --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: READ_MESSAGE_SCOPES,
  hasFormat: true,
  columns: MESSAGE_COLUMNS,
  flags: {
    thread: flag.requiredString("thread ID (omt_\u2026) or the ID of a message in the thread (om_\u2026)"),
    order: flag.choice(["asc", "desc"] as const, "order by creation time", { default: "asc" }),
    "download-resources": downloadResourcesFlag,
    ...pageFlags({ default: 20, max: 50, noun: "messages" }),
  },
  async run(ctx) {
    const given = ctx.flags.thread;
    if (!given.startsWith("omt_") && !given.startsWith("om_")) {
      throw errors.validation(
        `--thread must be a thread ID (omt_\u2026) or a message ID (om_\u2026), got "${given}"`,
      );
    }
    let thread = given;
    if (given.startsWith("om_")) {
      const found = await ctx.api({
        method: "GET",
        path: `${MESSAGES}/${encodeURIComponent(given)}`,
        description: "find the thread of the message",
        response: Found,
        planned: { items: [{ thread_id: "<thread_id>" }] },
      });
      const id = found.items[0]?.thread_id;
      if (!id) {
        throw errors.validation(`message ${given} is not in a thread`, {
          hint: "list the chat instead: larkit im +chat-messages-list --chat-id <oc_\u2026>",
        });
      }
      thread = id;
    }
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: MESSAGES,
      params: {
        container_id_type: "thread",
        container_id: thread,
        sort_type: ctx.flags.order === "asc" ? "ByCreateTimeAsc" : "ByCreateTimeDesc",
      },
      response: MessagePage,
      planned: { items: [], has_more: false },
    });
    const messages = pages.flatMap((p) => p.items).map((m) => shapeMessage(m, ctx.timeZone));
    if (ctx.flags["download-resources"]) await downloadResources(ctx, messages);
    await ctx.outFormat(messages, { ...meta(messages.length), thread_id: thread }, messagesText);
  },
});
