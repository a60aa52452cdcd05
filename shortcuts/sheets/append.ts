/**
 * `sheets +append`: adds `--values` as new rows after the last used row of the range (the whole sheet when
 * no range is given); the suite finds that row, so concurrent appends do not overwrite each other.
 */
import { z } from "zod";
import { parseResponse } from "../common/response.ts";
import { defineShortcut, type FlagValues } from "../declare.ts";
import {
  parseValues,
  plannedSheetId,
  rangeText,
  resolveSheetId,
  sheetFlags,
  spreadsheetPath,
  targetOf,
  valuesFlag,
} from "./spreadsheet.ts";

const flags = { ...sheetFlags, values: valuesFlag };

function bodyOf(f: FlagValues<typeof flags>, sheetId: string) {
  return { valueRange: { range: rangeText(sheetId, targetOf(f).cells), values: parseValues(f.values) } };
}

const Appended = z.looseObject({
  tableRange: z.string().optional(),
  updates: z.looseObject({ updatedRange: z.string(), updatedRows: z.number() }),
});

export const append = defineShortcut({
  service: "sheets",
  command: "+append",
  description: "Append rows after the last used row of a sheet or range",
  examples: [
    `larkit sheets +append --spreadsheet-token shtcnAbc123 --sheet-id 0b12cd --values '[["Paper",10]]'`,
    "cat rows.json | larkit sheets +append --url https://example.feishu.cn/sheets/shtcnAbc123 --values -",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["sheets:spreadsheet"], bot: ["sheets:spreadsheet"] },
  hasFormat: false,
  flags,
  validate({ flags: f }) {
    bodyOf(f, "sheet");
  },
  async dryRun(ctx) {
    const target = targetOf(ctx.flags);
    const { sheetId, steps } = await plannedSheetId(ctx, target);
    const post = await ctx.plan({
      method: "POST",
      path: spreadsheetPath(target.token, "/values_append"),
      body: bodyOf(ctx.flags, sheetId),
    });
    return { api: [...steps, post] };
  },
  async execute(ctx) {
    const target = targetOf(ctx.flags);
    const sheetId = await resolveSheetId(ctx, target);
    const data = await ctx.api({
      method: "POST",
      path: spreadsheetPath(target.token, "/values_append"),
      body: bodyOf(ctx.flags, sheetId),
    });
    const appended = parseResponse(Appended, data, "sheets values append");
    await ctx.out(appended.updates, { count: appended.updates.updatedRows });
  },
});
