/**
 * `mail +messages`: messages of a mailbox folder (INBOX by default), newest first, one page -- or the messages
 * named by `--message-ids`. The suite lists ids only, so each message is then fetched; bodies arrive
 * base64url-encoded and are decoded here, so agents read text, not base64.
 */
import type { Column } from "../../cli/output/formats/rows.ts";
import * as z from "zod";
import { renderTable } from "../../cli/output/formats/table.ts";
import { formatRfc3339 } from "../common/time.ts";
import { defineShortcut, flag, type FlagValues } from "../declare.ts";
import { itemsPage } from "../im/paging.ts";
import { mailboxFlag, messagesPath } from "./mailbox.ts";

const flags = {
  mailbox: mailboxFlag,
  "folder-id": flag.string("folder: INBOX, SENT, \u2026 (default: INBOX)"),
  "message-ids": flag.string("comma-separated message IDs to read instead of listing a folder"),
  "page-size": flag.integer("messages per page (1-20)", { default: 20, min: 1, max: 20 }),
  "page-token": flag.string("page token from the previous page's meta.page_token"),
};
type Flags = FlagValues<typeof flags>;

function listQuery(f: Flags) {
  return { folder_id: f["folder-id"] ?? "INBOX", page_size: f["page-size"], page_token: f["page-token"] };
}

function idsOf(f: Flags): string[] | undefined {
  return f["message-ids"]?.split(",").map((s) => s.trim()).filter(Boolean);
}

const Address = z.looseObject({ mail_address: z.string(), name: z.optional(z.string()) });
export const SuiteMail = z.looseObject({
  message_id: z.string(),
  subject: z._default(z.string(), ""),
  head_from: z.optional(Address),
  to: z._default(z.array(Address), []),
  cc: z._default(z.array(Address), []),
  body_plain_text: z._default(z.string(), ""),
  body_html: z._default(z.string(), ""),
  attachments: z._default(z.array(z.unknown()), []),
  internal_date: z.optional(z.string()),
  folder_id: z.optional(z.string()),
  label_ids: z.optional(z.array(z.string())),
});
const IdPage = itemsPage(z.string());

/** base64url body text -> text; a body that is not base64url is kept as sent. */
export function decodeBody(encoded: string): string {
  if (!encoded) return "";
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(
      Uint8Array.fromBase64(encoded, { alphabet: "base64url" }),
    );
  } catch {
    return encoded;
  }
}

export function shapeMail(m: z.infer<typeof SuiteMail>, zone: string): Record<string, unknown> {
  return {
    message_id: m.message_id,
    subject: m.subject,
    from: m.head_from,
    to: m.to,
    cc: m.cc,
    date: m.internal_date ? formatRfc3339(Number(m.internal_date), zone) : undefined,
    folder_id: m.folder_id,
    // READ_RECEIPT_REQUEST here is how a reader learns the sender asked for a read receipt.
    label_ids: m.label_ids ?? [],
    body_plain_text: decodeBody(m.body_plain_text),
    body_html: decodeBody(m.body_html),
    attachments: m.attachments,
  };
}

/** A mail list's table, as the pretty view shows it. */
export const MAIL_COLUMNS: Column[] = [
  "date",
  { name: "from", value: (m) => (m as { from?: { mail_address?: string } }).from?.mail_address },
  "subject",
  "message_id",
];

function mailText(data: unknown): string {
  const mails = data as Record<string, unknown>[];
  if (mails.length === 0) return "No messages.\n";
  return renderTable(mails.map((m) => ({
    date: m.date,
    from: (m.from as { mail_address?: string } | undefined)?.mail_address ?? "",
    subject: m.subject,
    message_id: m.message_id,
  })));
}

export const messages = defineShortcut({
  service: "mail",
  command: "+messages",
  description: "List the messages of a mailbox folder (newest first), bodies decoded",
  examples: [
    "larkit mail +messages --format table",
    "larkit mail +messages --folder-id SENT --page-size 5",
    "larkit mail +messages --message-ids mail_123,mail_456 --jq '.data[].body_plain_text'",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["mail:user_mailbox.message:readonly"] },
  hasFormat: true,
  columns: MAIL_COLUMNS,
  flags,
  async run(ctx) {
    const mailbox = ctx.flags.mailbox;
    let ids = idsOf(ctx.flags);
    let page: z.infer<typeof IdPage> | undefined;
    if (!ids) {
      page = await ctx.api({
        method: "GET",
        path: messagesPath(mailbox),
        params: listQuery(ctx.flags),
        response: IdPage,
        planned: { items: ["<message_id>"], has_more: false },
      });
      ids = page.items ?? [];
    }
    const mails = [];
    for (const id of ids) {
      const { message } = await ctx.api({
        method: "GET",
        path: messagesPath(mailbox, `/${encodeURIComponent(id)}`),
        description: page ? "once per listed message" : undefined,
        response: z.object({ message: SuiteMail }),
        planned: { message: SuiteMail.parse({ message_id: id }) },
      });
      mails.push(shapeMail(message, ctx.timeZone));
    }
    await ctx.outFormat(mails, {
      count: mails.length,
      ...(page ? { has_more: page.has_more } : {}),
      ...(page?.has_more && page.page_token ? { page_token: page.page_token } : {}),
    }, mailText);
  },
});
