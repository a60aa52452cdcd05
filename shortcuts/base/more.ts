/**
 * Base settings (rename, advanced permissions on/off), role members, a table's shape in one read, and a
 * view's filter or hidden fields read back on their own (bitable v1).
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { itemsPage } from "../im/paging.ts";
import { appPath, baseFlag, idOf, simple, tableFlags, tablePath } from "./simple.ts";

const enc = encodeURIComponent;
const B = "bascnAbc123";
const T = "tblXyz";

export const baseUpdate = simple({
  command: "+base-update",
  description: "Rename a base",
  examples: [`larkit base +base-update --base-token ${B} --name "Launch tracker 2026"`],
  risk: "write",
  scopes: ["base:app:update"],
  flags: { ...baseFlag, name: flag.requiredString("new name") },
  method: "PUT",
  path: appPath,
  body: (f) => ({ name: f.name }),
});

export const advpermEnable = simple({
  command: "+advperm-enable",
  description: "Turn on advanced permissions (custom roles) for a base",
  examples: [`larkit base +advperm-enable --base-token ${B}`],
  risk: "write",
  scopes: ["base:app:update"],
  flags: baseFlag,
  method: "PUT",
  path: appPath,
  body: () => ({ is_advanced: true }),
  echo: () => ({ is_advanced: true }),
});

export const advpermDisable = simple({
  command: "+advperm-disable",
  description: "Turn off advanced permissions; custom roles stop applying (asks for confirmation)",
  examples: [`larkit base +advperm-disable --base-token ${B} --yes`],
  risk: "high-risk-write",
  scopes: ["base:app:update"],
  flags: baseFlag,
  method: "PUT",
  path: appPath,
  body: () => ({ is_advanced: false }),
  echo: () => ({ is_advanced: false }),
});

const roleFlags = { ...baseFlag, "role-id": flag.requiredString("role ID (rol\u2026)") };
const membersPath = (f: { "base-token": string; "role-id": string }) =>
  `${appPath(f)}/roles/${enc(idOf("role-id", f["role-id"]))}/members`;

/** `ou_a,ou_b` -> the member list the role endpoints take (open_ids only, at most 100). */
function memberList(text: string) {
  const ids = text.split(",").map((s) => s.trim()).filter(Boolean);
  const bad = ids.find((id) => !id.startsWith("ou_"));
  if (bad !== undefined) throw errors.validation(`--user-id: "${bad}" is not an open_id (ou_\u2026)`);
  if (!ids.length || ids.length > 100) throw errors.validation("--user-id needs 1 to 100 open_ids");
  return { member_list: ids.map((id) => ({ type: "open_id", id })) };
}

export const roleMemberList = simple({
  command: "+role-member-list",
  columns: ["member_name", "member_type", "open_id"],
  description: "List the members of a custom role",
  examples: [`larkit base +role-member-list --base-token ${B} --role-id rolAbc`],
  risk: "read",
  scopes: ["base:role:read"],
  flags: roleFlags,
  method: "GET",
  path: membersPath,
  list: "items",
});

export const roleMemberAdd = simple({
  command: "+role-member-add",
  description: "Add people to a custom role",
  examples: [`larkit base +role-member-add --base-token ${B} --role-id rolAbc --user-id ou_1a2b3c,ou_4d5e6f`],
  risk: "write",
  scopes: ["base:role:update"],
  flags: { ...roleFlags, "user-id": flag.requiredString("open_ids, comma-separated (at most 100)") },
  method: "POST",
  path: (f) => `${membersPath(f)}/batch_create`,
  body: (f) => memberList(f["user-id"]),
});

export const roleMemberRemove = simple({
  command: "+role-member-remove",
  description: "Remove people from a custom role (they lose its access; asks for confirmation)",
  examples: [`larkit base +role-member-remove --base-token ${B} --role-id rolAbc --user-id ou_1a2b3c --yes`],
  risk: "high-risk-write",
  scopes: ["base:role:update"],
  flags: { ...roleFlags, "user-id": flag.requiredString("open_ids, comma-separated (at most 100)") },
  method: "POST",
  path: (f) => `${membersPath(f)}/batch_delete`,
  body: (f) => memberList(f["user-id"]),
});

const ItemsPage = itemsPage(z.looseObject({}));

