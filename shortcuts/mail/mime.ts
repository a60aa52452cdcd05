/**
 * Mail messages as the suite takes them: an RFC 5322 message, base64url, in `raw`. Built with `mimetext`
 * (UTF-8 subjects and display names as RFC 2047 words, text and HTML alternatives, inline images by Content-ID
 * in a multipart/related part, attachments) and read back with `postal-mime` (+draft-edit patches a draft's raw
 * form). Both load only in mail runs: this module is imported by the mail shortcuts alone.
 *
 * Date and Message-ID are set here from the run's clock and content, so a message does not depend on the
 * library's own clock or randomness (and a plan shows what the run will send).
 */
import { createMimeMessage } from "mimetext";
import PostalMime from "postal-mime";

export interface MailAddress {
  mail_address: string;
  name?: string;
}

export interface MailFile {
  filename: string;
  /** The content, base64 (either alphabet). */
  base64: string;
  /** Inline images carry the Content-ID the HTML names (`<img src="cid:...">`). */
  cid?: string;
  contentType?: string;
}

export interface MailMessage {
  from: MailAddress;
  to: MailAddress[];
  cc: MailAddress[];
  bcc: MailAddress[];
  subject: string;
  text?: string;
  html?: string;
  attachments: MailFile[];
  inline: MailFile[];
  /** Threading: the answered message's Message-ID and its References chain. */
  inReplyTo?: string;
  references?: string;
  /** The Message-ID to keep (an edited draft keeps its own); else one is made. */
  messageId?: string;
  /** Extra headers (priority, read-receipt request). */
  headers?: Record<string, string>;
  /** ms since the epoch. */
  date: number;
}

const TYPES: Record<string, string> = {
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  txt: "text/plain",
  csv: "text/csv",
  html: "text/html",
  json: "application/json",
  zip: "application/zip",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  ics: "text/calendar",
  eml: "message/rfc822",
};

/** A file's media type from its extension (the suite and mail clients read it; octet-stream when unknown). */
export function contentTypeOf(filename: string): string {
  return TYPES[filename.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream";
}

const toStd = (b64: string) => b64.replace(/-/g, "+").replace(/_/g, "/");
/** Base64 in lines of 76 (RFC 2045): mimetext writes a part's data as given. */
const wrapped = (b64: string) =>
  toStd(b64).replace(/=+$/, "").padEnd(Math.ceil(b64.replace(/=+$/, "").length / 4) * 4, "=")
    .replace(/.{76}(?=.)/g, "$&\r\n");
const utf8Base64 = (s: string) => wrapped(new TextEncoder().encode(s).toBase64());
const box = (a: MailAddress) => (a.name ? { addr: a.mail_address, name: a.name } : { addr: a.mail_address });

/** A stable Message-ID for the message: its date and a hash of what it says, at the sender's domain. */
function messageIdOf(m: MailMessage): string {
  let h = 0x811c9dc5;
  const text = JSON.stringify([m.subject, m.to, m.cc, m.text, m.html, m.attachments.map((a) => a.filename)]);
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  const domain = m.from.mail_address.split("@")[1] ?? "larkit.invalid";
  return `<larkit.${m.date.toString(36)}.${h.toString(36)}@${domain}>`;
}

/** The message as RFC 5322 text, base64url -- the suite's `raw`. */
export function buildRaw(m: MailMessage): string {
  const msg = createMimeMessage();
  msg.setSender(box(m.from));
  if (m.to.length) msg.setTo(m.to.map(box));
  if (m.cc.length) msg.setCc(m.cc.map(box));
  if (m.bcc.length) msg.setBcc(m.bcc.map(box));
  msg.setSubject(m.subject);
  msg.setHeader("Date", new Date(m.date).toUTCString().replace("GMT", "+0000"));
  msg.setHeader("Message-ID", m.messageId ?? messageIdOf(m));
  if (m.inReplyTo) msg.setHeader("In-Reply-To", m.inReplyTo);
  if (m.references) msg.setHeader("References", m.references);
  for (const [k, v] of Object.entries(m.headers ?? {})) msg.setHeader(k, v);
  // Bodies are base64 so any UTF-8 text survives 7-bit transports unchanged; a message has at least one.
  if (m.text !== undefined || m.html === undefined) {
    msg.addMessage({
      contentType: "text/plain",
      charset: "UTF-8",
      encoding: "base64",
      data: utf8Base64(m.text ?? ""),
    });
  }
  if (m.html !== undefined) {
    msg.addMessage({
      contentType: "text/html",
      charset: "UTF-8",
      encoding: "base64",
      data: utf8Base64(m.html),
    });
  }
  for (const f of m.inline) {
    msg.addAttachment({
      filename: f.filename,
      contentType: f.contentType ?? contentTypeOf(f.filename),
      data: wrapped(f.base64),
      inline: true,
      headers: { "Content-ID": `<${f.cid}>` },
    });
  }
  for (const f of m.attachments) {
    msg.addAttachment({
      filename: f.filename,
      contentType: f.contentType ?? contentTypeOf(f.filename),
      data: wrapped(f.base64),
    });
  }
  // mimetext ends lines with the platform's EOL; RFC 5322 lines end with CRLF everywhere.
  const text = msg.asRaw().replace(/\r?\n/g, "\r\n");
  return new TextEncoder().encode(text).toBase64({ alphabet: "base64url", omitPadding: true });
}

/** A message read back from `raw`: what +draft-edit changes and writes back whole. */
export async function parseRaw(raw: string): Promise<MailMessage> {
  const bytes = Uint8Array.fromBase64(toStd(raw).replace(/=+$/, ""), { lastChunkHandling: "loose" });
  const p = await PostalMime.parse(bytes);
  const addr = (list: { address?: string; name?: string }[] | undefined): MailAddress[] =>
    (list ?? []).filter((a) => a.address).map((a) => ({
      mail_address: a.address!,
      ...(a.name ? { name: a.name } : {}),
    }));
  const file = (a: (typeof p.attachments)[number]): MailFile => ({
    filename: a.filename ?? "attachment",
    contentType: a.mimeType,
    base64:
      (typeof a.content === "string"
        ? new TextEncoder().encode(a.content)
        : new Uint8Array(a.content as ArrayBuffer)).toBase64(),
    ...(a.contentId ? { cid: a.contentId.replace(/^<|>$/g, "") } : {}),
  });
  const header = (name: string) => p.headers.find((h) => h.key === name)?.value;
  const headers: Record<string, string> = {};
  for (const name of ["X-Priority", "Disposition-Notification-To"]) {
    const v = header(name.toLowerCase());
    if (v) headers[name] = v;
  }
  return {
    from: addr(p.from ? [p.from as { address?: string; name?: string }] : [])[0] ?? { mail_address: "" },
    to: addr(p.to),
    cc: addr(p.cc),
    bcc: addr(p.bcc),
    subject: p.subject ?? "",
    ...(p.text !== undefined ? { text: p.text } : {}),
    ...(p.html !== undefined ? { html: p.html } : {}),
    attachments: p.attachments.filter((a) => !(a.contentId && a.disposition === "inline")).map(file),
    inline: p.attachments.filter((a) => a.contentId && a.disposition === "inline").map(file),
    ...(p.inReplyTo ? { inReplyTo: p.inReplyTo } : {}),
    ...(p.references ? { references: p.references } : {}),
    ...(p.messageId ? { messageId: p.messageId } : {}),
    headers,
    date: p.date ? Date.parse(p.date) : 0,
  };
}
