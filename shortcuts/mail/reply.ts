/**
 * `mail +reply`, `+reply-all` and `+forward`: a message built on an existing one -- `Re:`/`Fwd:` subject, the
 * original quoted below the new text, replies threaded by `In-Reply-To` (the original's Message-ID) and
 * `References` (its chain plus that ID) -- SAVED AS A DRAFT unless `--confirm-send`.
 * Reply-all answers the sender and every To/CC recipient except the mailbox itself (and `--remove`).
 */
import * as z from "zod";
import { defineShortcut, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { token } from "../vc/common.ts";
import { addressesOf, messagesPath } from "./mailbox.ts";
import {
  type Address,
  bodyFlags,
  checkAddresses,
  extrasOf,
  filesOf,
  isHtml,
  ownMailbox,
  recipientFlags,
  recipientsOf,
  saveOrSend,
  sendFlags,
} from "./compose.ts";
import { decodeBody } from "./messages.ts";

const Original = z.object({
  message: z.looseObject({
    message_id: z.string(),
    subject: z._default(z.string(), ""),
    head_from: z.optional(z.looseObject({ mail_address: z.string(), name: z.optional(z.string()) })),
    to: z._default(z.array(z.looseObject({ mail_address: z.string() })), []),
    cc: z._default(z.array(z.looseObject({ mail_address: z.string() })), []),
    body_plain_text: z._default(z.string(), ""),
    body_html: z._default(z.string(), ""),
    internal_date: z.optional(z.string()),
    smtp_message_id: z.optional(z.string()),
    // A string in the SDK's type; some answers give the chain as a list.
    references: z.optional(z.union([z.string(), z.array(z.string())])),
    label_ids: z.optional(z.array(z.string())),
  }),
});
export type OriginalMail = z.infer<typeof Original>["message"];

export async function originalOf<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  mailbox: string | undefined,
  id: string,
) {
  return (await ctx.api({
    method: "GET",
    path: messagesPath(mailbox, `/${encodeURIComponent(token("message-id", id))}`),
    description: "the original message",
    response: Original,
    planned: Original.parse({
      message: { message_id: id, subject: "<subject>", head_from: { mail_address: "sender@example.com" } },
    }),
  })).message;
}

/** `Re: x` / `Fwd: x`, not stacking the prefix. */
export function prefixed(prefix: "Re" | "Fwd", subject: string): string {
  return new RegExp(`^${prefix}:`, "i").test(subject) ? subject : `${prefix}: ${subject}`;
}

/** The new text above the original, quoted (HTML when either is HTML). */
export function quoted(
  text: string,
  m: OriginalMail,
  plain: boolean,
  heading: string,
): { html: string } | { text: string } {
  const html = decodeBody(m.body_html);
  const origPlain = decodeBody(m.body_plain_text);
  if (!plain && (isHtml(text) || html)) {
    const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    const mine = isHtml(text) ? text : `<p>${esc(text)}</p>`;
    return { html: `${mine}<p>${esc(heading)}</p><blockquote>${html || esc(origPlain)}</blockquote>` };
  }
  const q = origPlain.split("\n").map((l) => `> ${l}`).join("\n");
  return { text: `${text}\n\n${heading}\n${q}` };
}

/** In-Reply-To and References of an answer to `m` (none when the original has no Message-ID). */
export function threadOf(m: OriginalMail) {
  const id = m.smtp_message_id?.trim();
  if (!id) return {};
  const bracketed = (x: string) => (x.startsWith("<") ? x : `<${x}>`);
  const chain = typeof m.references === "string"
    ? m.references.trim()
    : (m.references ?? []).map((r) => r.trim()).filter(Boolean).map(bracketed).join(" ");
  const own = bracketed(id);
  return { inReplyTo: own, references: [chain, own].filter(Boolean).join(" ") };
}

function headingOf(m: OriginalMail, zone: string, what: "wrote" | "forwarded") {
  const who = m.head_from?.mail_address ?? "unknown sender";
  const when = m.internal_date
    ? new Date(Number(m.internal_date)).toLocaleString("en-GB", { timeZone: zone })
    : "";
  return what === "wrote"
    ? `On ${when}, ${who} wrote:`
    : `---------- Forwarded message ----------\nFrom: ${who}\nDate: ${when}\nSubject: ${m.subject}`;
}

