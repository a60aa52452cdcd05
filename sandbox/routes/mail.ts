/**
 * Mail v1 for user mailboxes: send (structured fields with base64url attachments, or a raw EML in `raw`, parsed
 * as the drafts endpoint parses it) and messages list/get. `me` names the caller's own mailbox. A sent message lands in the sender's SENT folder and
 * in the INBOX of every recipient that is a mailbox in this tenant.
 */
import * as z from "zod";
import { all, newHex, one, run, tx } from "../db.ts";
import { pageOf, paginate } from "../paging.ts";
import { invalidParam, ok, raise } from "../reply.ts";
import { type CallerCtx, jsonBody, queryOf, type Route } from "../router.ts";
import { MAIL_READ, MAIL_SEND } from "../scopes.ts";
import { parseMessage } from "./mail_mime.ts";

const Address = z.object({ mail_address: z.string().check(z.email()), name: z.optional(z.string()) });
const Send = z.object({
  subject: z.optional(z.string()),
  to: z._default(z.array(Address), []),
  cc: z._default(z.array(Address), []),
  bcc: z._default(z.array(Address), []),
  head_from: z.optional(z.object({ name: z.optional(z.string()) })),
  body_html: z.optional(z.string()),
  body_plain_text: z.optional(z.string()),
  attachments: z._default(
    z.array(z.object({ body: z.string(), filename: z.string().check(z.minLength(1)) })),
    [],
  ),
  raw: z.optional(z.string()),
});

export interface MailRow {
  message_id: string;
  mailbox: string;
  folder: string;
  subject: string;
  head_from: string;
  recipients: string;
  body_plain: string;
  body_html: string;
  raw: string | null;
  attachments: string;
  create_time: number;
}

export function mailboxOf(ctx: CallerCtx): string {
  const own = one<{ email: string }>(
    ctx.st.db,
    "SELECT email FROM users WHERE open_id = ?",
    ctx.caller.openId,
  );
  const box = ctx.params.user_mailbox_id === "me" ? own?.email : ctx.params.user_mailbox_id;
  if (!box || box !== own?.email) {
    raise(403, 1230002, `no permission for mailbox ${ctx.params.user_mailbox_id}`);
  }
  return box;
}

function decode64url(s: string, what: string): Uint8Array {
  try {
    return Uint8Array.fromBase64(s, { alphabet: "base64url" });
  } catch {
    return invalidParam(`${what} must be base64url`);
  }
}

/** The system label of a message that asks its recipients for a read receipt, until they answer or decline. */
export const RECEIPT_REQUEST = "READ_RECEIPT_REQUEST";
/** The system label of a read receipt sent. */
export const RECEIPT_SENT = "READ_RECEIPT_SENT";

/**
 * A message's labels: as `modify` last left them, else those its headers give (a message asking for a read
 * receipt carries RECEIPT_REQUEST in its recipients' mailboxes).
 */
export function labelIds(m: Pick<MailRow, "recipients" | "head_from" | "mailbox">): string[] {
  const r = JSON.parse(m.recipients) as { labels?: string[]; headers?: { receipt_to?: string } };
  const mine = (JSON.parse(m.head_from) as { mail_address?: string }).mail_address === m.mailbox;
  return r.labels ?? (r.headers?.receipt_to && !mine ? [RECEIPT_REQUEST] : []);
}

/** A message as the suite answers it; `smtp_message_id` is the Message-ID stored, else one made from its id. */
export function mailJson(m: MailRow) {
  const recipients = JSON.parse(m.recipients);
  const headers = recipients.headers ?? {};
  return {
    message_id: m.message_id,
    smtp_message_id: headers.smtp_message_id ?? `<${m.message_id}@mail.sandbox.example>`,
    ...(headers.in_reply_to ? { in_reply_to: headers.in_reply_to } : {}),
    ...(headers.references ? { references: headers.references } : {}),
    label_ids: labelIds(m),
    subject: m.subject,
    head_from: JSON.parse(m.head_from),
    to: recipients.to,
    cc: recipients.cc,
    bcc: recipients.bcc,
    body_plain_text: new TextEncoder().encode(m.body_plain).toBase64({ alphabet: "base64url" }),
    body_html: new TextEncoder().encode(m.body_html).toBase64({ alphabet: "base64url" }),
    attachments: JSON.parse(m.attachments),
    internal_date: String(m.create_time),
    folder_id: m.folder,
  };
}

