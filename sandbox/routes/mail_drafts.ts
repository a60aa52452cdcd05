/**
 * Mail drafts and batch moves for user mailboxes (the endpoints `mail +send`, `+reply`, `+forward`,
 * `+draft-*`, `+message-modify` and `+message-trash` call). A draft is a row of the mails table in the DRAFT
 * folder; sending it moves it to SENT under a new message ID and delivers a copy to the INBOX of every
 * recipient that is a mailbox in this tenant -- the same outcome as `messages/send`. A `send_time` in the
 * future keeps it in SCHEDULED instead. `profile` names the caller's own address (reply-all leaves it out).
 */
import * as z from "zod";
import { newHex, one, run, tx } from "../db.ts";
import { invalidParam, ok, raise } from "../reply.ts";
import { type CallerCtx, jsonBody, type Route } from "../router.ts";
import { MAIL_SEND } from "../scopes.ts";
import { mailboxOf, mailJson, type MailRow } from "./mail.ts";

const MODIFY = ["mail:user_mailbox.message:modify"];
const READ = ["mail:user_mailbox.message:readonly"];
const ROOT = "/open-apis/mail/v1/user_mailboxes/:user_mailbox_id";

const Address = z.object({ mail_address: z.string().check(z.email()), name: z.optional(z.string()) });
const Draft = z.object({
  subject: z._default(z.string(), ""),
  to: z._default(z.array(Address), []),
  cc: z._default(z.array(Address), []),
  bcc: z._default(z.array(Address), []),
  body_html: z.optional(z.string()),
  body_plain_text: z.optional(z.string()),
  attachments: z.optional(
    z.array(z.object({ body: z.string(), filename: z.string().check(z.minLength(1)) })),
  ),
  in_reply_to: z.optional(z.string()),
  request_receipt: z.optional(z.boolean()),
  priority: z.optional(z.enum(["high", "normal", "low"])),
});

function attachmentsOf(d: z.infer<typeof Draft>) {
  return (d.attachments ?? []).map((a, i) => {
    try {
      return {
        id: `att_${i + 1}`,
        filename: a.filename,
        size: Uint8Array.fromBase64(a.body, { alphabet: "base64url" }).length,
      };
    } catch {
      return invalidParam(`attachments[${i}].body must be base64url`);
    }
  });
}

function draftOf(ctx: CallerCtx, box: string): MailRow {
  return one<MailRow>(
    ctx.st.db,
    "SELECT * FROM mails WHERE mailbox = ? AND message_id = ? AND folder = 'DRAFT'",
    box,
    ctx.params.draft_id,
  ) ?? raise(404, 1230003, `draft not found: ${ctx.params.draft_id}`);
}

function draftJson(m: MailRow) {
  return { draft: { draft_id: m.message_id, message: mailJson(m) } };
}

function write(ctx: CallerCtx, box: string, id: string, d: z.infer<typeof Draft>, replace: boolean) {
  const owner = one<{ name: string }>(
    ctx.st.db,
    "SELECT name FROM users WHERE open_id = ?",
    ctx.caller.openId,
  );
  const args = [
    d.subject,
    JSON.stringify({ name: owner?.name ?? "", mail_address: box }),
    JSON.stringify({ to: d.to, cc: d.cc, bcc: d.bcc }),
    d.body_plain_text ?? "",
    d.body_html ?? "",
    // A replacement without attachments keeps the draft's own (an edit of the text does not drop files).
    replace && d.attachments === undefined
      ? (one<{ attachments: string }>(ctx.st.db, "SELECT attachments FROM mails WHERE message_id = ?", id)
        ?.attachments ?? "[]")
      : JSON.stringify(attachmentsOf(d)),
  ] as const;
  if (replace) {
    run(
      ctx.st.db,
      `UPDATE mails SET subject = ?, head_from = ?, recipients = ?, body_plain = ?, body_html = ?, attachments = ?
       WHERE message_id = ?`,
      ...args,
      id,
    );
  } else {
    run(
      ctx.st.db,
      `INSERT INTO mails (subject, head_from, recipients, body_plain, body_html, attachments, message_id, mailbox,
         folder, raw, create_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'DRAFT', NULL, ?)`,
      ...args,
      id,
      box,
      ctx.st.clock.now(),
    );
  }
}

const Send = z.object({
  send_time: z.optional(z.string().check(z.regex(/^\d+$/, "send_time must be Unix seconds"))),
});
const Batch = z.object({
  message_ids: z.array(z.string()).check(z.minLength(1), z.maxLength(20)),
  add_label_ids: z.optional(z.array(z.string())),
  remove_label_ids: z.optional(z.array(z.string())),
  add_folder: z.optional(z.string()),
});

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
    handle(ctx) {
      const box = mailboxOf(ctx);
      const d = jsonBody(ctx, Draft);
      const id = `draft_${newHex(ctx.st.db, "mail_draft", 16)}`;
      write(ctx, box, id, d, false);
      return ok(draftJson(draftOf({ ...ctx, params: { ...ctx.params, draft_id: id } }, box)));
    },
  },
  {
    method: "GET",
    path: `${ROOT}/drafts/:draft_id`,
    auth: "token",
    scopes: READ,
    identities: ["user"],
    handle: (ctx) => ok(draftJson(draftOf(ctx, mailboxOf(ctx)))),
  },
  {
    method: "PUT",
    path: `${ROOT}/drafts/:draft_id`,
    auth: "token",
    scopes: MODIFY,
    identities: ["user"],
    handle(ctx) {
      const box = mailboxOf(ctx);
      draftOf(ctx, box);
      write(ctx, box, ctx.params.draft_id, jsonBody(ctx, Draft), true);
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
      const { send_time } = jsonBody(ctx, Send);
      const r = JSON.parse(draft.recipients) as Record<"to" | "cc" | "bcc", { mail_address: string }[]>;
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
      move(ctx, "TRASH", jsonBody(ctx, z.pick(Batch, { message_ids: true })).message_ids);
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
      const b = jsonBody(ctx, Batch);
      // Labels are not modelled; a folder move is, so a test sees the message arrive where it was sent.
      if (b.add_folder) move(ctx, b.add_folder, b.message_ids);
      return ok({});
    },
  },
];
