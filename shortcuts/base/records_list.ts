/**
 * `base +records-list`: one page of a table's records (optionally through a view). `meta.count` is the page's
 * size; with `meta.has_more`, `meta.page_token` fetches the next page.
 */
import { z } from "zod";
import { defineShortcut, flag, type FlagValues } from "../declare.ts";
import { recordsPath, tableFlags } from "./table.ts";

const flags = {
  ...tableFlags,
  "view-id": flag.string("view ID: only the records the view shows, in its order"),
  "page-size": flag.integer("records per page (1-500)", { default: 100, min: 1, max: 500 }),
  "page-token": flag.string("page token from the previous page's meta.page_token"),
};

function query(f: FlagValues<typeof flags>) {
  return { view_id: f["view-id"], page_size: f["page-size"], page_token: f["page-token"] };
}

const Page = z.object({
  items: z.array(z.looseObject({ record_id: z.string(), fields: z.record(z.string(), z.unknown()) }))
    .nullish(),
  has_more: z.boolean().default(false),
  page_token: z.string().optional(),
  total: z.number().optional(),
});

export const recordsList = defineShortcut({
  service: "base",
  command: "+records-list",
  description: "List the records of a base table (one page)",
  examples: [
    "larkit base +records-list --base-token bascnAbc123 --table-id tblXyz",
    "larkit base +records-list --base-token bascnAbc123 --table-id tblXyz --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["bitable:app:readonly"], bot: ["bitable:app:readonly"] },
  hasFormat: true,
  flags,
  async run(ctx) {
    const page = await ctx.api({
      method: "GET",
      path: recordsPath(ctx.flags["base-token"], ctx.flags["table-id"]),
      params: query(ctx.flags),
      response: Page,
      planned: { items: [], has_more: false },
    });
    const records = page.items ?? [];
    await ctx.outFormat(records, {
      count: records.length,
      has_more: page.has_more,
      ...(page.has_more && page.page_token ? { page_token: page.page_token } : {}),
      ...(page.total !== undefined ? { total: page.total } : {}),
    });
  },
});
