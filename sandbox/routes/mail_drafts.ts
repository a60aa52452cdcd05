/**
 * Mail drafts and batch moves for user mailboxes (the endpoints `mail +send`, `+reply`, `+forward`,
 * `+draft-*`, `+message-modify` and `+message-trash` call). A draft arrives as the suite takes it -- `{"raw":
 * <RFC 5322 message, base64url>}` and nothing else -- and is parsed (postal-mime) into a row of the mails table
 * in the DRAFT folder, so reads answer with the subject, recipients, bodies, attachments and threading headers
 * of what was stored; `?format=raw` answers the message itself. Sending it moves it to SENT under a new message
 * ID and delivers a copy to the INBOX of every recipient that is a mailbox in this tenant -- the same outcome as
 * `messages/send`. A `send_time` in the future keeps it in SCHEDULED instead. A read receipt (a message marked
 * `X-Lark-Read-Receipt-Mail: 1`) answers the request: the original in the sender's mailbox loses its
 * READ_RECEIPT_REQUEST label, the receipt itself carries READ_RECEIPT_SENT. `profile` names the caller's own
 * address (reply-all leaves it out).
 */
import * as z from "zod";
import { all, newHex, one, run, tx } from "../db.ts";
import { invalidParam, ok, raise } from "../reply.ts";
import type { CallerCtx, Route } from "../router.ts";
import { MAIL_SEND } from "../scopes.ts";
import { labelIds, mailboxOf, mailJson, type MailRow, RECEIPT_REQUEST, RECEIPT_SENT } from "./mail.ts";
import { type Parsed, parseMessage } from "./mail_mime.ts";
import { mailTemplateRoutes } from "./mail_templates.ts";
import { strictBody, strictQuery } from "./strict_body.ts";

const MODIFY = ["mail:user_mailbox.message:modify"];
const READ = ["mail:user_mailbox.message:readonly"];
const ROOT = "/open-apis/mail/v1/user_mailboxes/:user_mailbox_id";

/** The only draft body the suite takes. */
const Raw = z.strictObject({ raw: z.string().check(z.minLength(1)) });

function draftOf(ctx: CallerCtx, box: string): MailRow {
  return one<MailRow>(
    ctx.st.db,
    "SELECT * FROM mails WHERE mailbox = ? AND message_id = ? AND folder = 'DRAFT'",
    box,
    ctx.params.draft_id,
  ) ?? raise(404, 1230003, `draft not found: ${ctx.params.draft_id}`);
}

/** The SDK's draft shape: `{ draft: { id, message } }`; with `format=raw` the message carries `raw`. */
function draftJson(m: MailRow, withRaw = false) {
  return {
    draft: { id: m.message_id, message: { ...mailJson(m), ...(withRaw ? { raw: m.raw ?? "" } : {}) } },
  };
}

function write(ctx: CallerCtx, box: string, id: string, raw: string, d: Parsed, replace: boolean) {
  const owner = one<{ name: string }>(
    ctx.st.db,
    "SELECT name FROM users WHERE open_id = ?",
    ctx.caller.openId,
  );
  const args = [
    d.subject,
    // The sender is the mailbox (the suite sends as its owner whatever From the message names).
    JSON.stringify({ name: d.from?.name ?? owner?.name ?? "", mail_address: box }),
    // Threading headers ride with the recipients: the mails table has no column of their own.
    JSON.stringify({ ...d.recipients, headers: d.headers }),
    d.text,
    d.html,
    raw,
    JSON.stringify(d.attachments),
  ] as const;
  if (replace) {
    run(
      ctx.st.db,
      `UPDATE mails SET subject = ?, head_from = ?, recipients = ?, body_plain = ?, body_html = ?, raw = ?,
         attachments = ? WHERE message_id = ?`,
      ...args,
      id,
    );
  } else {
    run(
      ctx.st.db,
      `INSERT INTO mails (subject, head_from, recipients, body_plain, body_html, raw, attachments, message_id,
         mailbox, folder, create_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'DRAFT', ?)`,
      ...args,
      id,
      box,
      ctx.st.clock.now(),
    );
  }
}

