/**
 * Mail rules (filters applied to incoming mail, in order): list, create, update, delete, reorder. A rule's
 * conditions and actions are the suite's JSON (`--condition`, `--action`); `+rule-list` shows existing ones
 * to copy from.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { token } from "../vc/common.ts";
import { mailboxFlag } from "./mailbox.ts";

const rulesPath = (mailbox: string | undefined, rest = "") =>
  `/open-apis/mail/v1/user_mailboxes/${encodeURIComponent(mailbox ?? "me")}/rules${rest}`;

const Condition = z.object({
  match_type: z.number().check(z.int()),
  items: z.array(
    z.object({
      type: z.number().check(z.int()),
      operator: z.number().check(z.int()),
      input: z.optional(z.string()),
    }),
  ).check(z.minLength(1)),
});
const Action = z.object({
  items: z.array(z.object({ type: z.number().check(z.int()), input: z.optional(z.string()) })).check(
    z.minLength(1),
  ),
});

function parsed<T>(schema: z.ZodMiniType<T>, value: unknown, name: string, example: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const i = r.error.issues[0];
  throw errors.validation(`--${name}: ${i?.path.join(".") || "(root)"}: ${i?.message}`, {
    hint: `e.g. --${name} '${example}'`,
  });
}
const CONDITION_EXAMPLE = '{"match_type":1,"items":[{"type":1,"operator":1,"input":"boss@example.com"}]}';
const ACTION_EXAMPLE = '{"items":[{"type":2,"input":"IMPORTANT"}]}';

const RuleFlags = {
  name: flag.string("rule name"),
  condition: flag.json("conditions: {match_type, items:[{type, operator, input}]}", {
    input: ["file", "stdin"],
  }),
  action: flag.json("actions: {items:[{type, input}]}", { input: ["file", "stdin"] }),
  disable: flag.boolean("save the rule switched off"),
  "stop-after": flag.boolean("skip the later rules when this one matches"),
  mailbox: mailboxFlag,
};
const SCOPES = { user: ["mail:user_mailbox.rule:read", "mail:user_mailbox.rule:write"] };

export const ruleList = defineShortcut({
  service: "mail",
  command: "+rule-list",
  description: "List the mailbox's rules in the order they apply (user identity only)",
  examples: ["larkit mail +rule-list", "larkit mail +rule-list --jq '.data[].name'"],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["mail:user_mailbox.rule:read"] },
  hasFormat: true,
  columns: ["name", "is_enable", "id"],
  flags: { mailbox: mailboxFlag },
  async run(ctx) {
    const { items } = await ctx.api({
      method: "GET",
      path: rulesPath(ctx.flags.mailbox),
      response: z.object({ items: z.nullish(z.array(z.looseObject({}))) }),
      planned: { items: [] },
    });
    await ctx.outFormat(items ?? [], { count: items?.length ?? 0 });
  },
});

export const ruleCreate = defineShortcut({
  service: "mail",
  command: "+rule-create",
  description: "Create a mail rule from conditions and actions (user identity only)",
  examples: [
    `larkit mail +rule-create --name "From boss" --condition '${CONDITION_EXAMPLE}' --action '${ACTION_EXAMPLE}'`,
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: SCOPES,
  hasFormat: false,
  flags: RuleFlags,
  async run(ctx) {
    const f = ctx.flags;
    if (!f.name || f.condition === undefined || f.action === undefined) {
      throw errors.validation("a new rule needs --name, --condition and --action");
    }
    const body = {
      name: f.name,
      condition: parsed(Condition, f.condition, "condition", CONDITION_EXAMPLE),
      action: parsed(Action, f.action, "action", ACTION_EXAMPLE),
      is_enable: !f.disable,
      ignore_the_rest_of_rules: f["stop-after"],
    };
    const made = await ctx.api({
      method: "POST",
      path: rulesPath(f.mailbox),
      body,
      response: z.object({ rule: z.optional(z.looseObject({ id: z.optional(z.string()) })) }),
      planned: { rule: { id: "<rule_id>" } },
    });
    await ctx.out({ rule: made.rule ?? null });
  },
});

export const ruleUpdate = defineShortcut({
  service: "mail",
  command: "+rule-update",
  description: "Replace a mail rule (all of --name, --condition, --action; user identity only)",
  examples: [
    `larkit mail +rule-update --rule-id 7301 --name "From boss" --condition '${CONDITION_EXAMPLE}' --action '${ACTION_EXAMPLE}' --disable`,
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: SCOPES,
  hasFormat: false,
  flags: { "rule-id": flag.requiredString("rule ID"), ...RuleFlags },
  async run(ctx) {
    const f = ctx.flags;
    if (!f.name || f.condition === undefined || f.action === undefined) {
      throw errors.validation("the update replaces the rule: give --name, --condition and --action", {
        hint: "larkit mail +rule-list shows the rule as it is",
      });
    }
    const id = token("rule-id", f["rule-id"]);
    await ctx.api({
      method: "PUT",
      path: rulesPath(f.mailbox, `/${encodeURIComponent(id)}`),
      body: {
        name: f.name,
        condition: parsed(Condition, f.condition, "condition", CONDITION_EXAMPLE),
        action: parsed(Action, f.action, "action", ACTION_EXAMPLE),
        is_enable: !f.disable,
        ignore_the_rest_of_rules: f["stop-after"],
      },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ rule_id: id, updated: true });
  },
});

export const ruleDelete = defineShortcut({
  service: "mail",
  command: "+rule-delete",
  description: "Delete a mail rule (asks for confirmation; user identity only)",
  examples: [
    "larkit mail +rule-delete --rule-id 7301 --dry-run",
    "larkit mail +rule-delete --rule-id 7301 --yes",
  ],
  risk: "high-risk-write",
  authTypes: ["user"],
  scopes: SCOPES,
  hasFormat: false,
  flags: { "rule-id": flag.requiredString("rule ID"), mailbox: mailboxFlag },
  async run(ctx) {
    const id = token("rule-id", ctx.flags["rule-id"]);
    await ctx.api({
      method: "DELETE",
      path: rulesPath(ctx.flags.mailbox, `/${encodeURIComponent(id)}`),
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ rule_id: id, deleted: true });
  },
});

export const ruleReorder = defineShortcut({
  service: "mail",
  command: "+rule-reorder",
  description: "Set the order mail rules apply in (every rule ID, first first; user identity only)",
  examples: ["larkit mail +rule-reorder --rule-ids 7302,7301,7303"],
  risk: "write",
  authTypes: ["user"],
  scopes: SCOPES,
  hasFormat: false,
  flags: {
    "rule-ids": flag.requiredString("rule IDs in the new order, comma-separated"),
    mailbox: mailboxFlag,
  },
  async run(ctx) {
    const ids = ctx.flags["rule-ids"].split(",").map((s) => s.trim()).filter(Boolean).map((s) =>
      token("rule-ids", s)
    );
    if (new Set(ids).size !== ids.length) throw errors.validation("--rule-ids names a rule twice");
    await ctx.api({
      method: "POST",
      path: rulesPath(ctx.flags.mailbox, "/reorder"),
      body: { rule_ids: ids },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ rule_ids: ids });
  },
});
