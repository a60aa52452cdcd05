/**
 * Base shortcuts the reference serves from base v3 single-object reads (field, role, workflow, dashboard), its
 * forms, a table copy and an attachment removal, built on bitable v1: v1 has no single-object GET for these, so
 * a read pages through the list and picks the object by ID (an unknown ID is `not_found`, never an empty answer).
 * A form is a view of type `form` in v1, so forms are created, listed and deleted as views.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type FlagSpecs, type Shortcut } from "../declare.ts";
import { itemsPage } from "../im/paging.ts";
import { appPath, baseFlag, idOf, simple, tableFlags, tablePath } from "./simple.ts";

const enc = encodeURIComponent;
const B = "bascnAbc123";
const T = "tblXyz";
const Items = itemsPage(z.looseObject({}));

interface FindSpec {
  command: `+${string}`;
  description: string;
  scopes: string[];
  /** The flag naming the object, and the list item's field holding its ID. */
  idFlag: string;
  idField: string;
  noun: string;
  table: boolean;
  list: string;
  /** The response's list field (`items` for most v1 lists). */
  field: string;
  /** The list takes no `page_size` (the workflows list answers everything at once). */
  unpaged?: true;
}

/** A read of one object of a v1 list that has no GET by ID: pages the list and keeps the one asked for. */
function findOne(spec: FindSpec): Shortcut<FlagSpecs> {
  const scope = spec.table ? tableFlags : baseFlag;
  const flags = { ...scope, [spec.idFlag]: flag.requiredString(`${spec.noun} ID`) } as typeof tableFlags & {
    [k: string]: ReturnType<typeof flag.requiredString>;
  };
  const target = spec.table ? `--table-id ${T} ` : "";
  return defineShortcut({
    service: "base",
    command: spec.command,
    description: spec.description,
    examples: [
      `larkit base ${spec.command} --base-token ${B} ${target}--${spec.idFlag} ${spec.noun.slice(0, 3)}Abc`,
    ],
    risk: "read",
    authTypes: ["user", "bot"],
    scopes: { user: spec.scopes, bot: spec.scopes },
    hasFormat: true,
    flags,
    async run(ctx) {
      const f = ctx.flags as unknown as Record<string, string>;
      const id = idOf(spec.idFlag, f[spec.idFlag]);
      const base = spec.table ? tablePath(f as never) : appPath(f as never);
      const pages = await ctx.paginate({
        method: "GET",
        path: `${base}/${spec.list}`,
        params: spec.unpaged ? undefined : { page_size: 100 },
        description: `the ${spec.noun}s, to pick ${id}`,
        response: z.object({
          [spec.field]: z.nullish(z.array(z.looseObject({}))),
          has_more: z._default(z.boolean(), false),
          page_token: z.optional(z.string()),
        }),
        planned: { [spec.field]: [{ [spec.idField]: id }], has_more: false },
      }, { maxPages: 20 });
      const items = pages.flatMap((p) =>
        (p[spec.field] as Record<string, unknown>[] | null | undefined) ?? []
      );
      const found = items.find((o) => o[spec.idField] === id);
      if (!found) throw errors.notFound(`no ${spec.noun} ${id} here`);
      await ctx.outFormat(found);
    },
  });
}

export const fieldGet = findOne({
  command: "+field-get",
  description: "Show one field of a table: name, type and properties (options, formatting)",
  scopes: ["base:field:read"],
  idFlag: "field-id",
  idField: "field_id",
  noun: "field",
  table: true,
  list: "fields",
  field: "items",
});

export const roleGet = findOne({
  command: "+role-get",
  description: "Show one custom role and its table and block permissions",
  scopes: ["base:role:read"],
  idFlag: "role-id",
  idField: "role_id",
  noun: "role",
  table: false,
  list: "roles",
  field: "items",
});

export const workflowGet = findOne({
  command: "+workflow-get",
  description: "Show one workflow (automation) of a base: title and whether it is on",
  scopes: ["base:workflow:read"],
  idFlag: "workflow-id",
  idField: "workflow_id",
  noun: "workflow",
  table: false,
  list: "workflows",
  field: "workflows",
  unpaged: true,
});

export const dashboardGet = findOne({
  command: "+dashboard-get",
  description: "Show one dashboard of a base (its ID and name)",
  scopes: ["base:dashboard:read"],
  idFlag: "dashboard-id",
  idField: "block_id",
  noun: "dashboard",
  table: false,
  list: "dashboards",
  field: "dashboards",
});

export const formList = defineShortcut({
  service: "base",
  command: "+form-list",
  description: "List a table's forms (its views of type form)",
  examples: [`larkit base +form-list --base-token ${B} --table-id ${T}`],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["base:form:read"], bot: ["base:form:read"] },
  hasFormat: true,
  columns: ["view_name", "view_id"],
  flags: tableFlags,
  async run(ctx) {
    const pages = await ctx.paginate({
      method: "GET",
      path: `${tablePath(ctx.flags)}/views`,
      params: { page_size: 100 },
      description: "the table's views, to keep the forms",
      response: Items,
      planned: { items: [], has_more: false },
    }, { maxPages: 20 });
    const forms = pages.flatMap((p) => p.items ?? []).filter((v) => v.view_type === "form");
    await ctx.outFormat(forms, { count: forms.length });
  },
});

