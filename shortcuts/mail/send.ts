/**
 * `mail +send`: sends an email from the user's mailbox — plain text or HTML (detected from the body, or forced
 * with `--plain-text`), to/cc/bcc, and local files as attachments (base64url in the request, as the suite
 * takes them). Sent mail cannot be recalled: preview with `--dry-run`.
 */
import { basename } from "node:path";
import { z } from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type FlagValues, type ShortcutContext } from "../declare.ts";
import { addressesOf, mailboxFlag, messagesPath } from "./mailbox.ts";

/** The suite's limit on the attachments of one message. */
export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;

const flags = {
  to: flag.string("recipient address(es), comma-separated"),
  cc: flag.string("CC address(es), comma-separated"),
  bcc: flag.string("BCC address(es), comma-separated"),
  subject: flag.requiredString("subject"),
  body: flag.requiredString("body: HTML or plain text (detected)", { input: ["file", "stdin"] }),
  "plain-text": flag.boolean("send the body as plain text even if it looks like HTML"),
  attach: flag.string("attachment path(s), relative, comma-separated", { placeholder: "paths" }),
  mailbox: mailboxFlag,
};
type Flags = typeof flags;

const HTML = /<(html|body|p|div|br|span|a|b|i|strong|em|ul|ol|li|table|h[1-6]|img)\b[^>]*>/i;

export function isHtml(body: string): boolean {
  return HTML.test(body);
}

const ADDRESS = /^[^@\s,<>]+@[^@\s,<>]+\.[^@\s,<>]+$/;

/** Recipients, checked: at least one, each a plain address. */
export function recipientsOf(f: FlagValues<Flags>) {
  const lists = { to: addressesOf(f.to), cc: addressesOf(f.cc), bcc: addressesOf(f.bcc) };
  const all = [...lists.to, ...lists.cc, ...lists.bcc];
  if (all.length === 0) throw errors.validation("specify at least one recipient: --to, --cc or --bcc");
  const bad = all.find((a) => !ADDRESS.test(a.mail_address));
  if (bad) {
    throw errors.validation(`not an email address: "${bad.mail_address}"`, {
      hint: "e.g. --to bob@example.com",
    });
  }
  return lists;
}

export function attachmentPaths(f: FlagValues<Flags>): string[] {
  return (f.attach ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

function content(f: FlagValues<Flags>) {
  return !f["plain-text"] && isHtml(f.body) ? { body_html: f.body } : { body_plain_text: f.body };
}

/** The attachments inline (base64url), their total size checked locally before anything is sent. */
async function attachments(ctx: ShortcutContext<Flags>) {
  let total = 0;
  const out: { filename: string; body: string }[] = [];
  for (const path of attachmentPaths(ctx.flags)) {
    total += (await ctx.localFile("attach", path)).size;
    if (total > MAX_ATTACHMENT_BYTES) {
      throw errors.validation(
        `--attach: attachments exceed ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB in total`,
        {
          hint: "upload large files to Drive (larkit drive +upload) and send the link instead",
        },
      );
    }
    out.push({ filename: basename(path), body: await ctx.inlineFile("attach", path) });
  }
  return out;
}

export const send = defineShortcut({
  service: "mail",
  command: "+send",
  description: "Send an email (plain text or HTML, with attachments)",
  examples: [
    'larkit mail +send --to bob@example.com --subject "Report" --body "Attached." --attach ./report.pdf',
    "larkit mail +send --to a@example.com,b@example.com --subject Update --body @update.html --dry-run",
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ["mail:user_mailbox.message:send"] },
  hasFormat: false,
  flags,
  async run(ctx) {
    const body = {
      subject: ctx.flags.subject,
      ...recipientsOf(ctx.flags),
      ...content(ctx.flags),
      attachments: await attachments(ctx),
    };
    const sent = await ctx.api({
      method: "POST",
      path: messagesPath(ctx.flags.mailbox, "/send"),
      body,
      response: z.looseObject({ message_id: z.string() }),
      planned: { message_id: "<message_id>" },
    });
    await ctx.out({
      message_id: sent.message_id,
      subject: body.subject,
      to: body.to.map((a) => a.mail_address),
      format: "body_html" in body ? "html" : "plain_text",
      attachments: body.attachments.map((a) => a.filename),
    });
  },
});
