/**
 * `sheets +cells-set` (alias `+write`): overwrites a range with `--values`. A single start cell (or no range) is widened to the
 * size of the values, so `--range C2` writes the block whose top-left corner is C2.
 */
import * as z from "zod";
import { defineShortcut, type FlagValues } from "../declare.ts";
import {
  parseValues,
  rangeText,
  sheetFlags,
  targetOf,
  valuesFlag,
  writeCells,
  writeValues,
} from "./spreadsheet.ts";

const flags = { ...sheetFlags, values: valuesFlag };

function bodyOf(f: FlagValues<typeof flags>, sheetId: string) {
  const values = parseValues(f.values);
  return { valueRange: { range: rangeText(sheetId, writeCells(targetOf(f).cells, values)), values } };
}

const Written = z.looseObject({ updatedRange: z.string(), updatedCells: z.number() });

export const write = defineShortcut({
  service: "sheets",
  command: "+cells-set",
  aliases: ["+write"],
  description: "Write cell values to a range (overwrites)",
  examples: [
    `larkit sheets +cells-set --spreadsheet-token shtcnAbc123 --range 0b12cd!A1 --values '[["Item","Qty"],["Pens",3]]'`,
    "larkit sheets +cells-set --spreadsheet-token shtcnAbc123 --sheet-id 0b12cd --range C2 --values @rows.json",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["sheets:spreadsheet"], bot: ["sheets:spreadsheet"] },
  hasFormat: false,
  flags,
  async run(ctx) {
    const written = await writeValues(ctx, {
      method: "PUT",
      rest: "/values",
      body: (sheetId) => bodyOf(ctx.flags, sheetId),
      response: Written,
      planned: { updatedRange: "<range>", updatedCells: 0 },
    });
    await ctx.out(written);
  },
});
