/**
 * `im +chat-messages-list` (alias `+messages-list`, larkit's earlier name): a chat's messages, newest first by
 * default, optionally within a time range; one page, or every page with `--page-all`. `meta.page_token` (when
 * `meta.has_more`) fetches the next page.
 */
import { z } from "zod";
import { errors } from "../../cli/output/errors.ts";
import { renderTable } from "../../cli/output/formats/table.ts";
import { parseTime, unixSeconds } from "../common/time.ts";
import { defineShortcut, flag, type FlagValues } from "../declare.ts";
import { shapeMessage, SuiteMessage } from "./messages.ts";
import { listPages, pageFlags, PageInfo } from "./paging.ts";

export const MESSAGES = "/open-apis/im/v1/messages";

const flags = {
  "chat-id": flag.requiredString("chat ID (oc_…)"),
  start: flag.string("only messages at or after this time (ISO 8601, date, or Unix seconds)"),
  end: flag.string("only messages at or before this time"),
  order: flag.choice(["asc", "desc"] as const, "order by creation time", { default: "desc" }),
  ...pageFlags({ default: 20, max: 50, noun: "messages" }),
};

export function listQuery(f: FlagValues<typeof flags>, zone: string) {
  return {
    container_id_type: "chat",
    container_id: f["chat-id"],
    start_time: f.start ? unixSeconds(parseTime("start", f.start, zone)) : undefined,
    end_time: f.end ? unixSeconds(parseTime("end", f.end, zone, true)) : undefined,
    sort_type: f.order === "asc" ? "ByCreateTimeAsc" : "ByCreateTimeDesc",
  };
}

export const MessagePage = PageInfo.extend({ items: z.array(SuiteMessage).default([]) });

export function messagesText(data: unknown, columns?: number): string {
  const messages = data as Record<string, unknown>[];
  if (messages.length === 0) return "No messages.\n";
  const text = (m: Record<string, unknown>) => {
    const c = m.content as { text?: unknown } | undefined;
    return typeof c?.text === "string" ? c.text : JSON.stringify(m.content ?? "");
  };
  const rows = messages.map((m) => ({
    time: m.create_time,
    sender: m.sender_id,
    type: m.msg_type,
    text: text(m),
  }));
  return renderTable(rows, columns, ["time", "sender", "type", "text"]);
}

export const READ_MESSAGE_SCOPES = {
  user: ["im:message.group_msg:get_as_user", "im:message.p2p_msg:get_as_user"],
  bot: ["im:message.group_msg", "im:message.p2p_msg:readonly"],
};

export const messagesList = defineShortcut({
  service: "im",
  command: "+chat-messages-list",
  aliases: ["+messages-list"],
  description: "List messages in a chat (newest first by default; --page-all for every page)",
  examples: [
    "larkit im +chat-messages-list --chat-id oc_123",
    "larkit im +chat-messages-list --chat-id oc_123 --start 2026-03-02 --order asc --format table",
    "larkit im +chat-messages-list --chat-id oc_123 --page-all --format ndjson",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: READ_MESSAGE_SCOPES,
  hasFormat: true,
  flags,
  async run(ctx) {
    if (!ctx.flags["chat-id"].startsWith("oc_")) {
      throw errors.validation(`--chat-id must start with oc_, got "${ctx.flags["chat-id"]}"`);
    }
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: MESSAGES,
      params: listQuery(ctx.flags, ctx.timeZone),
      response: MessagePage,
      planned: { items: [], has_more: false },
    });
    const messages = pages.flatMap((p) => p.items).map((m) => shapeMessage(m, ctx.timeZone));
    await ctx.outFormat(messages, meta(messages.length), messagesText);
  },
});
