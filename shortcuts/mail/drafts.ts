/** `mail +draft-send` (sends saved drafts; asks first) and `mail +draft-edit` (changes a draft's fields). */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { addressesOf, mailboxFlag } from "./mailbox.ts";
import { checkAddresses, contentOf, draftsPath, sendTimeOf } from "./compose.ts";
import { token } from "../vc/common.ts";
import { decodeBody } from "./messages.ts";

export const draftSend = defineShortcut({
  service: "mail",
  command: "+draft-send",
  description: "Send saved drafts, now or at --send-time (asks for confirmation; user identity only)",
  examples: [
    "larkit mail +draft-send --draft-id draft_0001 --dry-run",
    "larkit mail +draft-send --draft-id draft_0001,draft_0002 --yes",
  ],
  risk: "high-risk-write",
  authTypes: ["user"],
  scopes: { user: ["mail:user_mailbox.message:send"] },
  hasFormat: false,
  flags: {
    "draft-id": flag.requiredString("draft ID(s), comma-separated"),
    "send-time": flag.string("schedule the send (ISO 8601 or Unix seconds)"),
    "stop-on-error": flag.boolean("stop at the first draft that fails (default: try every draft)"),
    mailbox: mailboxFlag,
  },
  async run(ctx) {
    const f = ctx.flags;
    const ids = f["draft-id"].split(",").map((s) => token("draft-id", s.trim())).filter(Boolean);
    const sendTime = sendTimeOf(
      { "confirm-send": true, "send-time": f["send-time"] },
      ctx.now(),
      ctx.timeZone,
    );
    const results = [];
    for (const id of ids) {
      try {
        const sent = await ctx.api({
          method: "POST",
          path: draftsPath(f.mailbox, `/${encodeURIComponent(id)}/send`),
          body: sendTime ? { send_time: sendTime } : {},
          description: "once per draft",
          response: z.looseObject({ message_id: z.optional(z.string()) }),
          planned: { message_id: "<message_id>" },
        });
        results.push({ draft_id: id, sent: true, message_id: sent.message_id ?? null });
      } catch (e) {
        if (f["stop-on-error"] || ids.length === 1 || !(e instanceof Error)) throw e;
        results.push({ draft_id: id, sent: false, error: e.message });
      }
    }
    await ctx.out(results, { count: results.length, sent: results.filter((r) => r.sent).length });
  },
});

const Draft = z.object({
  draft: z.object({
    draft_id: z.string(),
    message: z.looseObject({
      subject: z._default(z.string(), ""),
      to: z._default(z.array(z.looseObject({ mail_address: z.string() })), []),
      cc: z._default(z.array(z.looseObject({ mail_address: z.string() })), []),
      bcc: z._default(z.array(z.looseObject({ mail_address: z.string() })), []),
      body_plain_text: z._default(z.string(), ""),
      body_html: z._default(z.string(), ""),
    }),
  }),
});

export const draftEdit = defineShortcut({
  service: "mail",
  command: "+draft-edit",
  description:
    "Change a draft's subject, recipients or body; --inspect shows it unchanged (user identity only)",
  examples: [
    'larkit mail +draft-edit --draft-id draft_0001 --set-subject "Plan v2" --set-to bob@example.com',
    "larkit mail +draft-edit --draft-id draft_0001 --inspect",
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: {
    user: [
      "mail:user_mailbox.message:modify",
      "mail:user_mailbox.message:readonly",
      "mail:user_mailbox:readonly",
    ],
  },
  hasFormat: false,
  flags: {
    "draft-id": flag.requiredString("draft ID"),
    "set-subject": flag.string("new subject"),
    "set-to": flag.string("new To addresses (replace), comma-separated"),
    "set-cc": flag.string("new CC addresses (replace)"),
    "set-bcc": flag.string("new BCC addresses (replace)"),
    body: flag.string("new body: HTML or plain text (detected)", { input: ["file", "stdin"] }),
    inspect: flag.boolean("show the draft and change nothing"),
    mailbox: mailboxFlag,
  },
  async run(ctx) {
    const f = ctx.flags;
    const id = token("draft-id", f["draft-id"]);
    const changes = ["set-subject", "set-to", "set-cc", "set-bcc", "body"] as const;
    const given = changes.filter((k) => f[k] !== undefined);
    if (f.inspect && given.length) {
      throw errors.validation("--inspect changes nothing; drop the --set-* flags");
    }
    if (!f.inspect && given.length === 0) {
      throw errors.validation("nothing to change", {
        hint: "give --set-subject, --set-to, --set-cc, --set-bcc or --body",
      });
    }
    const { draft } = await ctx.api({
      method: "GET",
      path: draftsPath(f.mailbox, `/${encodeURIComponent(id)}`),
      description: "the draft as it is",
      response: Draft,
      planned: Draft.parse({ draft: { draft_id: id, message: {} } }),
    });
    const m = draft.message;
    const current = { plain: decodeBody(m.body_plain_text), html: decodeBody(m.body_html) };
    if (f.inspect) {
      return await ctx.out({
        draft_id: id,
        subject: m.subject,
        to: m.to,
        cc: m.cc,
        bcc: m.bcc,
        body: current.html || current.plain,
      });
    }
    const list = (v: string | undefined, was: { mail_address: string }[]) =>
      v === undefined ? was.map((a) => ({ mail_address: a.mail_address })) : checkAddresses(addressesOf(v));
    const body = {
      subject: f["set-subject"] ?? m.subject,
      to: list(f["set-to"], m.to),
      cc: list(f["set-cc"], m.cc),
      bcc: list(f["set-bcc"], m.bcc),
      ...(f.body !== undefined
        ? contentOf(f.body, false)
        : current.html
        ? { body_html: current.html }
        : { body_plain_text: current.plain }),
    };
    await ctx.api({
      method: "PUT",
      path: draftsPath(f.mailbox, `/${encodeURIComponent(id)}`),
      body,
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({
      draft_id: id,
      changed: given,
      subject: body.subject,
      to: body.to.map((a) => a.mail_address),
    });
  },
});
