/**
 * Personal mail templates (`mail +template-create` / `+template-update`): stored per mailbox, read back as
 * stored. The body is the one the suite takes -- recipients as `tos`/`ccs`/`bccs` -- refusing any other field, so
 * a template posted with `to`/`cc`/`bcc` (fields the suite drops, losing the recipients) fails here.
 */
import * as z from "zod";
import { newHex, nextCounter, one, run } from "../db.ts";
import { ok, raise } from "../reply.ts";
import type { CallerCtx, Route } from "../router.ts";
import { mailboxOf } from "./mail.ts";
import { strictBody } from "./strict_body.ts";

const ROOT = "/open-apis/mail/v1/user_mailboxes/:user_mailbox_id/templates";
const MODIFY = ["mail:user_mailbox.message:modify"];
const READ = ["mail:user_mailbox:readonly"];

const Address = z.strictObject({ mail_address: z.string().check(z.email()), name: z.optional(z.string()) });
const Template = z.strictObject({
  name: z.string().check(z.minLength(1)),
  subject: z.optional(z.string()),
  template_content: z.string(),
  is_plain_text_mode: z.optional(z.boolean()),
  tos: z.optional(z.array(Address)),
  ccs: z.optional(z.array(Address)),
  bccs: z.optional(z.array(Address)),
});
const Body = z.strictObject({ template: Template });

const collection = (box: string) => `/open-apis/mail/v1/user_mailboxes/${box}/templates`;

function stored(ctx: CallerCtx, box: string): Record<string, unknown> {
  const row = one<{ body: string }>(
    ctx.st.db,
    "SELECT body FROM generic_objects WHERE collection = ? AND id = ? AND deleted = 0",
    collection(box),
    ctx.params.template_id,
  ) ?? raise(404, 1230003, `template not found: ${ctx.params.template_id}`);
  return JSON.parse(row.body);
}

/** A template as stored and answered: what the body left out takes the suite's empty default. */
function saved(templateId: string, template: z.infer<typeof Template>): Record<string, unknown> {
  return {
    template_id: templateId,
    subject: "",
    is_plain_text_mode: false,
    tos: [],
    ccs: [],
    bccs: [],
    ...template,
  };
}

export const mailTemplateRoutes: Route[] = [
  {
    method: "POST",
    path: ROOT,
    auth: "token",
    scopes: MODIFY,
    identities: ["user"],
    handle(ctx) {
      const box = mailboxOf(ctx);
      const { template } = strictBody(ctx, Body);
      const id = `tpl_${newHex(ctx.st.db, "mail_template", 16)}`;
      const body = saved(id, template);
      run(
        ctx.st.db,
        "INSERT INTO generic_objects (collection, id, body, deleted, seq) VALUES (?, ?, ?, 0, ?)",
        collection(box),
        id,
        JSON.stringify(body),
        nextCounter(ctx.st.db, "generic_seq"),
      );
      return ok({ template: body });
    },
  },
  {
    method: "GET",
    path: `${ROOT}/:template_id`,
    auth: "token",
    scopes: READ,
    identities: ["user"],
    handle: (ctx) => ok({ template: stored(ctx, mailboxOf(ctx)) }),
  },
  {
    method: "PUT",
    path: `${ROOT}/:template_id`,
    auth: "token",
    scopes: MODIFY,
    identities: ["user"],
    handle(ctx) {
      const box = mailboxOf(ctx);
      stored(ctx, box);
      const { template } = strictBody(ctx, Body);
      // An update replaces the template whole (what is left out is cleared), as the suite's PUT does.
      const body = saved(ctx.params.template_id, template);
      run(
        ctx.st.db,
        "UPDATE generic_objects SET body = ? WHERE collection = ? AND id = ?",
        JSON.stringify(body),
        collection(box),
        ctx.params.template_id,
      );
      return ok({ template: body });
    },
  },
];
