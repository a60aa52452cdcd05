/**
 * `mail +triage`: a folder at a glance -- date, sender, subject, message ID -- newest first, without bodies, so
 * an agent can pick what to read with `+message`/`+messages`.
 */
import * as z from "zod";
import { tableOr } from "../common/pretty.ts";
import { formatRfc3339 } from "../common/time.ts";
import { defineShortcut, flag } from "../declare.ts";
import { itemsPage, listPages, pageFlags } from "../im/paging.ts";
import { mailboxFlag, messagesPath } from "./mailbox.ts";
import { SuiteMail } from "./messages.ts";

export const triage = defineShortcut({
  service: "mail",
  command: "+triage",
  description:
    "List mail summaries of a folder (date, from, subject, message ID), newest first (user identity only)",
  examples: [
    "larkit mail +triage --format table",
    "larkit mail +triage --folder-id SENT --page-all --page-limit 3",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: {
    user: [
      "mail:user_mailbox.message:readonly",
      "mail:user_mailbox.message.address:read",
      "mail:user_mailbox.message.subject:read",
    ],
  },
  hasFormat: true,
  columns: ["date", "from", "subject", "message_id"],
  flags: {
    "folder-id": flag.string("folder: INBOX, SENT, DRAFT, TRASH, \u2026 (default: INBOX)"),
    mailbox: mailboxFlag,
    ...pageFlags({ default: 20, max: 20, noun: "messages" }),
  },
  async run(ctx) {
    const mailbox = ctx.flags.mailbox;
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: messagesPath(mailbox),
      params: { folder_id: ctx.flags["folder-id"] ?? "INBOX" },
      response: itemsPage(z.string()),
      planned: { items: ["<message_id>"], has_more: false },
    });
    const rows = [];
    for (const id of pages.flatMap((p) => p.items ?? [])) {
      const { message: m } = await ctx.api({
        method: "GET",
        path: messagesPath(mailbox, `/${encodeURIComponent(id)}`),
        description: "once per listed message",
        response: z.object({ message: SuiteMail }),
        planned: { message: SuiteMail.parse({ message_id: id }) },
      });
      rows.push({
        date: m.internal_date ? formatRfc3339(Number(m.internal_date), ctx.timeZone) : null,
        from: m.head_from?.mail_address ?? null,
        subject: m.subject,
        message_id: m.message_id,
        attachments: m.attachments.length,
      });
    }
    await ctx.outFormat(
      rows,
      meta(rows.length),
      tableOr("No messages.\n", ["date", "from", "subject", "message_id"]),
    );
  },
});
