/**
 * `sheets +write`: overwrites a range with `--values`. A single start cell (or no range) is widened to the
 * size of the values, so `--range C2` writes the block whose top-left corner is C2.
 */
import { z } from "zod";
import { parseResponse } from "../common/response.ts";
import { defineShortcut, type FlagValues } from "../declare.ts";
import {
  parseValues,
  rangeText,
  sheetFlags,
  targetOf,
  valuesFlag,
  valuesRequest,
  writeCells,
} from "./spreadsheet.ts";

const flags = { ...sheetFlags, values: valuesFlag };

function bodyOf(f: FlagValues<typeof flags>, sheetId: string) {
  const values = parseValues(f.values);
  return { valueRange: { range: rangeText(sheetId, writeCells(targetOf(f).cells, values)), values } };
}

const Written = z.looseObject({ updatedRange: z.string(), updatedCells: z.number() });

const request = valuesRequest<typeof flags>("PUT", "/values", bodyOf);

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
  dryRun: (ctx) => request.dryRun(ctx),
  async execute(ctx) {
    const data = await request.send(ctx);
    await ctx.out(parseResponse(Written, data, "sheets values write"));
  },
});
