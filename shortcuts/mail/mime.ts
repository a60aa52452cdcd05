/**
 * Mail messages as the suite takes them: an RFC 5322 message, base64url, in `raw`. Built with nodemailer's
 * MailComposer (UTF-8 subjects and display names as RFC 2047 words, folded headers, CRLF lines, text and HTML
 * alternatives, inline images by Content-ID in a multipart/related part, attachments, base64 bodies in
 * 76-character lines) and read back with `postal-mime` (+draft-edit patches a draft's raw form). Both load only
 * when a mail shortcut builds or edits a message: `compose.ts` loads this module through `lazy(...)`.
 *
 * Date and Message-ID are set here from the run's clock and content, so a message does not depend on the
 * library's own clock. The composer never reads a file or a URL: contents are handed over in memory.
 */
import MailComposer from "nodemailer/lib/mail-composer";
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

const toStd = (b64: string) => b64.replace(/-/g, "+").replace(/_/g, "/");
const box = (a: MailAddress) =>
  a.name ? { name: a.name, address: a.mail_address } : { address: a.mail_address };

/** A stable Message-ID for the message: its date and a hash of what it says, at the sender's domain. */
function messageIdOf(m: MailMessage): string {
  let h = 0x811c9dc5;
  const text = JSON.stringify([m.subject, m.to, m.cc, m.text, m.html, m.attachments.map((a) => a.filename)]);
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  const domain = m.from.mail_address.split("@")[1] ?? "larkit.invalid";
  return `<larkit.${m.date.toString(36)}.${h.toString(36)}@${domain}>`;
}

/** The message as RFC 5322 text, base64url -- the suite's `raw`. */
export async function buildRaw(m: MailMessage): Promise<string> {
  const file = (f: MailFile) => ({
    filename: f.filename,
    content: toStd(f.base64),
    encoding: "base64",
    ...(f.contentType ? { contentType: f.contentType } : {}),
  });
  // An empty body stays a plain empty string (the composer reads an empty `content` as no content object).
  const body = (content: string) => content === "" ? "" : { content, contentTransferEncoding: "base64" };
  const composer = new MailComposer({
    from: box(m.from),
    to: m.to.map(box),
    cc: m.cc.map(box),
    bcc: m.bcc.map(box),
    subject: m.subject,
    date: new Date(m.date),
    messageId: m.messageId ?? messageIdOf(m),
    ...(m.inReplyTo ? { inReplyTo: m.inReplyTo } : {}),
    ...(m.references ? { references: m.references } : {}),
    headers: m.headers ?? {},
    // A message has at least one body. Bodies are base64: they come back byte for byte (a 7-bit body's last
    // line break is not told apart from the one before the boundary by every parser).
    ...(m.text !== undefined || m.html === undefined ? { text: body(m.text ?? "") } : {}),
    ...(m.html !== undefined ? { html: body(m.html) } : {}),
    attachments: [
      ...m.inline.map((f) => ({ ...file(f), cid: f.cid, contentDisposition: "inline" })),
      ...m.attachments.map(file),
    ],
    disableFileAccess: true,
    disableUrlAccess: true,
  }).compile();
  // A draft keeps its Bcc header: the suite reads the draft's recipients from it.
  composer.keepBcc = true;
  const bytes: Uint8Array = await composer.build();
  return new Uint8Array(bytes).toBase64({ alphabet: "base64url", omitPadding: true });
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
