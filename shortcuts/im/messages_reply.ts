/**
 * `im +messages-reply`: replies to a message, in the chat or in its thread (`--reply-in-thread`), with the
 * same content flags and idempotency key as `+messages-send`.
 */
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { contentFlags, messageSourceOf, resolveContent } from "./content.ts";
import { shapeMessage, SuiteMessage } from "./messages.ts";

const replyPath = (messageId: string) => `/open-apis/im/v1/messages/${encodeURIComponent(messageId)}/reply`;

export const messagesReply = defineShortcut({
  service: "im",
  command: "+messages-reply",
  description: "Reply to a message, in the chat or in its thread",
  examples: [
    'larkit im +messages-reply --message-id om_123 --text "On it"',
    "larkit im +messages-reply --message-id om_123 --markdown @summary.md --reply-in-thread",
  ],
  risk: "write",
  authTypes: ["bot", "user"],
  scopes: { bot: ["im:message:send_as_bot"], user: ["im:message.send_as_user", "im:message"] },
  hasFormat: false,
  flags: {
    "message-id": flag.requiredString("ID of the message to reply to (om_\u2026)"),
    ...contentFlags,
    "reply-in-thread": flag.boolean("reply in the message's thread instead of the chat"),
  },
  idempotencyKey: true,
  async run(ctx) {
    if (!ctx.flags["message-id"].startsWith("om_")) {
      throw errors.validation(`--message-id must start with om_, got "${ctx.flags["message-id"]}"`);
    }
    const content = await resolveContent(ctx, messageSourceOf(ctx.flags));
    const sent = await ctx.api({
      method: "POST",
      path: replyPath(ctx.flags["message-id"]),
      body: { ...content, reply_in_thread: ctx.flags["reply-in-thread"] },
      dedup: { field: "uuid", in: "body" },
      response: SuiteMessage,
      planned: { message_id: "<message_id>" },
    });
    await ctx.out(shapeMessage(sent, ctx.timeZone));
  },
});