export const formCreate = simple({
  command: "+form-create",
  description: "Create a form on a table (a form view; its questions are the table's fields)",
  examples: [`larkit base +form-create --base-token ${B} --table-id ${T} --name "Bug report"`],
  risk: "write",
  scopes: ["base:form:create"],
  flags: { ...tableFlags, name: flag.requiredString("form name") },
  method: "POST",
  path: (f) => `${tablePath(f)}/views`,
  body: (f) => ({ view_name: f.name, view_type: "form" }),
});

const formFlags = {
  ...tableFlags,
  "form-id": flag.requiredString("form ID (the form view's ID, vew\u2026)"),
};
const formPath = (f: { "base-token": string; "table-id": string; "form-id": string }) =>
  `${tablePath(f)}/forms/${enc(idOf("form-id", f["form-id"]))}`;

export const formDelete = simple({
  command: "+form-delete",
  description: "Delete a form (its view); submitted records stay in the table (asks for confirmation)",
  examples: [`larkit base +form-delete --base-token ${B} --table-id ${T} --form-id vewForm1 --yes`],
  risk: "high-risk-write",
  scopes: ["base:form:delete"],
  flags: formFlags,
  method: "DELETE",
  path: (f) => `${tablePath(f)}/views/${enc(idOf("form-id", f["form-id"]))}`,
  echo: (f) => ({ form_id: f["form-id"], deleted: true }),
});

const Form = z.looseObject({
  form: z.optional(z.looseObject({
    shared: z.optional(z.boolean()),
    shared_url: z.optional(z.string()),
    shared_limit: z.optional(z.string()),
    submit_limit_once: z.optional(z.boolean()),
  })),
});

export const formShareGet = defineShortcut({
  service: "base",
  command: "+form-share-get",
  description: "Show who can fill in a form: shared or not, its link and the sharing limit",
  examples: [`larkit base +form-share-get --base-token ${B} --table-id ${T} --form-id vewForm1`],
  risk: "read",
  authTypes: ["user", "bot"],
  // The reference asks for the update scope here: sharing settings are read with the right to change them.
  scopes: { user: ["base:form:update"], bot: ["base:form:update"] },
  hasFormat: true,
  flags: formFlags,
  async run(ctx) {
    const { form } = await ctx.api({
      method: "GET",
      path: formPath(ctx.flags),
      response: Form,
      planned: { form: {} },
    });
    await ctx.outFormat({
      form_id: ctx.flags["form-id"],
      shared: form?.shared ?? false,
      shared_url: form?.shared_url ?? null,
      shared_limit: form?.shared_limit ?? null,
      submit_limit_once: form?.submit_limit_once ?? false,
    });
  },
});

const LIMITS = ["off", "tenant_editable", "anyone_editable"] as const;

export const formShareUpdate = simple({
  command: "+form-share-update",
  description: "Share or unshare a form and set who may fill it in (tenant or anyone with the link)",
  examples: [
    `larkit base +form-share-update --base-token ${B} --table-id ${T} --form-id vewForm1 --shared true --limit tenant_editable`,
    `larkit base +form-share-update --base-token ${B} --table-id ${T} --form-id vewForm1 --shared false`,
  ],
  risk: "write",
  scopes: ["base:form:update"],
  flags: {
    ...formFlags,
    shared: flag.requiredString("true: the form's link works; false: it does not"),
    limit: flag.string(`who may fill it in: ${LIMITS.join(", ")}`),
    "submit-once": flag.string("true: one submission per person; false: any number"),
  },
  method: "PATCH",
  path: formPath,
  body: (f) => {
    const bool = (name: string, v: string) => {
      if (v !== "true" && v !== "false") {
        throw errors.validation(`--${name} must be true or false, got "${v}"`);
      }
      return v === "true";
    };
    if (f.limit !== undefined && !(LIMITS as readonly string[]).includes(f.limit)) {
      throw errors.validation(`--limit must be one of: ${LIMITS.join(", ")}`);
    }
    return {
      shared: bool("shared", f.shared),
      ...(f.limit ? { shared_limit: f.limit } : {}),
      ...(f["submit-once"] !== undefined ? { submit_limit_once: bool("submit-once", f["submit-once"]) } : {}),
    };
  },
});

const Fields = itemsPage(z.looseObject({
  field_id: z.string(),
  field_name: z.string(),
  type: z.number(),
  property: z.optional(z.unknown()),
  description: z.optional(z.unknown()),
}));

