/**
 * `im +messages-search`: messages across your chats matching a keyword and filters; each hit is fetched so the
 * result carries content, sender and time like `+chat-messages-list`.
 */
import { MESSAGE_COLUMNS } from "../common/columns.ts";
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { parseTime, unixSeconds } from "../common/time.ts";
import { defineShortcut, flag } from "../declare.ts";
import { idList } from "./ids.ts";
import { MESSAGES, messagesText } from "./messages_list.ts";
import { shapeMessage, SuiteMessage } from "./messages.ts";
import { listPages, pageFlags, PageInfo } from "./paging.ts";

const Hits = z.extend(PageInfo, {
  items: z._default(z.array(z.looseObject({ message_id: z.string() })), []),
});
const Got = z.object({ items: z._default(z.array(SuiteMessage), []) });

export const messagesSearch = defineShortcut({
  service: "im",
  command: "+messages-search",
  description: "Search messages across your chats by keyword, chat, sender and time",
  examples: [
    'larkit im +messages-search --query "release notes"',
    "larkit im +messages-search --query build --chat-id oc_123 --start 2026-03-01 --format table",
    "larkit im +messages-search --sender ou_1 --sender-type user --page-all",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["search:message"], bot: ["search:message"] },
  hasFormat: true,
  columns: MESSAGE_COLUMNS,
  flags: {
    query: flag.string("keyword"),
    "chat-id": flag.string("only in these chats: chat IDs (oc_\u2026), comma-separated"),
    sender: flag.string("only from these people: open_ids (ou_\u2026), comma-separated"),
    "chat-type": flag.string("only in this kind of chat: group or p2p"),
    "sender-type": flag.string("only from this kind of sender: user or bot"),
    start: flag.string("only messages at or after this time (ISO 8601, date, or Unix seconds)"),
    end: flag.string("only messages at or before this time"),
    ...pageFlags({ default: 20, max: 50, noun: "messages" }),
  },
  async run(ctx) {
    const f = ctx.flags;
    const chats = idList("chat-id", f["chat-id"], { prefix: "oc_", what: "chat IDs", max: 50 });
    const senders = idList("sender", f.sender, { prefix: "ou_", what: "open_ids", max: 50 });
    for (
      const [name, value, allowed] of [
        ["chat-type", f["chat-type"], ["group", "p2p"]],
        ["sender-type", f["sender-type"], ["user", "bot"]],
      ] as const
    ) {
      if (value !== undefined && !(allowed as readonly string[]).includes(value)) {
        throw errors.validation(`invalid value "${value}" for --${name}; allowed: ${allowed.join(", ")}`);
      }
    }
    if (!f.query && !chats.length && !senders.length) {
      throw errors.validation("give something to search for: --query, --chat-id or --sender");
    }
    const { pages, meta } = await listPages(ctx, f, {
      method: "POST",
      path: "/open-apis/im/v1/messages/search",
      body: {
        query: f.query,
        // The filters go inside `filter` (the SDK's im.v1.message.search), else the suite ignores them.
        filter: {
          chat_ids: chats.length ? chats : undefined,
          from_ids: senders.length ? senders : undefined,
          chat_type: f["chat-type"],
          from_types: f["sender-type"] ? [f["sender-type"]] : undefined,
          time_range: f.start || f.end
            ? {
              start_time: f.start
                ? String(unixSeconds(parseTime("start", f.start, ctx.timeZone)))
                : undefined,
              end_time: f.end ? String(unixSeconds(parseTime("end", f.end, ctx.timeZone, true))) : undefined,
            }
            : undefined,
        },
      },
      response: Hits,
      planned: { items: [{ message_id: "<message_id>" }], has_more: false },
    });
    const messages = [];
    for (const hit of pages.flatMap((p) => p.items)) {
      const got = await ctx.api({
        method: "GET",
        path: `${MESSAGES}/${encodeURIComponent(hit.message_id)}`,
        description: "fetch each hit's content",
        response: Got,
        planned: { items: [] },
      });
      messages.push(...got.items.map((m) => shapeMessage(m, ctx.timeZone)));
    }
    await ctx.outFormat(messages, meta(messages.length), messagesText);
  },
});
