/**
 * `sheets +cells-get` (alias `+read`): the values of a range (or of a whole sheet) as rows of cells.
 */
import { z } from "zod";
import { defineShortcut, flag } from "../declare.ts";
import { rangeText, resolveSheetId, sheetFlags, spreadsheetPath, targetOf } from "./spreadsheet.ts";

const RENDER_OPTIONS = ["ToString", "FormattedValue", "Formula", "UnformattedValue"] as const;

const ValueRange = z.object({
  valueRange: z.looseObject({ range: z.string(), values: z.array(z.array(z.unknown())).default([]) }),
});

const valuesPath = (token: string, range: string) =>
  spreadsheetPath(token, `/values/${encodeURIComponent(range)}`);

export const read = defineShortcut({
  service: "sheets",
  command: "+cells-get",
  aliases: ["+read"],
  description: "Read the cell values of a range",
  examples: [
    "larkit sheets +cells-get --spreadsheet-token shtcnAbc123 --range 0b12cd!A1:D10",
    'larkit sheets +cells-get --url "https://example.feishu.cn/sheets/shtcnAbc123?sheet=0b12cd" --jq ".data.values"',
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["sheets:spreadsheet:readonly"], bot: ["sheets:spreadsheet:readonly"] },
  hasFormat: false,
  flags: {
    ...sheetFlags,
    "value-render-option": flag.choice(RENDER_OPTIONS, "how cells are rendered", { default: "ToString" }),
  },
  async run(ctx) {
    const target = targetOf(ctx.flags);
    const sheetId = await resolveSheetId(ctx, target);
    const { valueRange } = await ctx.api({
      method: "GET",
      path: valuesPath(target.token, rangeText(sheetId, target.cells)),
      params: { valueRenderOption: ctx.flags["value-render-option"] },
      response: ValueRange,
      planned: { valueRange: { range: "<range>", values: [] } },
    });
    await ctx.out({ range: valueRange.range, values: valueRange.values }, {
      count: valueRange.values.length,
    });
  },
});
