/**
 * A message the suite is handed as `raw` (an RFC 5322 message, base64url) read with postal-mime into what the
 * emulator stores and answers with: subject (RFC 2047 decoded), sender and recipients with their names, text
 * and HTML bodies, attachments and inline images (by Content-ID), threading headers and a read-receipt request.
 * A raw that is not base64url or not a message is the suite's 99992402.
 */
import PostalMime from "postal-mime";
import * as z from "zod";
import { invalidParam } from "../reply.ts";

/** A stored message: the fields its reads answer with, from the parsed message. */
export interface Parsed {
  subject: string;
  from?: { mail_address: string; name?: string };
  recipients: Record<"to" | "cc" | "bcc", { mail_address: string; name?: string }[]>;
  headers: {
    smtp_message_id?: string;
    in_reply_to?: string;
    references?: string;
    /** Disposition-Notification-To: the sender asks for a read receipt. */
    receipt_to?: string;
    /** X-Lark-Read-Receipt-Mail: 1 -- this message is a read receipt. */
    read_receipt_mail?: boolean;
  };
  text: string;
  html: string;
  attachments: { id: string; filename: string; size: number; is_inline: boolean; cid?: string }[];
}

export async function parseMessage(raw: string): Promise<Parsed> {
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.fromBase64(raw, { alphabet: "base64url", lastChunkHandling: "loose" });
  } catch {
    return invalidParam("raw must be base64url");
  }
  const p = await PostalMime.parse(bytes).catch(() => invalidParam("raw is not an RFC 5322 message"));
  if (!p.headers.some((h) => h.key === "from" || h.key === "subject" || h.key === "to")) {
    invalidParam("raw is not an RFC 5322 message (no From, To or Subject header)");
  }
  const list = (l: { address?: string; name?: string }[] | undefined) =>
    (l ?? []).filter((a) => a.address).map((a) => ({
      mail_address: a.address!,
      ...(a.name ? { name: a.name } : {}),
    }));
  const bad = [...list(p.to), ...list(p.cc), ...list(p.bcc)].find((a) =>
    !z.email().safeParse(a.mail_address).success
  );
  if (bad) invalidParam(`not an email address: ${bad.mail_address}`);
  const from = list(p.from ? [p.from as { address?: string; name?: string }] : [])[0];
  const header = (name: string) => p.headers.find((h) => h.key === name)?.value;
  return {
    subject: p.subject ?? "",
    ...(from ? { from } : {}),
    recipients: { to: list(p.to), cc: list(p.cc), bcc: list(p.bcc) },
    headers: {
      ...(p.messageId ? { smtp_message_id: p.messageId } : {}),
      ...(p.inReplyTo ? { in_reply_to: p.inReplyTo } : {}),
      ...(p.references ? { references: p.references } : {}),
      ...(header("disposition-notification-to") ? { receipt_to: header("disposition-notification-to") } : {}),
      ...(header("x-lark-read-receipt-mail") === "1" ? { read_receipt_mail: true } : {}),
    },
    text: p.text ?? "",
    html: p.html ?? "",
    attachments: p.attachments.map((a, i) => ({
      id: `att_${i + 1}`,
      filename: a.filename ?? "attachment",
      size: typeof a.content === "string" ? a.content.length : (a.content as ArrayBuffer).byteLength,
      is_inline: a.disposition === "inline" && !!a.contentId,
      ...(a.contentId ? { cid: a.contentId.replace(/^<|>$/g, "") } : {}),
    })),
  };
}
