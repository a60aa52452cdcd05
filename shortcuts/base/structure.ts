/**
 * Bases, tables, fields and views on bitable v1: read, create, rename, delete. Deletions and field changes
 * (which rewrite existing cell values) are high-risk writes and ask for confirmation.
 */
import { errors } from "../../cli/output/errors.ts";
import { flag } from "../declare.ts";
import { appPath, APPS, baseFlag, idOf, objectOf, simple, tableFlags, tablePath } from "./simple.ts";

const enc = encodeURIComponent;
const B = "bascnAbc123";
const T = "tblXyz";
const fieldFlags = { ...tableFlags, "field-id": flag.requiredString("field ID (fld\u2026)") };
const viewFlags = { ...tableFlags, "view-id": flag.requiredString("view ID (vew\u2026)") };
const fieldPath = (f: { "base-token": string; "table-id": string; "field-id": string }) =>
  `${tablePath(f)}/fields/${enc(idOf("field-id", f["field-id"]))}`;
const viewPath = (f: { "base-token": string; "table-id": string; "view-id": string }) =>
  `${tablePath(f)}/views/${enc(idOf("view-id", f["view-id"]))}`;

export const baseGet = simple({
  command: "+base-get",
  description: "Show a base's name, revision and settings",
  examples: [`larkit base +base-get --base-token ${B}`],
  risk: "read",
  scopes: ["base:app:read"],
  flags: baseFlag,
  method: "GET",
  path: appPath,
});

export const baseCreate = simple({
  command: "+base-create",
  description: "Create a base (optionally in a Drive folder)",
  examples: [
    'larkit base +base-create --name "Launch tracker"',
    "larkit base +base-create --name CRM --folder-token fldcnAbc",
  ],
  risk: "write",
  scopes: ["base:app:create"],
  flags: {
    name: flag.requiredString("base name"),
    "folder-token": flag.string("Drive folder token (default: the caller's root)"),
    "time-zone": flag.string("time zone of the base, e.g. Asia/Shanghai"),
  },
  method: "POST",
  path: () => APPS,
  body: (f) => ({
    name: f.name,
    ...(f["folder-token"] ? { folder_token: idOf("folder-token", f["folder-token"]) } : {}),
    ...(f["time-zone"] ? { time_zone: f["time-zone"] } : {}),
  }),
});

export const baseCopy = simple({
  command: "+base-copy",
  description: "Copy a base, with or without its records",
  examples: [`larkit base +base-copy --base-token ${B} --name "Tracker (copy)" --without-content`],
  risk: "write",
  scopes: ["base:app:copy"],
  flags: {
    ...baseFlag,
    name: flag.string("name of the copy"),
    "folder-token": flag.string("Drive folder of the copy"),
    "without-content": flag.boolean("copy the structure only, no records"),
    "time-zone": flag.string("time zone of the copy"),
  },
  method: "POST",
  path: (f) => `${appPath(f)}/copy`,
  body: (f) => ({
    ...(f.name ? { name: f.name } : {}),
    ...(f["folder-token"] ? { folder_token: idOf("folder-token", f["folder-token"]) } : {}),
    without_content: f["without-content"],
    ...(f["time-zone"] ? { time_zone: f["time-zone"] } : {}),
  }),
});

export const tableList = simple({
  command: "+table-list",
  columns: ["name", "table_id"],
  description: "List a base's tables",
  examples: [`larkit base +table-list --base-token ${B} --format table`],
  risk: "read",
  scopes: ["base:table:read"],
  flags: baseFlag,
  method: "GET",
  path: (f) => `${appPath(f)}/tables`,
  list: "items",
});