export const tableGet = defineShortcut({
  service: "base",
  command: "+table-get",
  description: "Show a table's shape: its fields and its views, in one read",
  examples: [`larkit base +table-get --base-token ${B} --table-id ${T}`],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["base:field:read", "base:view:read"], bot: ["base:field:read", "base:view:read"] },
  hasFormat: true,
  flags: tableFlags,
  async run(ctx) {
    const path = tablePath(ctx.flags);
    const all = async (list: "fields" | "views") => {
      const pages = await ctx.paginate({
        method: "GET",
        path: `${path}/${list}`,
        params: { page_size: 100 },
        response: ItemsPage,
        planned: { items: [], has_more: false },
      }, { maxPages: 10 });
      return pages.flatMap((p) => p.items ?? []);
    };
    const fields = await all("fields");
    const views = await all("views");
    await ctx.outFormat({ table_id: ctx.flags["table-id"], fields, views });
  },
});

const View = z.looseObject({
  view: z.optional(z.looseObject({
    property: z.nullish(z.looseObject({
      filter_info: z.optional(z.unknown()),
      hidden_fields: z.nullish(z.array(z.string())),
    })),
  })),
});

function viewProperty(command: "+view-get-filter" | "+view-get-visible-fields") {
  const filter = command === "+view-get-filter";
  return defineShortcut({
    service: "base",
    command,
    description: filter ? "Show a view's filter (filter_info)" : "Show which fields a view hides",
    examples: [`larkit base ${command} --base-token ${B} --table-id ${T} --view-id vewAbc`],
    risk: "read",
    authTypes: ["user", "bot"],
    scopes: { user: ["base:view:read"], bot: ["base:view:read"] },
    hasFormat: true,
    flags: { ...tableFlags, "view-id": flag.requiredString("view ID (vew\u2026)") },
    async run(ctx) {
      const id = idOf("view-id", ctx.flags["view-id"]);
      const { view } = await ctx.api({
        method: "GET",
        path: `${tablePath(ctx.flags)}/views/${enc(id)}`,
        response: View,
        planned: { view: { property: {} } },
      });
      const p = view?.property;
      await ctx.outFormat(
        filter
          ? { view_id: id, filter_info: p?.filter_info ?? null }
          : { view_id: id, hidden_fields: p?.hidden_fields ?? [] },
      );
    },
  });
}
export const viewGetFilter = viewProperty("+view-get-filter");
export const viewGetVisibleFields = viewProperty("+view-get-visible-fields");

const Fields = itemsPage(z.looseObject({
  field_id: z.string(),
  field_name: z.optional(z.string()),
  property: z.nullish(z.looseObject({ options: z.nullish(z.array(z.looseObject({ name: z.string() }))) })),
}));

export const fieldSearchOptions = defineShortcut({
  service: "base",
  command: "+field-search-options",
  description: "Find the options of a single- or multi-select field whose name contains a keyword",
  examples: [
    `larkit base +field-search-options --base-token ${B} --table-id ${T} --field-id fldStatus --keyword do`,
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["base:field:read"], bot: ["base:field:read"] },
  hasFormat: true,
  columns: ["name", "id", "color"],
  flags: {
    ...tableFlags,
    "field-id": flag.requiredString("field ID (fld\u2026)"),
    keyword: flag.string("only options whose name contains this (case-insensitive); all when absent"),
  },
  async run(ctx) {
    const id = idOf("field-id", ctx.flags["field-id"]);
    const pages = await ctx.paginate({
      method: "GET",
      path: `${tablePath(ctx.flags)}/fields`,
      params: { page_size: 100 },
      description: "the table's fields, to read the field's options",
      response: Fields,
      planned: { items: [{ field_id: id, property: { options: [] } }], has_more: false },
    }, { maxPages: 10 });
    const field = pages.flatMap((p) => p.items ?? []).find((f) => f.field_id === id);
    if (!field) throw errors.notFound(`no field ${id} in table ${ctx.flags["table-id"]}`);
    const keyword = ctx.flags.keyword?.toLowerCase();
    const options = (field.property?.options ?? []).filter((o) =>
      keyword === undefined || o.name.toLowerCase().includes(keyword)
    );
    await ctx.outFormat(options, { count: options.length });
  },
});