const Send = z.strictObject({
  send_time: z.optional(z.string().check(z.regex(/^\d+$/, "send_time must be Unix seconds"))),
});
const Batch = z.strictObject({
  message_ids: z.array(z.string()).check(z.minLength(1), z.maxLength(20)),
  add_label_ids: z.optional(z.array(z.string())),
  remove_label_ids: z.optional(z.array(z.string())),
  add_folder: z.optional(z.string()),
});

/**
 * A message's labels change as `modify` asks; they ride with the recipients (as the threading headers do),
 * so reads answer `label_ids` from what was stored.
 */
function relabel(ctx: CallerCtx, ids: string[], add: string[] = [], remove: string[] = []) {
  const box = mailboxOf(ctx);
  tx(ctx.st.db, () => {
    for (const id of ids) {
      const row = one<Pick<MailRow, "recipients" | "head_from" | "mailbox">>(
        ctx.st.db,
        "SELECT recipients, head_from, mailbox FROM mails WHERE mailbox = ? AND message_id = ?",
        box,
        id,
      ) ?? raise(404, 1230003, `message not found: ${id}`);
      const r = JSON.parse(row.recipients);
      const labels = new Set<string>(labelIds(row));
      add.forEach((l) => labels.add(l));
      remove.forEach((l) => labels.delete(l));
      run(
        ctx.st.db,
        "UPDATE mails SET recipients = ? WHERE mailbox = ? AND message_id = ?",
        JSON.stringify({ ...r, labels: [...labels] }),
        box,
        id,
      );
    }
  });
}

/** A read receipt sent: it is labelled READ_RECEIPT_SENT, and the message it answers no longer asks. */
function answerReceipt(ctx: CallerCtx, box: string, receipt: string, answers: string | undefined) {
  relabel(ctx, [receipt], [RECEIPT_SENT]);
  const original = all<MailRow>(
    ctx.st.db,
    "SELECT * FROM mails WHERE mailbox = ? AND message_id != ?",
    box,
    receipt,
  )
    .find((m) => answers !== undefined && mailJson(m).smtp_message_id === answers);
  if (original) relabel(ctx, [original.message_id], [], [RECEIPT_REQUEST]);
}

function move(ctx: CallerCtx, folder: string, ids: string[]) {
  const box = mailboxOf(ctx);
  tx(ctx.st.db, () => {
    for (const id of ids) {
      if (!one(ctx.st.db, "SELECT 1 AS x FROM mails WHERE mailbox = ? AND message_id = ?", box, id)) {
        raise(404, 1230003, `message not found: ${id}`);
      }
      run(ctx.st.db, "UPDATE mails SET folder = ? WHERE mailbox = ? AND message_id = ?", folder, box, id);
    }
  });
}