const replyFlags = {
  "message-id": flag.requiredString("the message answered"),
  body: flag.requiredString("your text: HTML or plain text (detected)", { input: ["file", "stdin"] }),
  subject: flag.string("subject (default: Re: the original's)"),
  ...recipientFlags,
  ...bodyFlags,
  ...sendFlags,
};
/** Reading the original message and saving what answers it as a draft (sending adds `message:send`). */
export const ANSWER_SCOPES = [
  "mail:user_mailbox.message:modify",
  "mail:user_mailbox.message:readonly",
  "mail:user_mailbox:readonly",
  "mail:user_mailbox.message.address:read",
  "mail:user_mailbox.message.subject:read",
  "mail:user_mailbox.message.body:read",
];

const uniq = (list: Address[], drop: Set<string>) => {
  const seen = new Set(drop);
  return list.filter((a) => {
    const k = a.mail_address.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
};

function defineReply(all: boolean) {
  return defineShortcut({
    service: "mail",
    command: all ? "+reply-all" : "+reply",
    description: all
      ? "Reply to the sender and all recipients; saved as a draft unless --confirm-send (user identity only)"
      : "Reply to a message's sender; saved as a draft unless --confirm-send (user identity only)",
    examples: [
      `larkit mail +${all ? "reply-all" : "reply"} --message-id mail_123 --body "Thanks, agreed."`,
      `larkit mail +${all ? "reply-all" : "reply"} --message-id mail_123 --body @answer.html --confirm-send`,
    ],
    risk: "write",
    authTypes: ["user"],
    scopes: { user: ANSWER_SCOPES },
    hasFormat: false,
    flags: all
      ? { ...replyFlags, remove: flag.string("addresses to leave out, comma-separated") }
      : replyFlags,
    async run(ctx) {
      const f = ctx.flags as typeof ctx.flags & { remove?: string };
      const extra = recipientsOf(f, true);
      const m = await originalOf(ctx, f.mailbox, f["message-id"]);
      const sender = m.head_from ? [{ mail_address: m.head_from.mail_address }] : [];
      const own = await ownMailbox(ctx, f.mailbox);
      let to: Address[] = [...sender, ...extra.to];
      let cc: Address[] = extra.cc;
      if (all) {
        const me = own.mail_address.toLowerCase();
        const drop = new Set([
          me,
          ...checkAddresses(addressesOf(f.remove)).map((a) => a.mail_address.toLowerCase()),
        ]);
        to = uniq([...to, ...m.to.map((a) => ({ mail_address: a.mail_address }))], drop);
        cc = uniq(
          [...cc, ...m.cc.map((a) => ({ mail_address: a.mail_address }))],
          new Set([...drop, ...to.map((a) => a.mail_address.toLowerCase())]),
        );
      }
      const content = quoted(f.body, m, f["plain-text"], headingOf(m, ctx.timeZone, "wrote"));
      await saveOrSend(ctx, f, {
        subject: f.subject ?? prefixed("Re", m.subject),
        to,
        cc,
        bcc: extra.bcc,
        ...content,
        ...await filesOf(ctx, f, "html" in content ? content.html : undefined),
        ...threadOf(m),
        ...extrasOf(f),
      }, own);
    },
  });
}

export const reply = defineReply(false);
export const replyAll = defineReply(true);

export const forward = defineShortcut({
  service: "mail",
  command: "+forward",
  description: "Forward a message with a note; saved as a draft unless --confirm-send (user identity only)",
  examples: [
    'larkit mail +forward --message-id mail_123 --to carol@example.com --body "FYI"',
    'larkit mail +forward --message-id mail_123 --to carol@example.com --body "FYI" --confirm-send',
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ANSWER_SCOPES },
  hasFormat: false,
  flags: {
    "message-id": flag.requiredString("the message forwarded"),
    body: flag.string("a note above the forwarded message", { input: ["file", "stdin"] }),
    subject: flag.string("subject (default: Fwd: the original's)"),
    ...recipientFlags,
    ...bodyFlags,
    ...sendFlags,
  },
  async run(ctx) {
    const f = ctx.flags;
    const rcpt = recipientsOf(f);
    const m = await originalOf(ctx, f.mailbox, f["message-id"]);
    const content = quoted(f.body ?? "", m, f["plain-text"], headingOf(m, ctx.timeZone, "forwarded"));
    await saveOrSend(ctx, f, {
      subject: f.subject ?? prefixed("Fwd", m.subject),
      ...rcpt,
      ...content,
      ...await filesOf(ctx, f, "html" in content ? content.html : undefined),
      // A forward references the original (its thread), without answering it.
      ...(threadOf(m).inReplyTo ? { references: threadOf(m).references } : {}),
      ...extrasOf(f),
    });
  },
});
