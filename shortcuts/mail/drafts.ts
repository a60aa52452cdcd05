/**
 * `mail +draft-send` (sends saved drafts; asks first) and `mail +draft-edit` (reads a draft's raw RFC 5322
 * form, changes what its flags say, writes the whole message back as `raw`).
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { addressesOf, mailboxFlag } from "./mailbox.ts";
import { checkAddresses, contentOf, draftsPath, filesOf, mime, sendTimeOf } from "./compose.ts";
import { token } from "../vc/common.ts";
import type { MailAddress, MailFile } from "./mime.ts";

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
  draft: z.looseObject({
    id: z.optional(z.string()),
    draft_id: z.optional(z.string()),
    message: z._default(z.looseObject({ raw: z.optional(z.string()) }), {}),
  }),
});

/** What a plan reads in place of the draft (nothing is fetched): an empty message, made once. */
let plannedRaw: string | undefined;
async function plannedDraft(id: string) {
  plannedRaw ??= await (await mime()).buildRaw({
    from: { mail_address: "me@mailbox.invalid" },
    to: [],
    cc: [],
    bcc: [],
    subject: "",
    text: "",
    attachments: [],
    inline: [],
    date: 0,
  });
  return { draft: { id, message: { raw: plannedRaw } } };
}

export const draftEdit = defineShortcut({
  service: "mail",
  command: "+draft-edit",
  description:
    "Change a draft's subject, recipients, body or attachments; --inspect shows it unchanged (user identity only)",
  examples: [
    'larkit mail +draft-edit --draft-id draft_0001 --set-subject "Plan v2" --set-to bob@example.com',
    "larkit mail +draft-edit --draft-id draft_0001 --attach ./plan.pdf --remove-attachment old.pdf",
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
    attach: flag.string("files to add as attachments, relative, comma-separated", { placeholder: "paths" }),
    "remove-attachment": flag.string("attachment file names to remove, comma-separated"),
    inspect: flag.boolean("show the draft and change nothing"),
    mailbox: mailboxFlag,
  },
  async run(ctx) {
    const f = ctx.flags;
    const id = token("draft-id", f["draft-id"]);
    const changes = [
      "set-subject",
      "set-to",
      "set-cc",
      "set-bcc",
      "body",
      "attach",
      "remove-attachment",
    ] as const;
    const given = changes.filter((k) => f[k] !== undefined);
    if (f.inspect && given.length) {
      throw errors.validation("--inspect changes nothing; drop the --set-* flags");
    }
    if (!f.inspect && given.length === 0) {
      throw errors.validation("nothing to change", {
        hint: "give --set-subject, --set-to, --set-cc, --set-bcc, --body, --attach or --remove-attachment",
      });
    }
    // The raw form is the whole draft: what is not changed here is written back as it was.
    const { draft } = await ctx.api({
      method: "GET",
      path: draftsPath(f.mailbox, `/${encodeURIComponent(id)}`),
      params: { format: "raw" },
      description: "the draft as it is (its raw RFC 5322 form)",
      response: Draft,
      planned: await plannedDraft(id),
    });
    if (!draft.message.raw) throw errors.api("the suite returned the draft without its raw form");
    const { buildRaw, parseRaw } = await mime();
    const m = await parseRaw(draft.message.raw);
    const names = (list: MailFile[]) => list.map((a) => a.filename);
    if (f.inspect) {
      return await ctx.out({
        draft_id: id,
        subject: m.subject,
        to: m.to,
        cc: m.cc,
        bcc: m.bcc,
        body: m.html ?? m.text ?? "",
        attachments: names(m.attachments),
        inline: m.inline.map((a) => a.cid),
      });
    }
    const list = (v: string | undefined, was: MailAddress[]) =>
      v === undefined ? was : checkAddresses(addressesOf(v));
    const drop = new Set((f["remove-attachment"] ?? "").split(",").map((s) => s.trim()).filter(Boolean));
    const unknown = [...drop].filter((n) => !names(m.attachments).includes(n));
    // In the plan the draft is not known (nothing was read), so only a real run can check the names.
    if (unknown.length && draft.message.raw !== plannedRaw) {
      throw errors.validation(`--remove-attachment: the draft has no attachment ${unknown.join(", ")}`, {
        hint: `its attachments: ${names(m.attachments).join(", ") || "none"}`,
      });
    }
    const added = await filesOf(ctx, { attach: f.attach }, undefined);
    const body = f.body === undefined ? {} : contentOf(f.body, false);
    const next = {
      ...m,
      subject: f["set-subject"] ?? m.subject,
      to: list(f["set-to"], m.to),
      cc: list(f["set-cc"], m.cc),
      bcc: list(f["set-bcc"], m.bcc),
      // A new body replaces both alternatives (a stale plain-text copy would contradict it).
      ...(f.body === undefined ? {} : { text: undefined, html: undefined, ...body }),
      attachments: [...m.attachments.filter((a) => !drop.has(a.filename)), ...added.attachments],
      date: ctx.now(),
    };
    await ctx.api({
      method: "PUT",
      path: draftsPath(f.mailbox, `/${encodeURIComponent(id)}`),
      body: { raw: await buildRaw(next) },
      description: "the whole draft, changed (raw RFC 5322, base64url)",
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({
      draft_id: id,
      changed: given,
      subject: next.subject,
      to: next.to.map((a) => a.mail_address),
      attachments: names(next.attachments),
    });
  },
});