export const mailDraftRoutes: Route[] = [
  ...mailTemplateRoutes,
  {
    method: "GET",
    path: `${ROOT}/profile`,
    auth: "token",
    scopes: ["mail:user_mailbox:readonly"],
    identities: ["user"],
    handle(ctx) {
      const box = mailboxOf(ctx);
      const owner = one<{ name: string }>(
        ctx.st.db,
        "SELECT name FROM users WHERE open_id = ?",
        ctx.caller.openId,
      );
      return ok({ primary_email_address: box, name: owner?.name ?? "" });
    },
  },
  {
    method: "POST",
    path: `${ROOT}/drafts`,
    auth: "token",
    scopes: MODIFY,
    identities: ["user"],
    async handle(ctx) {
      const box = mailboxOf(ctx);
      const { raw } = strictBody(ctx, Raw);
      const d = await parseMessage(raw);
      const id = `draft_${newHex(ctx.st.db, "mail_draft", 16)}`;
      write(ctx, box, id, raw, d, false);
      return ok(draftJson(draftOf({ ...ctx, params: { ...ctx.params, draft_id: id } }, box)));
    },
  },
  {
    method: "GET",
    path: `${ROOT}/drafts/:draft_id`,
    auth: "token",
    scopes: READ,
    identities: ["user"],
    handle(ctx) {
      const { format } = strictQuery(
        ctx,
        z.strictObject({ format: z.optional(z.enum(["metadata", "raw", "full"])) }),
      );
      return ok(draftJson(draftOf(ctx, mailboxOf(ctx)), format === "raw"));
    },
  },
  {
    method: "PUT",
    path: `${ROOT}/drafts/:draft_id`,
    auth: "token",
    scopes: MODIFY,
    identities: ["user"],
    async handle(ctx) {
      const box = mailboxOf(ctx);
      draftOf(ctx, box);
      const { raw } = strictBody(ctx, Raw);
      write(ctx, box, ctx.params.draft_id, raw, await parseMessage(raw), true);
      return ok(draftJson(draftOf(ctx, box)));
    },
  },
  {
    method: "POST",
    path: `${ROOT}/drafts/:draft_id/send`,
    auth: "token",
    scopes: MAIL_SEND,
    identities: ["user"],
    handle(ctx) {
      const box = mailboxOf(ctx);
      const draft = draftOf(ctx, box);
      const { send_time } = strictBody(ctx, Send);
      const r = JSON.parse(draft.recipients) as Record<"to" | "cc" | "bcc", { mail_address: string }[]> & {
        headers?: Parsed["headers"];
      };
      const everyone = [...r.to, ...r.cc, ...r.bcc].map((a) => a.mail_address);
      if (everyone.length === 0) invalidParam("the draft has no recipient");
      const message_id = `mail_${newHex(ctx.st.db, "mail", 20)}`;
      const later = send_time !== undefined && Number(send_time) * 1000 > ctx.st.clock.now();
      tx(ctx.st.db, () => {
        run(
          ctx.st.db,
          "UPDATE mails SET message_id = ?, folder = ?, create_time = ? WHERE message_id = ?",
          message_id,
          later ? "SCHEDULED" : "SENT",
          ctx.st.clock.now(),
          draft.message_id,
        );
        if (later) return;
        everyone.forEach((addr, i) => {
          if (!one(ctx.st.db, "SELECT 1 AS x FROM users WHERE email = ?", addr)) return;
          run(
            ctx.st.db,
            `INSERT INTO mails (message_id, mailbox, folder, subject, head_from, recipients, body_plain, body_html,
               raw, attachments, create_time)
             SELECT ?, ?, 'INBOX', subject, head_from, recipients, body_plain, body_html, raw, attachments, create_time
             FROM mails WHERE message_id = ?`,
            `${message_id}_${i}`,
            addr,
            message_id,
          );
        });
        // After the copies: the recipients' copies are not labelled as the sender's receipt is.
        if (r.headers?.read_receipt_mail) answerReceipt(ctx, box, message_id, r.headers.in_reply_to);
      });
      return ok({ message_id, ...(later ? { send_time } : {}) });
    },
  },
  {
    method: "POST",
    path: `${ROOT}/messages/batch_trash`,
    auth: "token",
    scopes: MODIFY,
    identities: ["user"],
    handle(ctx) {
      move(
        ctx,
        "TRASH",
        strictBody(ctx, z.strictObject({ message_ids: Batch.shape.message_ids })).message_ids,
      );
      return ok({});
    },
  },
  {
    method: "PUT",
    path: `${ROOT}/messages/:message_id/modify`,
    auth: "token",
    scopes: MODIFY,
    identities: ["user"],
    handle(ctx) {
      const b = strictBody(
        ctx,
        z.strictObject({
          add_label_ids: z.optional(z.array(z.string())),
          remove_label_ids: z.optional(z.array(z.string())),
          add_folder: z.optional(z.string()),
        }),
      );
      const id = ctx.params.message_id;
      relabel(ctx, [id], b.add_label_ids, b.remove_label_ids);
      if (b.add_folder) move(ctx, b.add_folder, [id]);
      return ok({});
    },
  },
  {
    method: "POST",
    path: `${ROOT}/messages/batch_modify`,
    auth: "token",
    scopes: MODIFY,
    identities: ["user"],
    handle(ctx) {
      const b = strictBody(ctx, Batch);
      relabel(ctx, b.message_ids, b.add_label_ids, b.remove_label_ids);
      if (b.add_folder) move(ctx, b.add_folder, b.message_ids);
      return ok({});
    },
  },
];
