/**
 * `sheets +write`: overwrites a range with `--values`. A single start cell (or no range) is widened to the
 * size of the values, so `--range C2` writes the block whose top-left corner is C2.
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
  writeCells,
} from "./spreadsheet.ts";

const flags = { ...sheetFlags, values: valuesFlag };

function bodyOf(f: FlagValues<typeof flags>, sheetId: string) {
  const values = parseValues(f.values);
  return { valueRange: { range: rangeText(sheetId, writeCells(targetOf(f).cells, values)), values } };
}

const Written = z.looseObject({ updatedRange: z.string(), updatedCells: z.number() });

export const write = defineShortcut({
  service: "sheets",
  command: "+write",
  description: "Write cell values to a range (overwrites)",
  examples: [
    `larkit sheets +write --spreadsheet-token shtcnAbc123 --range 0b12cd!A1 --values '[["Item","Qty"],["Pens",3]]'`,
    "larkit sheets +write --spreadsheet-token shtcnAbc123 --sheet-id 0b12cd --range C2 --values @rows.json",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["sheets:spreadsheet"], bot: ["sheets:spreadsheet"] },
  hasFormat: false,
  flags,
  validate({ flags: f }) {
    targetOf(f);
    bodyOf(f, "sheet");
  },
  async dryRun(ctx) {
    const target = targetOf(ctx.flags);
    const { sheetId, steps } = await plannedSheetId(ctx, target);
    const put = await ctx.plan({
      method: "PUT",
      path: spreadsheetPath(target.token, "/values"),
      body: bodyOf(ctx.flags, sheetId),
    });
    return { api: [...steps, put] };
  },
  async execute(ctx) {
    const target = targetOf(ctx.flags);
    const sheetId = await resolveSheetId(ctx, target);
    const data = await ctx.api({
      method: "PUT",
      path: spreadsheetPath(target.token, "/values"),
      body: bodyOf(ctx.flags, sheetId),
    });
    await ctx.out(parseResponse(Written, data, "sheets values write"));
  },
});
