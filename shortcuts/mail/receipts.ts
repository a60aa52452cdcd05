/**
 * Read receipts: `mail +send-receipt` answers a message's receipt request with a "Read:" mail to its sender
 * (sent at once, so it asks first), `mail +decline-receipt` marks the request declined without answering.
 */
import * as z from "zod";
import { defineShortcut, flag } from "../declare.ts";
import { token } from "../vc/common.ts";
import { mailboxFlag, messagesPath } from "./mailbox.ts";
import { saveOrSend } from "./compose.ts";
import { originalOf, threadOf } from "./reply.ts";
import { errors } from "../../cli/output/errors.ts";
import { formatRfc3339 } from "../common/time.ts";

export const sendReceipt = defineShortcut({
  service: "mail",
  command: "+send-receipt",
  description: "Send a read receipt to a message's sender (asks for confirmation; user identity only)",
  examples: [
    "larkit mail +send-receipt --message-id mail_123 --dry-run",
    "larkit mail +send-receipt --message-id mail_123 --yes",
  ],
  risk: "high-risk-write",
  authTypes: ["user"],
  scopes: {
    user: [
      "mail:user_mailbox.message:send",
      "mail:user_mailbox.message:modify",
      "mail:user_mailbox.message:readonly",
      "mail:user_mailbox:readonly",
      "mail:user_mailbox.message.address:read",
      "mail:user_mailbox.message.subject:read",
    ],
  },
  hasFormat: false,
  flags: { "message-id": flag.requiredString("the message that asked for a receipt"), mailbox: mailboxFlag },
  async run(ctx) {
    const m = await originalOf(ctx, ctx.flags.mailbox, ctx.flags["message-id"]);
    if (!m.head_from) throw errors.validation("the message has no sender to send a receipt to");
    const when = formatRfc3339(ctx.now(), ctx.timeZone);
    // The risk confirmation (--yes) is the user's consent here: a receipt is the reply the sender asked for.
    await saveOrSend(ctx, { "confirm-send": true, mailbox: ctx.flags.mailbox }, {
      subject: `Read: ${m.subject}`,
      to: [{ mail_address: m.head_from.mail_address }],
      cc: [],
      bcc: [],
      text: `Your message "${m.subject}" was read on ${when}.`,
      attachments: [],
      inline: [],
      ...threadOf(m),
    });
  },
});

/** The system label a message asking for a read receipt carries until it is answered or declined. */
const RECEIPT_REQUEST_LABEL = "READ_RECEIPT_REQUEST";

export const declineReceipt = defineShortcut({
  service: "mail",
  command: "+decline-receipt",
  description: "Decline a message's read-receipt request without sending one (user identity only)",
  examples: ["larkit mail +decline-receipt --message-id mail_123"],
  risk: "write",
  authTypes: ["user"],
  scopes: {
    user: [
      "mail:user_mailbox.message:modify",
      "mail:user_mailbox.message:readonly",
      "mail:user_mailbox.message.address:read",
      "mail:user_mailbox.message.subject:read",
      "mail:user_mailbox.message.body:read",
    ],
  },
  hasFormat: false,
  flags: { "message-id": flag.requiredString("the message that asked for a receipt"), mailbox: mailboxFlag },
  async run(ctx) {
    const id = token("message-id", ctx.flags["message-id"]);
    // Read first, as the reference does: a message that is not there, or asks for no receipt, changes nothing.
    const m = await originalOf(ctx, ctx.flags.mailbox, id);
    if (m.label_ids && !m.label_ids.includes(RECEIPT_REQUEST_LABEL)) {
      throw errors.validation(
        "the message asks for no read receipt (or it was answered or declined already)",
      );
    }
    // `modify` takes label changes only: declining removes the message's read-receipt-request label.
    await ctx.api({
      method: "PUT",
      path: messagesPath(ctx.flags.mailbox, `/${encodeURIComponent(id)}/modify`),
      body: { remove_label_ids: [RECEIPT_REQUEST_LABEL] },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ message_id: id, receipt_declined: true });
  },
});
