/** `mail +message` (one message, bodies decoded) and `mail +thread` (every message of a conversation, oldest first). */
import * as z from "zod";
import { defineShortcut, flag } from "../declare.ts";
import { token } from "../vc/common.ts";
import { mailboxFlag, messagesPath } from "./mailbox.ts";
import { decodeBody, shapeMail, SuiteMail } from "./messages.ts";

const READ = [
  "mail:user_mailbox.message:readonly",
  "mail:user_mailbox.message.address:read",
  "mail:user_mailbox.message.subject:read",
  "mail:user_mailbox.message.body:read",
];

export const message = defineShortcut({
  service: "mail",
  command: "+message",
  description:
    "Read one email by message ID, bodies decoded (for several, use +messages; user identity only)",
  examples: [
    "larkit mail +message --message-id mail_123",
    "larkit mail +message --message-id mail_123 --jq '.data.body_plain_text'",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: READ },
  hasFormat: true,
  flags: { "message-id": flag.requiredString("message ID"), mailbox: mailboxFlag },
  async run(ctx) {
    const id = token("message-id", ctx.flags["message-id"]);
    const { message } = await ctx.api({
      method: "GET",
      path: messagesPath(ctx.flags.mailbox, `/${encodeURIComponent(id)}`),
      response: z.object({ message: SuiteMail }),
      planned: { message: SuiteMail.parse({ message_id: id }) },
    });
    await ctx.outFormat(shapeMail(message, ctx.timeZone));
  },
});

const Thread = z.object({
  thread: z.looseObject({
    thread_id: z.optional(z.string()),
    messages: z.nullish(z.array(z.looseObject({
      internal_date: z.optional(z.string()),
      body_plain_text: z.optional(z.string()),
      body_html: z.optional(z.string()),
    }))),
  }),
});

export const thread = defineShortcut({
  service: "mail",
  command: "+thread",
  description:
    "Read a whole mail conversation by thread ID, oldest first, bodies decoded (user identity only)",
  examples: [
    "larkit mail +thread --thread-id thr_123",
    "larkit mail +thread --thread-id thr_123 --jq '.data[].subject'",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: READ },
  hasFormat: true,
  columns: ["internal_date", "head_from.mail_address", "subject", "message_id"],
  flags: { "thread-id": flag.requiredString("thread ID"), mailbox: mailboxFlag },
  async run(ctx) {
    const id = token("thread-id", ctx.flags["thread-id"]);
    const { thread } = await ctx.api({
      method: "GET",
      path: `/open-apis/mail/v1/user_mailboxes/${encodeURIComponent(ctx.flags.mailbox ?? "me")}/threads/${
        encodeURIComponent(id)
      }`,
      response: Thread,
      planned: { thread: { thread_id: id, messages: [] } },
    });
    const messages = (thread.messages ?? [])
      .map((m) => ({
        ...m,
        body_plain_text: decodeBody(m.body_plain_text ?? ""),
        body_html: decodeBody(m.body_html ?? ""),
      }))
      .sort((a, b) => Number(a.internal_date ?? 0) - Number(b.internal_date ?? 0));
    await ctx.outFormat(messages, { count: messages.length, thread_id: id });
  },
});