const BOX = "/open-apis/mail/v1/user_mailboxes/:user_mailbox_id/messages";

export const mailRoutes: Route[] = [
  {
    method: "POST",
    path: `${BOX}/send`,
    auth: "token",
    scopes: MAIL_SEND,
    identities: ["user"],
    async handle(ctx) {
      const box = mailboxOf(ctx);
      const body = jsonBody(ctx, Send);
      // A raw message is the message: its own headers and parts, read as the drafts endpoint reads them.
      const parsed = body.raw !== undefined ? await parseMessage(body.raw) : undefined;
      const recipients = parsed?.recipients ?? { to: body.to, cc: body.cc, bcc: body.bcc };
      const everyone = [...recipients.to, ...recipients.cc, ...recipients.bcc].map((a) => a.mail_address);
      if (everyone.length === 0) invalidParam("at least one recipient (to, cc, bcc or raw To:) is required");
      const attachments = parsed?.attachments ?? body.attachments.map((a, i) => ({
        id: `att_${i + 1}`,
        filename: a.filename,
        size: decode64url(a.body, `attachments[${i}].body`).length,
      }));
      const message_id = `mail_${newHex(ctx.st.db, "mail", 20)}`;
      const owner = one<{ name: string }>(
        ctx.st.db,
        "SELECT name FROM users WHERE open_id = ?",
        ctx.caller.openId,
      );
      const name = parsed?.from?.name ?? body.head_from?.name ?? owner?.name ?? "";
      const row = (mailbox: string, folder: string, id: string) =>
        run(
          ctx.st.db,
          `INSERT INTO mails (message_id, mailbox, folder, subject, head_from, recipients, body_plain, body_html, raw,
             attachments, create_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          id,
          mailbox,
          folder,
          parsed?.subject ?? body.subject ?? "",
          JSON.stringify({ name, mail_address: box }),
          JSON.stringify({ ...recipients, ...(parsed ? { headers: parsed.headers } : {}) }),
          parsed?.text ?? body.body_plain_text ?? "",
          parsed?.html ?? body.body_html ?? "",
          body.raw ?? null,
          JSON.stringify(attachments),
          ctx.st.clock.now(),
        );
      tx(ctx.st.db, () => {
        row(box, "SENT", message_id);
        everyone.forEach((addr, i) => {
          if (one(ctx.st.db, "SELECT 1 AS x FROM users WHERE email = ?", addr)) {
            row(addr, "INBOX", `${message_id}_${i}`);
          }
        });
      });
      return ok({ message_id });
    },
  },
  {
    method: "GET",
    path: BOX,
    auth: "token",
    scopes: MAIL_READ,
    identities: ["user"],
    handle(ctx) {
      const box = mailboxOf(ctx);
      const q = queryOf(ctx, z.looseObject({ folder_id: z._default(z.string(), "INBOX") }));
      const rows = all<{ message_id: string }>(
        ctx.st.db,
        "SELECT message_id FROM mails WHERE mailbox = ? AND folder = ? ORDER BY create_time DESC, message_id",
        box,
        q.folder_id,
      );
      return ok(paginate(rows.map((r) => r.message_id), pageOf(ctx.query, { size: 20, max: 20 })));
    },
  },
  {
    method: "GET",
    path: `${BOX}/:message_id`,
    auth: "token",
    scopes: MAIL_READ,
    identities: ["user"],
    handle(ctx) {
      const box = mailboxOf(ctx);
      const m = one<MailRow>(
        ctx.st.db,
        "SELECT * FROM mails WHERE mailbox = ? AND message_id = ?",
        box,
        ctx.params.message_id,
      ) ??
        raise(404, 1230003, `message not found: ${ctx.params.message_id}`);
      return ok({ message: mailJson(m) });
    },
  },
];
