/**
 * `im +chat-messages-list` (alias `+messages-list`, larkit's earlier name): a chat's messages, newest first by
 * default, optionally within a time range; one page, or every page with `--page-all`. `meta.page_token` (when
 * `meta.has_more`) fetches the next page. `--user-id` reads the direct chat with that person, looked up first.
 */
import { MESSAGE_COLUMNS } from "../common/columns.ts";
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { renderTable } from "../../cli/output/formats/table.ts";
import { parseTime, unixSeconds } from "../common/time.ts";
import { defineShortcut, flag, type FlagSpecs, type FlagValues, type ShortcutContext } from "../declare.ts";
import { checkId } from "./ids.ts";
import { shapeMessage, SuiteMessage } from "./messages.ts";
import { listPages, pageFlags, PageInfo } from "./paging.ts";
import { downloadResources, downloadResourcesFlag } from "./resources.ts";

export const MESSAGES = "/open-apis/im/v1/messages";

const flags = {
  "chat-id": flag.string("chat ID (oc_\u2026)"),
  "user-id": flag.string("or the person (open_id ou_\u2026) whose direct chat with you to read"),
  start: flag.string("only messages at or after this time (ISO 8601, date, or Unix seconds)"),
  end: flag.string("only messages at or before this time"),
  order: flag.choice(["asc", "desc"] as const, "order by creation time", { default: "desc" }),
  "download-resources": downloadResourcesFlag,
  ...pageFlags({ default: 20, max: 50, noun: "messages" }),
};

export function listQuery(f: FlagValues<typeof flags>, chatId: string, zone: string) {
  return {
    container_id_type: "chat",
    container_id: chatId,
    start_time: f.start ? unixSeconds(parseTime("start", f.start, zone)) : undefined,
    end_time: f.end ? unixSeconds(parseTime("end", f.end, zone, true)) : undefined,
    sort_type: f.order === "asc" ? "ByCreateTimeAsc" : "ByCreateTimeDesc",
  };
}

export const MessagePage = z.extend(PageInfo, { items: z._default(z.array(SuiteMessage), []) });

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

const P2P = z.object({ p2p_chats: z._default(z.array(z.object({ chat_id: z.string() })), []) });

/** The direct chat between you (or the bot) and a person; an error when there is none yet. */
async function directChat<F extends FlagSpecs>(ctx: ShortcutContext<F>, userId: string): Promise<string> {
  const found = await ctx.api({
    method: "POST",
    path: "/open-apis/im/v1/chat_p2p/batch_query",
    params: { user_id_type: "open_id" },
    body: { chatter_ids: [userId] },
    description: "find the direct chat with the person",
    response: P2P,
    planned: { p2p_chats: [{ chat_id: "<chat_id>" }] },
  });
  const chat = found.p2p_chats[0]?.chat_id;
  if (!chat) {
    throw errors.validation(`there is no direct chat with ${userId} yet`, {
      hint: `start one: larkit im +messages-send --user-id ${userId} --text "\u2026"`,
    });
  }
  return chat;
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
    "larkit im +chat-messages-list --user-id ou_456 --as user",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: READ_MESSAGE_SCOPES,
  hasFormat: true,
  columns: MESSAGE_COLUMNS,
  flags,
  async run(ctx) {
    const f = ctx.flags;
    if ((f["chat-id"] === undefined) === (f["user-id"] === undefined)) {
      throw errors.validation("give exactly one of --chat-id and --user-id");
    }
    if (f["chat-id"] !== undefined && !f["chat-id"].startsWith("oc_")) {
      throw errors.validation(`--chat-id must start with oc_, got "${f["chat-id"]}"`);
    }
    const chatId = f["chat-id"] ??
      await directChat(ctx, checkId("user-id", f["user-id"] ?? "", "ou_", "an open_id"));
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: MESSAGES,
      params: listQuery(ctx.flags, chatId, ctx.timeZone),
      response: MessagePage,
      planned: { items: [], has_more: false },
    });
    const messages = pages.flatMap((p) => p.items).map((m) => shapeMessage(m, ctx.timeZone));
    if (f["download-resources"]) await downloadResources(ctx, messages);
    await ctx.outFormat(messages, meta(messages.length), messagesText);
  },
});
