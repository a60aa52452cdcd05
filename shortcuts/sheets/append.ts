/**
 * `sheets +append`: adds `--values` as new rows after the last used row of the range (the whole sheet when
 * no range is given); the suite finds that row, so concurrent appends do not overwrite each other.
 */
import * as z from "zod";
import { defineShortcut, type FlagValues } from "../declare.ts";
import { parseValues, rangeText, sheetFlags, targetOf, valuesFlag, writeValues } from "./spreadsheet.ts";

const flags = { ...sheetFlags, values: valuesFlag };

function bodyOf(f: FlagValues<typeof flags>, sheetId: string) {
  return { valueRange: { range: rangeText(sheetId, targetOf(f).cells), values: parseValues(f.values) } };
}

const Appended = z.looseObject({
  tableRange: z.optional(z.string()),
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
  async run(ctx) {
    const appended = await writeValues(ctx, {
      method: "POST",
      rest: "/values_append",
      body: (sheetId) => bodyOf(ctx.flags, sheetId),
      response: Appended,
      planned: { updates: { updatedRange: "<range>", updatedRows: 0 } },
    });
    await ctx.out(appended.updates, { count: appended.updates.updatedRows });
  },
});