export const tableCreate = simple({
  command: "+table-create",
  description: "Create a table, optionally with its fields (JSON list of {field_name, type})",
  examples: [
    `larkit base +table-create --base-token ${B} --name Tasks`,
    `larkit base +table-create --base-token ${B} --name Tasks --fields '[{"field_name":"Title","type":1}]'`,
  ],
  risk: "write",
  scopes: ["base:table:create"],
  flags: {
    ...baseFlag,
    name: flag.requiredString("table name"),
    fields: flag.json('fields as JSON: [{"field_name": "Title", "type": 1}, \u2026]', {
      input: ["file", "stdin"],
    }),
  },
  method: "POST",
  path: (f) => `${appPath(f)}/tables`,
  body: (f) => {
    if (f.fields !== undefined && !Array.isArray(f.fields)) {
      throw errors.validation("--fields must be a JSON array");
    }
    return { table: { name: f.name, ...(f.fields ? { fields: f.fields } : {}) } };
  },
});

export const tableUpdate = simple({
  command: "+table-update",
  description: "Rename a table",
  examples: [`larkit base +table-update --base-token ${B} --table-id ${T} --name "Open tasks"`],
  risk: "write",
  scopes: ["base:table:update"],
  flags: { ...tableFlags, name: flag.requiredString("new table name") },
  method: "PATCH",
  path: tablePath,
  body: (f) => ({ name: f.name }),
});

export const tableDelete = simple({
  command: "+table-delete",
  description: "Delete a table and all its records (cannot be undone; asks for confirmation)",
  examples: [`larkit base +table-delete --base-token ${B} --table-id ${T} --yes`],
  risk: "high-risk-write",
  scopes: ["base:table:delete"],
  flags: tableFlags,
  method: "DELETE",
  path: tablePath,
  echo: (f) => ({ table_id: f["table-id"], deleted: true }),
});

export const fieldList = simple({
  command: "+field-list",
  columns: ["field_name", "type", "field_id"],
  description: "List a table's fields (name, type, options)",
  examples: [`larkit base +field-list --base-token ${B} --table-id ${T} --format table`],
  risk: "read",
  scopes: ["base:field:read"],
  flags: { ...tableFlags, "view-id": flag.string("only the fields this view shows") },
  method: "GET",
  path: (f) => `${tablePath(f)}/fields`,
  params: (f) => ({ view_id: f["view-id"] }),
  list: "items",
});

const fieldJson = flag.json('the field as JSON: {"field_name": "Status", "type": 3, "property": {\u2026}}', {
  input: ["file", "stdin"],
});

export const fieldCreate = simple({
  command: "+field-create",
  description: "Add a field to a table",
  examples: [
    `larkit base +field-create --base-token ${B} --table-id ${T} --json '{"field_name":"Owner","type":11}'`,
  ],
  risk: "write",
  scopes: ["base:field:create"],
  flags: { ...tableFlags, json: fieldJson },
  method: "POST",
  path: (f) => `${tablePath(f)}/fields`,
  body: (f) => {
    const field = objectOf("json", f.json);
    if (typeof field.field_name !== "string" || typeof field.type !== "number") {
      throw errors.validation('--json needs "field_name" (text) and "type" (a number)');
    }
    return field;
  },
});

export const fieldUpdate = simple({
  command: "+field-update",
  description: "Change a field's name, type or options (may rewrite existing values; asks for confirmation)",
  examples: [
    `larkit base +field-update --base-token ${B} --table-id ${T} --field-id fldAbc --json '{"field_name":"Owner","type":11}' --yes`,
  ],
  risk: "high-risk-write",
  scopes: ["base:field:update"],
  flags: { ...fieldFlags, json: fieldJson },
  method: "PUT",
  path: fieldPath,
  body: (f) => {
    const field = objectOf("json", f.json);
    if (typeof field.field_name !== "string" || typeof field.type !== "number") {
      throw errors.validation('--json needs "field_name" (text) and "type" (a number)');
    }
    return field;
  },
});

export const fieldDelete = simple({
  command: "+field-delete",
  description: "Delete a field and its values in every record (asks for confirmation)",
  examples: [`larkit base +field-delete --base-token ${B} --table-id ${T} --field-id fldAbc --yes`],
  risk: "high-risk-write",
  scopes: ["base:field:delete"],
  flags: fieldFlags,
  method: "DELETE",
  path: fieldPath,
  echo: (f) => ({ field_id: f["field-id"] }),
});

