/**
 * `base +record-list` (alias `+records-list`): a table's records (optionally through a view), one page or
 * `--page-all`; with `meta.has_more`, `meta.page_token` fetches the next page.
 */
import * as z from "zod";
import { defineShortcut, flag, type FlagValues } from "../declare.ts";
import { itemsPage, listPages, pageFlags } from "../im/paging.ts";
import { recordsPath, tableFlags } from "./table.ts";

const flags = {
  ...tableFlags,
  "view-id": flag.string("view ID: only the records the view shows, in its order"),
  ...pageFlags({ default: 100, max: 500, noun: "records" }),
};

function query(f: FlagValues<typeof flags>) {
  return { view_id: f["view-id"] };
}

const Page = z.extend(
  itemsPage(z.looseObject({ record_id: z.string(), fields: z.record(z.string(), z.unknown()) })),
  { total: z.optional(z.number()) },
);

export const recordsList = defineShortcut({
  service: "base",
  command: "+record-list",
  aliases: ["+records-list"],
  description: "List the records of a base table (a page, or every page with --page-all)",
  examples: [
    "larkit base +record-list --base-token bascnAbc123 --table-id tblXyz",
    "larkit base +record-list --base-token bascnAbc123 --table-id tblXyz --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["bitable:app:readonly"], bot: ["bitable:app:readonly"] },
  hasFormat: true,
  flags,
  async run(ctx) {
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: recordsPath(ctx.flags["base-token"], ctx.flags["table-id"]),
      params: query(ctx.flags),
      response: Page,
      planned: { items: [], has_more: false },
    });
    const records = pages.flatMap((p) => p.items ?? []);
    const total = pages[0]?.total;
    await ctx.outFormat(records, { ...meta(records.length), ...(total !== undefined ? { total } : {}) });
  },
});
