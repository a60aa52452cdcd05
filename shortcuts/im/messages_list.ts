/**
 * `im +messages-list`: one page of a chat's messages, newest first by default, optionally within a time
 * range. `meta.count` is the page's size; `meta.page_token` (when `meta.has_more`) fetches the next page.
 */
import { z } from "zod";
import { errors } from "../../cli/output/errors.ts";
import { renderTable } from "../../cli/output/formats/table.ts";
import { parseTime, unixSeconds } from "../common/time.ts";
import { defineShortcut, flag, type FlagValues } from "../declare.ts";
import { shapeMessage, SuiteMessage } from "./messages.ts";

const MESSAGES = "/open-apis/im/v1/messages";

const flags = {
  "chat-id": flag.requiredString("chat ID (oc_…)"),
  start: flag.string("only messages at or after this time (ISO 8601, date, or Unix seconds)"),
  end: flag.string("only messages at or before this time"),
  sort: flag.choice(["asc", "desc"] as const, "order by creation time", { default: "desc" }),
  "page-size": flag.integer("messages per page (1-50)", { default: 20, min: 1, max: 50 }),
  "page-token": flag.string("page token from the previous page's meta.page_token"),
};

export function listQuery(f: FlagValues<typeof flags>, zone: string) {
  return {
    container_id_type: "chat",
    container_id: f["chat-id"],
    start_time: f.start ? unixSeconds(parseTime("start", f.start, zone)) : undefined,
    end_time: f.end ? unixSeconds(parseTime("end", f.end, zone, true)) : undefined,
    sort_type: f.sort === "asc" ? "ByCreateTimeAsc" : "ByCreateTimeDesc",
    page_size: f["page-size"],
    page_token: f["page-token"],
  };
}

const Page = z.object({
  items: z.array(SuiteMessage).default([]),
  has_more: z.boolean().default(false),
  page_token: z.string().optional(),
});

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

export const messagesList = defineShortcut({
  service: "im",
  command: "+messages-list",
  description: "List messages in a chat (one page; newest first by default)",
  examples: [
    "larkit im +messages-list --chat-id oc_123",
    "larkit im +messages-list --chat-id oc_123 --start 2026-03-02 --sort asc --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["im:message.group_msg:get_as_user", "im:message.p2p_msg:get_as_user"],
    bot: ["im:message.group_msg", "im:message.p2p_msg:readonly"],
  },
  hasFormat: true,
  flags,
  async run(ctx) {
    if (!ctx.flags["chat-id"].startsWith("oc_")) {
      throw errors.validation(`--chat-id must start with oc_, got "${ctx.flags["chat-id"]}"`);
    }
    const page = await ctx.api({
      method: "GET",
      path: MESSAGES,
      params: listQuery(ctx.flags, ctx.timeZone),
      response: Page,
      planned: { items: [], has_more: false },
    });
    const messages = page.items.map((m) => shapeMessage(m, ctx.timeZone));
    await ctx.outFormat(messages, {
      count: messages.length,
      has_more: page.has_more,
      ...(page.has_more && page.page_token ? { page_token: page.page_token } : {}),
    }, messagesText);
  },
});
