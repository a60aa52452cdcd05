/**
 * `im +messages-send`: sends a message to a chat (`--chat-id oc_...`), a person (`--user-id ou_...`) or an email
 * address (`--email`). Every send carries an idempotency `uuid` (`--idempotency-key`, else one generated per
 * invocation), so a retried request cannot post twice; the key is shown in the dry-run and in
 * `meta.idempotency_key`; the key is the shortcut's `--idempotency-key` (the suite keeps it for an hour).
 */
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type FlagValues } from "../declare.ts";
import { contentFlags, messageSourceOf, resolveContent } from "./content.ts";
import { shapeMessage, SuiteMessage } from "./messages.ts";

const MESSAGES = "/open-apis/im/v1/messages";

const flags = {
  "chat-id": flag.string("chat ID (oc_\u2026)"),
  "user-id": flag.string("user open_id (ou_\u2026), for a direct message"),
  email: flag.string("email address of the person, for a direct message"),
  ...contentFlags,
};

/** The receiver flag given -> the suite's receive_id_type and receive_id. */
export function receiverOf(
  f: FlagValues<typeof flags>,
): { type: "chat_id" | "open_id" | "email"; id: string } {
  const given = (["chat-id", "user-id", "email"] as const).filter((k) => f[k] !== undefined);
  if (given.length !== 1) {
    throw errors.validation(
      given.length === 0
        ? "specify the receiver: --chat-id, --user-id or --email"
        : `${given.map((g) => `--${g}`).join(", ")} are mutually exclusive`,
    );
  }
  const chat = f["chat-id"];
  const user = f["user-id"];
  if (chat !== undefined) {
    if (!chat.startsWith("oc_")) throw errors.validation(`--chat-id must start with oc_, got "${chat}"`);
    return { type: "chat_id", id: chat };
  }
  if (user !== undefined) {
    if (!user.startsWith("ou_")) {
      throw errors.validation(`--user-id must be an open_id (ou_\u2026), got "${user}"`);
    }
    return { type: "open_id", id: user };
  }
  const email = f.email ?? "";
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) {
    throw errors.validation(`--email is not an email address: "${email}"`);
  }
  return { type: "email", id: email };
}

export const messagesSend = defineShortcut({
  service: "im",
  command: "+messages-send",
  description:
    "Send a message (text, markdown, image, file, audio, video) to a chat, a user or an email address",
  examples: [
    'larkit im +messages-send --chat-id oc_123 --text "Build is green"',
    "larkit im +messages-send --email bob@example.com --markdown @notes.md",
    "larkit im +messages-send --user-id ou_456 --image ./chart.png --as bot",
  ],
  risk: "write",
  authTypes: ["bot", "user"],
  scopes: { bot: ["im:message:send_as_bot"], user: ["im:message.send_as_user", "im:message"] },
  hasFormat: false,
  flags,
  idempotencyKey: true,
  async run(ctx) {
    const receiver = receiverOf(ctx.flags);
    const content = await resolveContent(ctx, messageSourceOf(ctx.flags));
    const sent = await ctx.api({
      method: "POST",
      path: MESSAGES,
      params: { receive_id_type: receiver.type },
      body: { receive_id: receiver.id, ...content },
      dedup: { field: "uuid", in: "body" },
      response: SuiteMessage,
      planned: { message_id: "<message_id>" },
    });
    await ctx.out(shapeMessage(sent, ctx.timeZone));
  },
});
