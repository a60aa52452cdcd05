/**
 * `im +messages-send`: sends a message to a chat (`--chat-id oc_…`), a person (`--user-id ou_…`) or an email
 * address (`--email`). Every send carries an idempotency `uuid` (`--idempotency-key`, else one generated per
 * invocation), so a retried request cannot post twice; the key is shown in the dry-run and in
 * `meta.idempotency_key`.
 */
import { errors } from "../../cli/output/errors.ts";
import { parseResponse } from "../common/response.ts";
import { defineShortcut, flag, type FlagValues } from "../declare.ts";
import { contentFlags, messageSourceOf, plannedContent, plannedUpload, resolveContent } from "./content.ts";
import { shapeMessage, SuiteMessage } from "./messages.ts";

const MESSAGES = "/open-apis/im/v1/messages";

const flags = {
  "chat-id": flag.string("chat ID (oc_…)"),
  "user-id": flag.string("user open_id (ou_…), for a direct message"),
  email: flag.string("email address of the person, for a direct message"),
  ...contentFlags,
  "idempotency-key": flag.string(
    "idempotency key: the same key sends once within an hour (default: generated)",
  ),
};

/** The receiver flag given → the suite's receive_id_type and receive_id. */
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
      throw errors.validation(`--user-id must be an open_id (ou_…), got "${user}"`);
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
  description: "Send a message (text, markdown, image, file) to a chat, a user or an email address",
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
  validate({ flags: f }) {
    receiverOf(f);
    messageSourceOf(f);
  },
  async dryRun(ctx) {
    const receiver = receiverOf(ctx.flags);
    const source = messageSourceOf(ctx.flags);
    const uuid = ctx.flags["idempotency-key"] ?? ctx.executionId;
    const upload = source.kind === "upload" ? [await plannedUpload(ctx, source)] : [];
    const send = await ctx.plan({
      method: "POST",
      path: MESSAGES,
      query: { receive_id_type: receiver.type },
      body: { receive_id: receiver.id, ...plannedContent(source), uuid },
    });
    return { api: [...upload, send], idempotency_key: uuid };
  },
  async execute(ctx) {
    const receiver = receiverOf(ctx.flags);
    const uuid = ctx.flags["idempotency-key"] ?? ctx.executionId;
    const content = await resolveContent(ctx, messageSourceOf(ctx.flags));
    const data = await ctx.api({
      method: "POST",
      path: MESSAGES,
      query: { receive_id_type: receiver.type },
      body: { receive_id: receiver.id, ...content, uuid },
    });
    const sent = parseResponse(SuiteMessage, data, "im message create");
    await ctx.out(shapeMessage(sent, ctx.timeZone), { idempotency_key: uuid });
  },
});
