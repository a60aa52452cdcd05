/** What the mail shortcuts share: the mailbox flag and the messages path of a mailbox. */
import { flag } from "../declare.ts";

export const mailboxFlag = flag.string("mailbox address (default: me, the logged-in user's own)");

export function messagesPath(mailbox: string | undefined, rest = ""): string {
  return `/open-apis/mail/v1/user_mailboxes/${encodeURIComponent(mailbox ?? "me")}/messages${rest}`;
}

/** Comma-separated addresses -> the suite's address objects. */
export function addressesOf(list: string | undefined): { mail_address: string }[] {
  return (list ?? "").split(",").map((s) => s.trim()).filter(Boolean).map((mail_address) => ({
    mail_address,
  }));
}