export const tableCopy = defineShortcut({
  service: "base",
  command: "+table-copy",
  description:
    "Copy a table's structure (its fields, in order) into a new table of the same base; records are not copied",
  examples: [`larkit base +table-copy --base-token ${B} --table-id ${T} --name "Tasks (copy)"`],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["base:table:create", "base:field:read"], bot: ["base:table:create", "base:field:read"] },
  hasFormat: false,
  flags: { ...tableFlags, name: flag.requiredString("the new table's name") },
  async run(ctx) {
    const pages = await ctx.paginate({
      method: "GET",
      path: `${tablePath(ctx.flags)}/fields`,
      params: { page_size: 100 },
      description: "the source table's fields",
      response: Fields,
      planned: { items: [], has_more: false },
    }, { maxPages: 10 });
    // Only what a create takes: IDs are issued anew, and link/formula fields keep their property as is.
    const fields = pages.flatMap((p) => p.items ?? []).map((x) => ({
      field_name: x.field_name,
      type: x.type,
      ...(x.property ? { property: x.property } : {}),
    }));
    const created = await ctx.api({
      method: "POST",
      path: `${appPath(ctx.flags)}/tables`,
      body: { table: { name: ctx.flags.name, ...(fields.length ? { fields } : {}) } },
      response: z.looseObject({ table_id: z.optional(z.string()) }),
      planned: { table_id: "<table_id>" },
    });
    await ctx.out({ source_table_id: ctx.flags["table-id"], fields: fields.length, ...created });
  },
});

const Attachment = z.looseObject({ file_token: z.string() });
const Rec = z.looseObject({
  record: z.looseObject({ fields: z._default(z.record(z.string(), z.unknown()), {}) }),
});

export const recordRemoveAttachment = defineShortcut({
  service: "base",
  command: "+record-remove-attachment",
  description:
    "Remove one file from a record's attachment field; the other files stay (asks for confirmation)",
  examples: [
    `larkit base +record-remove-attachment --base-token ${B} --table-id ${T} --record-id recAbc --field-id fldFiles --file-token boxcnAbc --yes`,
  ],
  risk: "high-risk-write",
  authTypes: ["user", "bot"],
  scopes: { user: ["base:record:update", "base:field:read"], bot: ["base:record:update", "base:field:read"] },
  hasFormat: false,
  flags: {
    ...tableFlags,
    "record-id": flag.requiredString("record ID (rec\u2026)"),
    "field-id": flag.requiredString("the attachment field's ID (fld\u2026)"),
    "file-token": flag.requiredString("the file to remove (its file_token in the record)"),
  },
  async run(ctx) {
    const fieldId = idOf("field-id", ctx.flags["field-id"]);
    const recordId = idOf("record-id", ctx.flags["record-id"]);
    const token = idOf("file-token", ctx.flags["file-token"]);
    const path = tablePath(ctx.flags);
    const pages = await ctx.paginate({
      method: "GET",
      path: `${path}/fields`,
      params: { page_size: 100 },
      description: "the table's fields, to name the attachment field",
      response: Fields,
      planned: { items: [{ field_id: fieldId, field_name: fieldId, type: 17 }], has_more: false },
    }, { maxPages: 10 });
    const field = pages.flatMap((p) => p.items ?? []).find((x) => x.field_id === fieldId);
    if (!field) throw errors.notFound(`no field ${fieldId} in table ${ctx.flags["table-id"]}`);
    if (field.type !== 17) throw errors.validation(`field ${fieldId} is not an attachment field`);
    const { record } = await ctx.api({
      method: "GET",
      path: `${path}/records/${enc(recordId)}`,
      response: Rec,
      planned: { record: { fields: { [field.field_name]: [{ file_token: token }] } } },
    });
    const files = z.array(Attachment).safeParse(record.fields[field.field_name] ?? []);
    const list = files.success ? files.data : [];
    const kept = list.filter((a) => a.file_token !== token);
    if (kept.length === list.length) {
      throw errors.notFound(`record ${recordId} has no file ${token} in "${field.field_name}"`);
    }
    await ctx.api({
      method: "PUT",
      path: `${path}/records/${enc(recordId)}`,
      body: { fields: { [field.field_name]: kept.map((a) => ({ file_token: a.file_token })) } },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ record_id: recordId, removed: token, remaining: kept.length });
  },
});

const Blocks = Items;

export const baseBlockList = defineShortcut({
  service: "base",
  command: "+base-block-list",
  description: "List a base's blocks: its tables and its dashboards, each with its type",
  examples: [`larkit base +base-block-list --base-token ${B}`],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["base:block:read"], bot: ["base:block:read"] },
  hasFormat: true,
  columns: ["block_type", "name", "block_id"],
  flags: baseFlag,
  async run(ctx) {
    const app = appPath(ctx.flags);
    const each = (list: string) =>
      ctx.paginate({
        method: "GET",
        path: `${app}/${list}`,
        params: { page_size: 100 },
        description: `the base's ${list}`,
        response: Blocks,
        planned: { items: [], has_more: false },
      }, { maxPages: 20 });
    const tables = (await each("tables")).flatMap((p) => p.items ?? []);
    const dashboards = (await each("dashboards")).flatMap((p) => p.items ?? []);
    const blocks = [
      ...tables.map((t) => ({ block_type: "table", block_id: t.table_id, name: t.name })),
      ...dashboards.map((d) => ({ block_type: "dashboard", block_id: d.block_id, name: d.name })),
    ];
    await ctx.outFormat(blocks, { count: blocks.length });
  },
});
