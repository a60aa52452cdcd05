/**
 * Mailbox settings and sharing: `mail +signature` (the signatures to choose from), `mail +share-to-chat` (a
 * message or thread as a card in a chat), `mail +template-create` / `+template-update` (personal templates).
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { token } from "../vc/common.ts";
import { addressesOf, mailboxFlag } from "./mailbox.ts";
import { checkAddresses, isHtml } from "./compose.ts";

const boxPath = (mailbox: string | undefined, rest: string) =>
  `/open-apis/mail/v1/user_mailboxes/${encodeURIComponent(mailbox ?? "me")}${rest}`;

export const signature = defineShortcut({
  service: "mail",
  command: "+signature",
  description: "List the mailbox's signatures (names and IDs; --detail adds their HTML; user identity only)",
  examples: ["larkit mail +signature", "larkit mail +signature --detail --jq '.data[0].content'"],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["mail:user_mailbox:readonly"] },
  hasFormat: true,
  columns: ["name", "is_default", "signature_id"],
  flags: { detail: flag.boolean("include each signature's content"), mailbox: mailboxFlag },
  async run(ctx) {
    const { signatures } = await ctx.api({
      method: "GET",
      path: boxPath(ctx.flags.mailbox, "/settings/signatures"),
      response: z.object({
        signatures: z.nullish(z.array(z.looseObject({ content: z.optional(z.string()) }))),
      }),
      planned: { signatures: [] },
    });
    const list = (signatures ?? []).map(({ content, ...s }) => ctx.flags.detail ? { ...s, content } : s);
    await ctx.outFormat(list, { count: list.length });
  },
});

export const shareToChat = defineShortcut({
  service: "mail",
  command: "+share-to-chat",
  description: "Share an email or a thread into a chat or with a person as a card (user identity only)",
  examples: [
    "larkit mail +share-to-chat --message-id mail_123 --receive-id oc_abc",
    "larkit mail +share-to-chat --thread-id thr_1 --receive-id ou_123 --receive-id-type open_id",
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ["mail:user_mailbox.message:readonly", "im:message", "im:message.send_as_user"] },
  hasFormat: false,
  flags: {
    "message-id": flag.string("the message shared"),
    "thread-id": flag.string("the thread shared (instead of --message-id)"),
    "receive-id": flag.requiredString("chat ID (oc_\u2026) or the person's ID"),
    "receive-id-type": flag.choice(
      ["chat_id", "open_id", "user_id", "union_id", "email"] as const,
      "kind of --receive-id",
      {
        default: "chat_id",
      },
    ),
    mailbox: mailboxFlag,
  },
  async run(ctx) {
    const f = ctx.flags;
    if (!!f["message-id"] === !!f["thread-id"]) {
      throw errors.validation("give exactly one of --message-id and --thread-id");
    }
    if (f["receive-id-type"] === "chat_id" && !f["receive-id"].startsWith("oc_")) {
      throw errors.validation(
        `--receive-id must be a chat ID (oc_\u2026) with --receive-id-type chat_id, got "${f["receive-id"]}"`,
      );
    }
    const what = f["message-id"]
      ? { message_id: token("message-id", f["message-id"]) }
      : { thread_id: token("thread-id", f["thread-id"]!) };
    const { card_id } = await ctx.api({
      method: "POST",
      path: boxPath(f.mailbox, "/messages/share_token"),
      body: what,
      description: "make the share card",
      response: z.object({ card_id: z.string() }),
      planned: { card_id: "<card_id>" },
    });
    const sent = await ctx.api({
      method: "POST",
      path: boxPath(f.mailbox, `/share_tokens/${encodeURIComponent(card_id)}/send`),
      body: { receive_id: f["receive-id"], receive_id_type: f["receive-id-type"] },
      description: "send the card",
      response: z.looseObject({ message_id: z.optional(z.string()) }),
      planned: { message_id: "<message_id>" },
    });
    await ctx.out({ ...what, card_id, receive_id: f["receive-id"], message_id: sent.message_id ?? null });
  },
});

const TemplateFields = {
  to: flag.string("default To addresses, comma-separated"),
  cc: flag.string("default CC addresses"),
  bcc: flag.string("default BCC addresses"),
  "plain-text": flag.boolean("the content is plain text even if it looks like HTML"),
  mailbox: mailboxFlag,
};
const Template = z.looseObject({ template_id: z.optional(z.string()) });
const TEMPLATE_SCOPES = ["mail:user_mailbox.message:modify", "mail:user_mailbox:readonly"];

export const templateCreate = defineShortcut({
  service: "mail",
  command: "+template-create",
  description: "Create a personal mail template (user identity only)",
  examples: [
    'larkit mail +template-create --name "Weekly report" --subject "Weekly report" --template-content "<p>This week:</p>"',
    "larkit mail +template-create --name Intro --template-content @intro.html --cc team@example.com",
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: TEMPLATE_SCOPES },
  hasFormat: false,
  flags: {
    name: flag.requiredString("template name"),
    subject: flag.string("subject"),
    "template-content": flag.requiredString("content: HTML or plain text", { input: ["file", "stdin"] }),
    ...TemplateFields,
  },
  async run(ctx) {
    const f = ctx.flags;
    const template = {
      name: f.name,
      subject: f.subject ?? "",
      template_content: f["template-content"],
      is_plain_text_mode: f["plain-text"] || !isHtml(f["template-content"]),
      // The suite's template fields are tos/ccs/bccs (to/cc/bcc would be dropped with the recipients).
      tos: checkAddresses(addressesOf(f.to)),
      ccs: checkAddresses(addressesOf(f.cc)),
      bccs: checkAddresses(addressesOf(f.bcc)),
    };
    const made = await ctx.api({
      method: "POST",
      path: boxPath(f.mailbox, "/templates"),
      body: { template },
      response: z.object({ template: Template }),
      planned: { template: { template_id: "<template_id>" } },
    });
    await ctx.out({ template_id: made.template.template_id ?? null, name: f.name });
  },
});

const Stored = z.object({
  template: z.looseObject({
    name: z._default(z.string(), ""),
    subject: z._default(z.string(), ""),
    template_content: z._default(z.string(), ""),
    is_plain_text_mode: z._default(z.boolean(), false),
    tos: z._default(z.array(z.looseObject({ mail_address: z.string() })), []),
    ccs: z._default(z.array(z.looseObject({ mail_address: z.string() })), []),
    bccs: z._default(z.array(z.looseObject({ mail_address: z.string() })), []),
  }),
});

export const templateUpdate = defineShortcut({
  service: "mail",
  command: "+template-update",
  description: "Change a mail template's fields (read, changed, written back whole; user identity only)",
  examples: [
    'larkit mail +template-update --template-id tpl_1 --set-subject "Weekly report (v2)"',
    "larkit mail +template-update --template-id tpl_1 --inspect",
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: TEMPLATE_SCOPES },
  hasFormat: false,
  flags: {
    "template-id": flag.requiredString("template ID"),
    "set-name": flag.string("new name"),
    "set-subject": flag.string("new subject"),
    "set-template-content": flag.string("new content", { input: ["file", "stdin"] }),
    "set-to": flag.string("new default To addresses (replace)"),
    "set-cc": flag.string("new default CC addresses (replace)"),
    "set-bcc": flag.string("new default BCC addresses (replace)"),
    inspect: flag.boolean("show the template and change nothing"),
    mailbox: mailboxFlag,
  },
  async run(ctx) {
    const f = ctx.flags;
    const id = token("template-id", f["template-id"]);
    const keys = ["set-name", "set-subject", "set-template-content", "set-to", "set-cc", "set-bcc"] as const;
    const given = keys.filter((k) => f[k] !== undefined);
    if (f.inspect === (given.length > 0)) {
      throw errors.validation(
        f.inspect ? "--inspect changes nothing; drop the --set-* flags" : "nothing to change",
        {
          hint: "give --set-name, --set-subject, --set-template-content, --set-to, --set-cc or --set-bcc",
        },
      );
    }
    const path = boxPath(f.mailbox, `/templates/${encodeURIComponent(id)}`);
    const { template: t } = await ctx.api({
      method: "GET",
      path,
      description: "the template as it is (the update replaces it whole)",
      response: Stored,
      planned: Stored.parse({ template: {} }),
    });
    if (f.inspect) return await ctx.out({ template_id: id, ...t });
    const addr = (v: string | undefined, was: { mail_address: string }[]) =>
      v === undefined ? was.map((a) => ({ mail_address: a.mail_address })) : checkAddresses(addressesOf(v));
    const content = f["set-template-content"];
    const template = {
      name: f["set-name"] ?? t.name,
      subject: f["set-subject"] ?? t.subject,
      template_content: content ?? t.template_content,
      is_plain_text_mode: content !== undefined ? !isHtml(content) : t.is_plain_text_mode,
      tos: addr(f["set-to"], t.tos),
      ccs: addr(f["set-cc"], t.ccs),
      bccs: addr(f["set-bcc"], t.bccs),
    };
    await ctx.api({ method: "PUT", path, body: { template }, response: z.unknown(), planned: {} });
    await ctx.out({ template_id: id, changed: given, name: template.name });
  },
});