export const viewList = simple({
  command: "+view-list",
  columns: ["view_name", "view_type", "view_id"],
  description: "List a table's views",
  examples: [`larkit base +view-list --base-token ${B} --table-id ${T} --format table`],
  risk: "read",
  scopes: ["base:view:read"],
  flags: tableFlags,
  method: "GET",
  path: (f) => `${tablePath(f)}/views`,
  list: "items",
});

export const viewGet = simple({
  command: "+view-get",
  description: "Show a view: its type and settings (filter, hidden fields)",
  examples: [`larkit base +view-get --base-token ${B} --table-id ${T} --view-id vewAbc`],
  risk: "read",
  scopes: ["base:view:read"],
  flags: viewFlags,
  method: "GET",
  path: viewPath,
});

export const viewCreate = simple({
  command: "+view-create",
  description: "Add a view to a table (grid, kanban, gallery, gantt or form)",
  examples: [`larkit base +view-create --base-token ${B} --table-id ${T} --name "My open tasks" --type grid`],
  risk: "write",
  scopes: ["base:view:write_only"],
  flags: {
    ...tableFlags,
    name: flag.requiredString("view name"),
    type: flag.choice(["grid", "kanban", "gallery", "gantt", "form"] as const, "view type", {
      default: "grid",
    }),
  },
  method: "POST",
  path: (f) => `${tablePath(f)}/views`,
  body: (f) => ({ view_name: f.name, view_type: f.type }),
});

export const viewRename = simple({
  command: "+view-rename",
  description: "Rename a view",
  examples: [
    `larkit base +view-rename --base-token ${B} --table-id ${T} --view-id vewAbc --name "Done this week"`,
  ],
  risk: "write",
  scopes: ["base:view:write_only"],
  flags: { ...viewFlags, name: flag.requiredString("new view name") },
  method: "PATCH",
  path: viewPath,
  body: (f) => ({ view_name: f.name }),
});

export const viewSetFilter = simple({
  command: "+view-set-filter",
  description: "Replace a view's filter (the suite's filter_info JSON: conjunction and conditions)",
  examples: [
    `larkit base +view-set-filter --base-token ${B} --table-id ${T} --view-id vewAbc --json '{"conjunction":"and","conditions":[{"field_id":"fldA","operator":"is","value":"[\\"Done\\"]"}]}'`,
  ],
  risk: "write",
  scopes: ["base:view:write_only"],
  flags: { ...viewFlags, json: flag.json("filter_info as JSON", { input: ["file", "stdin"] }) },
  method: "PATCH",
  path: viewPath,
  body: (f) => {
    const filter = objectOf("json", f.json);
    if (filter.conjunction !== "and" && filter.conjunction !== "or") {
      throw errors.validation('--json needs "conjunction": "and" or "or"');
    }
    return { property: { filter_info: filter } };
  },
});

export const viewSetVisibleFields = simple({
  command: "+view-set-visible-fields",
  description: "Hide fields in a view (the other fields show)",
  examples: [
    `larkit base +view-set-visible-fields --base-token ${B} --table-id ${T} --view-id vewAbc --hidden fldA,fldB`,
  ],
  risk: "write",
  scopes: ["base:view:write_only"],
  flags: {
    ...viewFlags,
    hidden: flag.requiredString("field IDs to hide, comma-separated ('' shows every field)"),
  },
  method: "PATCH",
  path: viewPath,
  body: (f) => ({
    property: {
      hidden_fields: f.hidden.split(",").map((s) => s.trim()).filter(Boolean).map((id) => idOf("hidden", id)),
    },
  }),
});

export const viewDelete = simple({
  command: "+view-delete",
  description: "Delete a view (records stay; asks for confirmation)",
  examples: [`larkit base +view-delete --base-token ${B} --table-id ${T} --view-id vewAbc --yes`],
  risk: "high-risk-write",
  scopes: ["base:view:write_only"],
  flags: viewFlags,
  method: "DELETE",
  path: viewPath,
  echo: (f) => ({ view_id: f["view-id"], deleted: true }),
});
