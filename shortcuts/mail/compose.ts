/**
 * What the composing mail shortcuts share (+send, +draft-create, +reply, +reply-all, +forward, +send-receipt):
 * the message flags, the message itself -- an RFC 5322 message posted as `{"raw": ...}`, the only draft body the
 * suite takes (built in `mime.ts`) -- and the safety rule: a composed message is SAVED AS A DRAFT unless
 * `--confirm-send` is given (then the draft is sent, now or at `--send-time`). `--yes` never sends on its own.
 */
import { basename } from "node:path";
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { parseTime, unixSeconds } from "../common/time.ts";
import { flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { addressesOf, mailboxFlag } from "./mailbox.ts";
import { lazy } from "../../cli/lazy.ts";
import type { MailFile, MailMessage } from "./mime.ts";

export const mime = () => lazy("shortcuts/mail/mime.ts");

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
  inline: flag.string(
    'inline images as JSON: [{"cid":"logo","file_path":"./logo.png"}], shown by <img src="cid:logo"> (HTML body)',
    { placeholder: "json" },
  ),
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

/** `{ html }` or `{ text }`, as the body looks (or as `--plain-text` forces). */
export function contentOf(body: string, plain: boolean): { html: string } | { text: string } {
  return !plain && isHtml(body) ? { html: body } : { text: body };
}

const InlineSpec = z.array(
  z.object({ cid: z.string().check(z.regex(/^[A-Za-z0-9._-]+$/)), file_path: z.string() }),
);

/**
 * The attachments and inline images as file contents, their total size checked locally before anything is
 * sent. An inline image needs an HTML body that shows it (`<img src="cid:...">`).
 */
export async function filesOf<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  f: { attach?: string; inline?: string },
  html: string | undefined,
): Promise<{ attachments: MailFile[]; inline: MailFile[] }> {
  let specs: z.infer<typeof InlineSpec> = [];
  if (f.inline !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(f.inline);
    } catch {
      parsed = undefined;
    }
    const r = InlineSpec.safeParse(parsed);
    if (!r.success) {
      throw errors.validation('--inline must be JSON: [{"cid":"logo","file_path":"./logo.png"}]', {
        hint: "cid: letters, digits, . _ -; file_path: a relative path",
      });
    }
    specs = r.data;
    if (html === undefined) throw errors.validation("--inline needs an HTML body (drop --plain-text)");
    const missing = specs.find((s) => !html.includes(`cid:${s.cid}`));
    if (missing) {
      throw errors.validation(`--inline: the body never shows cid "${missing.cid}"`, {
        hint: `add <img src="cid:${missing.cid}"> to the body`,
      });
    }
  }
  let total = 0;
  const read = async (name: string, path: string): Promise<MailFile> => {
    total += (await ctx.localFile(name, path)).size;
    if (total > MAX_ATTACHMENT_BYTES) {
      throw errors.validation(
        `--${name}: attachments exceed ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB in total`,
        { hint: "upload large files to Drive (larkit drive +upload) and send the link instead" },
      );
    }
    return { filename: basename(path), base64: await ctx.inlineFile(name, path) };
  };
  const paths = (f.attach ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const attachments = [];
  for (const path of paths) attachments.push(await read("attach", path));
  const inline = [];
  for (const s of specs) inline.push({ ...await read("inline", s.file_path), cid: s.cid });
  return { attachments, inline };
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

/** The suite answers a new draft with `draft.id` (older answers: `draft_id`). */
const Draft = z.object({
  draft: z.looseObject({ id: z.optional(z.string()), draft_id: z.optional(z.string()) }),
});

/** A message to compose: everything but its sender and date, which `saveOrSend` fills in. */
export type Compose = Omit<MailMessage, "from" | "date" | "headers"> & {
  request_receipt?: boolean;
  priority?: string;
  /** The message is a read receipt (the suite files it as one). */
  read_receipt?: boolean;
};

/** The shared extras of a message from the flags. */
export function extrasOf(f: { "request-receipt": boolean; priority: string }) {
  return {
    ...(f["request-receipt"] ? { request_receipt: true } : {}),
    ...(f.priority !== "normal" ? { priority: f.priority } : {}),
  };
}

const Profile = z.looseObject({
  primary_email_address: z.optional(z.string()),
  name: z.optional(z.string()),
});

/** The mailbox's own address and name: the message's sender. */
export async function ownMailbox<F extends FlagSpecs>(ctx: ShortcutContext<F>, mailbox: string | undefined) {
  const p = await ctx.api({
    method: "GET",
    path: `/open-apis/mail/v1/user_mailboxes/${encodeURIComponent(mailbox ?? "me")}/profile`,
    description: "the mailbox's own address (the sender)",
    response: Profile,
    planned: { primary_email_address: mailbox?.includes("@") ? mailbox : "me@mailbox.invalid" },
  });
  const address = p.primary_email_address ?? (mailbox?.includes("@") ? mailbox : undefined);
  if (!address) throw errors.validation("the mailbox has no address to send from; give --mailbox");
  return { mail_address: address, ...(p.name ? { name: p.name } : {}) };
}

/**
 * Saves the draft, then -- only with `--confirm-send` -- sends it. The result says which happened and, for a
 * draft, how to send it.
 */
export async function saveOrSend<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  f: { "confirm-send": boolean; "send-time"?: string; mailbox?: string },
  message: Compose,
  sender?: { mail_address: string; name?: string },
): Promise<void> {
  const sendTime = sendTimeOf(f, ctx.now(), ctx.timeZone);
  const from = sender ?? await ownMailbox(ctx, f.mailbox);
  const { request_receipt, priority, read_receipt, ...rest } = message;
  const raw = await (await mime()).buildRaw({
    ...rest,
    from,
    date: ctx.now(),
    headers: {
      ...(priority ? { "X-Priority": priority === "high" ? "1 (Highest)" : "5 (Lowest)" } : {}),
      ...(request_receipt ? { "Disposition-Notification-To": `<${from.mail_address}>` } : {}),
      ...(read_receipt ? { "X-Lark-Read-Receipt-Mail": "1" } : {}),
    },
  });
  const { draft } = await ctx.api({
    method: "POST",
    path: draftsPath(f.mailbox),
    body: { raw },
    description: "save the draft (the message as RFC 5322, base64url)",
    response: Draft,
    planned: { draft: { id: "<draft_id>" } },
  });
  const draftId = draft.id ?? draft.draft_id;
  if (!draftId) throw errors.api("the suite saved the draft but answered without its id");
  const summary = {
    draft_id: draftId,
    subject: message.subject,
    to: message.to.map((a) => a.mail_address),
    format: message.html !== undefined ? "html" : "plain_text",
    attachments: message.attachments.map((a) => a.filename),
    ...(message.inline.length ? { inline: message.inline.map((a) => a.cid) } : {}),
  };
  if (!f["confirm-send"]) {
    return await ctx.out({ ...summary, sent: false }, {
      next: `saved as a draft; to send it: larkit mail +draft-send --draft-id ${draftId} --yes`,
    });
  }
  const sent = await ctx.api({
    method: "POST",
    path: draftsPath(f.mailbox, `/${encodeURIComponent(draftId)}/send`),
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
