/**
 * What the composing mail shortcuts share (+send, +draft-create, +reply, +reply-all, +forward): the message
 * flags, the draft body, and the safety rule -- a composed message is SAVED AS A DRAFT unless `--confirm-send`
 * is given (then the draft is sent, now or at `--send-time`). `--yes` never sends on its own.
 */
import { basename } from "node:path";
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { parseTime, unixSeconds } from "../common/time.ts";
import { flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { addressesOf, mailboxFlag } from "./mailbox.ts";

/** The suite's limit on the attachments of one message. */
export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;

export const sendFlags = {
  "confirm-send": flag.boolean(
    "send it (after the user confirmed); without it the message is saved as a draft",
  ),
  "send-time": flag.string("schedule the send (ISO 8601 or Unix seconds; needs --confirm-send)"),
};

export const bodyFlags = {
  "plain-text": flag.boolean("send the body as plain text even if it looks like HTML"),
  attach: flag.string("attachment path(s), relative, comma-separated", { placeholder: "paths" }),
  "request-receipt": flag.boolean("ask the recipients for a read receipt"),
  priority: flag.choice(["normal", "high", "low"] as const, "priority", { default: "normal" }),
  mailbox: mailboxFlag,
};

export const recipientFlags = {
  to: flag.string("recipient address(es), comma-separated"),
  cc: flag.string("CC address(es), comma-separated"),
  bcc: flag.string("BCC address(es), comma-separated"),
};

const HTML = /<(html|body|p|div|br|span|a|b|i|strong|em|ul|ol|li|table|h[1-6]|img)\b[^>]*>/i;

export function isHtml(body: string): boolean {
  return HTML.test(body);
}

const ADDRESS = /^[^@\s,<>]+@[^@\s,<>]+\.[^@\s,<>]+$/;
export type Address = { mail_address: string; name?: string };

/** Each address checked to be a plain address. */
export function checkAddresses(list: Address[]): Address[] {
  const bad = list.find((a) => !ADDRESS.test(a.mail_address));
  if (bad) {
    throw errors.validation(`not an email address: "${bad.mail_address}"`, {
      hint: "e.g. --to bob@example.com",
    });
  }
  return list;
}

/** Recipients from the flags, checked: at least one unless `optional`. */
export function recipientsOf(f: { to?: string; cc?: string; bcc?: string }, optional = false) {
  const lists = {
    to: checkAddresses(addressesOf(f.to)),
    cc: checkAddresses(addressesOf(f.cc)),
    bcc: checkAddresses(addressesOf(f.bcc)),
  };
  if (!optional && lists.to.length + lists.cc.length + lists.bcc.length === 0) {
    throw errors.validation("specify at least one recipient: --to, --cc or --bcc");
  }
  return lists;
}

/** `{ body_html }` or `{ body_plain_text }`, as the body looks (or as `--plain-text` forces). */
export function contentOf(body: string, plain: boolean) {
  return !plain && isHtml(body) ? { body_html: body } : { body_plain_text: body };
}

/** The attachments inline (base64url), their total size checked locally before anything is sent. */
export async function attachmentsOf<F extends FlagSpecs>(ctx: ShortcutContext<F>, list: string | undefined) {
  const paths = (list ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  let total = 0;
  const out: { filename: string; body: string }[] = [];
  for (const path of paths) {
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

/** `--send-time` as Unix seconds, refused without `--confirm-send` or when it is not in the future. */
export function sendTimeOf(f: { "confirm-send": boolean; "send-time"?: string }, now: number, zone: string) {
  if (!f["send-time"]) return undefined;
  if (!f["confirm-send"]) {
    throw errors.validation("--send-time needs --confirm-send", {
      hint: "scheduling sends the message: confirm with the user, then add --confirm-send",
    });
  }
  const at = parseTime("send-time", f["send-time"], zone);
  if (at <= now) throw errors.validation("--send-time must be in the future");
  return unixSeconds(at);
}

export function draftsPath(mailbox: string | undefined, rest = ""): string {
  return `/open-apis/mail/v1/user_mailboxes/${encodeURIComponent(mailbox ?? "me")}/drafts${rest}`;
}

const Draft = z.object({ draft: z.looseObject({ draft_id: z.string() }) });

export interface DraftBody {
  subject: string;
  to: Address[];
  cc: Address[];
  bcc: Address[];
  body_html?: string;
  body_plain_text?: string;
  attachments: { filename: string; body: string }[];
  in_reply_to?: string;
  request_receipt?: boolean;
  priority?: string;
}

/** The shared extras of a draft body from the flags. */
export function extrasOf(f: { "request-receipt": boolean; priority: string }) {
  return {
    ...(f["request-receipt"] ? { request_receipt: true } : {}),
    ...(f.priority !== "normal" ? { priority: f.priority } : {}),
  };
}

/**
 * Saves the draft, then -- only with `--confirm-send` -- sends it. The result says which happened and, for a
 * draft, how to send it.
 */
export async function saveOrSend<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  f: { "confirm-send": boolean; "send-time"?: string; mailbox?: string },
  body: DraftBody,
): Promise<void> {
  const sendTime = sendTimeOf(f, ctx.now(), ctx.timeZone);
  const { draft } = await ctx.api({
    method: "POST",
    path: draftsPath(f.mailbox),
    body,
    description: "save the draft",
    response: Draft,
    planned: { draft: { draft_id: "<draft_id>" } },
  });
  const summary = {
    draft_id: draft.draft_id,
    subject: body.subject,
    to: body.to.map((a) => a.mail_address),
    format: body.body_html !== undefined ? "html" : "plain_text",
    attachments: body.attachments.map((a) => a.filename),
  };
  if (!f["confirm-send"]) {
    return await ctx.out({ ...summary, sent: false }, {
      next: `saved as a draft; to send it: larkit mail +draft-send --draft-id ${draft.draft_id} --yes`,
    });
  }
  const sent = await ctx.api({
    method: "POST",
    path: draftsPath(f.mailbox, `/${encodeURIComponent(draft.draft_id)}/send`),
    body: sendTime ? { send_time: sendTime } : {},
    description: sendTime ? "schedule the send" : "send the draft",
    response: z.looseObject({ message_id: z.optional(z.string()) }),
    planned: { message_id: "<message_id>" },
  });
  await ctx.out({
    ...summary,
    sent: true,
    message_id: sent.message_id ?? null,
    ...(sendTime ? { send_time: sendTime } : {}),
  });
}
