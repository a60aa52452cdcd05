/**
 * Read receipts, for a message carrying the READ_RECEIPT_REQUEST label (its sender asked for one):
 * `mail +send-receipt` answers with the receipt the suite's clients send -- "Read receipt: <subject>" to the
 * sender, threaded to the message, a generated body (subject, recipient, sent and read times), marked
 * `X-Lark-Read-Receipt-Mail: 1` so the suite files it as a receipt -- at once, so it asks first;
 * `mail +decline-receipt` removes the label without answering (again: nothing to do).
 */
import * as z from "zod";
import { defineShortcut, flag } from "../declare.ts";
import { token } from "../vc/common.ts";
import { mailboxFlag, messagesPath } from "./mailbox.ts";
import { ownMailbox, saveOrSend } from "./compose.ts";
import { ANSWER_SCOPES, type OriginalMail, originalOf, threadOf } from "./reply.ts";
import { errors } from "../../cli/output/errors.ts";
import { formatRfc3339 } from "../common/time.ts";

/** The system label of a message whose sender asked for a read receipt (some answers give its id, -607). */
const RECEIPT_REQUEST_LABEL = "READ_RECEIPT_REQUEST";
const asksForReceipt = (m: OriginalMail) =>
  m.label_ids === undefined
    ? undefined
    : m.label_ids.some((l) => l === RECEIPT_REQUEST_LABEL || l === "-607");

/** A subject in Chinese gets the Chinese receipt wording, as the suite's clients do. */
const CJK = /[\u3400-\u9fff]/;
const WORDS = {
  en: {
    prefix: "Read receipt: ",
    lead: "Your message has been read. Details:",
    subject: "Subject: ",
    to: "To: ",
    sent: "Sent: ",
    read: "Read: ",
  },
  zh: {
    prefix: "\u5df2\u8bfb\u56de\u6267\uff1a",
    lead: "\u60a8\u53d1\u9001\u7684\u90ae\u4ef6\u5df2\u88ab\u9605\u8bfb\uff0c\u8be6\u60c5\u5982\u4e0b\uff1a",
    subject: "\u4e3b\u9898\uff1a",
    to: "\u6536\u4ef6\u4eba\uff1a",
    sent: "\u53d1\u9001\u65f6\u95f4\uff1a",
    read: "\u9605\u8bfb\u65f6\u95f4\uff1a",
  },
};

/** The receipt's subject and bodies: who read what, sent and read when. */
export function receiptOf(m: OriginalMail, reader: string, now: number, zone: string) {
  const w = CJK.test(m.subject) ? WORDS.zh : WORDS.en;
  const at = (ms: number | undefined) => (ms ? formatRfc3339(ms, zone) : "-");
  const rows: [string, string][] = [
    [w.subject, m.subject.trim()],
    [w.to, reader],
    [w.sent, at(m.internal_date ? Number(m.internal_date) : undefined)],
    [w.read, at(now)],
  ];
  const esc = (t: string) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return {
    // One prefix, whatever the subject already carries.
    subject: w.prefix + m.subject.trim().replace(/^(read receipt:\s*|\u5df2\u8bfb\u56de\u6267\uff1a)+/i, ""),
    text: `${w.lead}\n${rows.map(([k, v]) => `> ${k}${v}`).join("\n")}\n`,
    html: `<div><div>${esc(w.lead)}</div><div>${
      rows.map(([k, v]) => `<div>${esc(k)} ${esc(v)}</div>`).join("")
    }</div></div>`,
  };
}

export const sendReceipt = defineShortcut({
  service: "mail",
  command: "+send-receipt",
  description:
    "Send a read receipt for a message that asked for one (READ_RECEIPT_REQUEST); asks for confirmation; user identity only",
  examples: [
    "larkit mail +send-receipt --message-id mail_123 --dry-run",
    "larkit mail +send-receipt --message-id mail_123 --yes",
  ],
  risk: "high-risk-write",
  authTypes: ["user"],
  scopes: { user: ["mail:user_mailbox.message:send", ...ANSWER_SCOPES] },
  hasFormat: false,
  flags: { "message-id": flag.requiredString("the message that asked for a receipt"), mailbox: mailboxFlag },
  async run(ctx) {
    const m = await originalOf(ctx, ctx.flags.mailbox, ctx.flags["message-id"]);
    if (asksForReceipt(m) === false) {
      throw errors.validation(
        `message ${m.message_id} asks for no read receipt (no ${RECEIPT_REQUEST_LABEL} label)`,
      );
    }
    if (!m.head_from) throw errors.validation("the message has no sender to send a receipt to");
    const me = await ownMailbox(ctx, ctx.flags.mailbox);
    // The risk confirmation (--yes) is the user's consent here: a receipt is the reply the sender asked for.
    await saveOrSend(ctx, { "confirm-send": true, mailbox: ctx.flags.mailbox }, {
      ...receiptOf(m, me.mail_address, ctx.now(), ctx.timeZone),
      to: [{ mail_address: m.head_from.mail_address }],
      cc: [],
      bcc: [],
      attachments: [],
      inline: [],
      ...threadOf(m),
      read_receipt: true,
    }, me);
  },
});

export const declineReceipt = defineShortcut({
  service: "mail",
  command: "+decline-receipt",
  description:
    "Dismiss a message's read-receipt request (READ_RECEIPT_REQUEST) without sending one; idempotent (user identity only)",
  examples: ["larkit mail +decline-receipt --message-id mail_123"],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ANSWER_SCOPES },
  hasFormat: false,
  flags: { "message-id": flag.requiredString("the message that asked for a receipt"), mailbox: mailboxFlag },
  async run(ctx) {
    const id = token("message-id", ctx.flags["message-id"]);
    // Read first, as the reference does: a message that is not there fails; one that asks for no receipt
    // (any more) is left as it is -- declining is idempotent.
    const m = await originalOf(ctx, ctx.flags.mailbox, id);
    if (asksForReceipt(m) === false) {
      return await ctx.out({ message_id: id, receipt_declined: true, changed: false });
    }
    // `modify` takes label changes only: declining removes the message's read-receipt-request label.
    await ctx.api({
      method: "PUT",
      path: messagesPath(ctx.flags.mailbox, `/${encodeURIComponent(id)}/modify`),
      body: { remove_label_ids: [RECEIPT_REQUEST_LABEL] },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ message_id: id, receipt_declined: true, changed: true });
  },
});
