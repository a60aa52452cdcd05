/**
 * `sheets +cells-get` (alias `+read`): the values of a range (or of a whole sheet) as rows of cells.
 */
import * as z from "zod";
import { renderTable } from "../../cli/output/formats/table.ts";
import { defineShortcut, flag } from "../declare.ts";
import { colIndex, rangeText, resolveSheetId, sheetFlags, spreadsheetPath, targetOf } from "./spreadsheet.ts";

const RENDER_OPTIONS = ["ToString", "FormattedValue", "Formula", "UnformattedValue"] as const;

const ValueRange = z.object({
  valueRange: z.looseObject({ range: z.string(), values: z._default(z.array(z.array(z.unknown())), []) }),
});

/** "A", ..., "Z", "AA": the letters of a 0-based column index. */
export function columnLetters(index: number): string {
  let n = index + 1;
  let out = "";
  while (n > 0) {
    out = String.fromCharCode(65 + (n - 1) % 26) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/**
 * The cells as rows headed by the sheet's column letters, counted from the range's first column
 * ("0b12cd!C2:E4" -> C, D, E), each with its row number as `#`: what `--format table`, `csv` and `ndjson` show
 * (rows of bare cells would each show as one JSON cell), and the grid `--format pretty` draws.
 */
export function gridRows(data: unknown): { letters: string[]; rows: Record<string, unknown>[] } {
  const { range, values } = data as { range: string; values: unknown[][] };
  const start = /!([A-Za-z]+)(\d+)?/.exec(range);
  const first = start ? colIndex(start[1]) : 0;
  const firstRow = start?.[2] ? Number(start[2]) : 1;
  const width = Math.max(0, ...values.map((r) => r.length));
  const letters = Array.from({ length: width }, (_, i) => columnLetters(first + i));
  const rows = values.map((row, r) => ({
    "#": firstRow + r,
    ...Object.fromEntries(letters.map((l, i) => [l, row[i] ?? ""])),
  }));
  return { letters, rows };
}

/** `--format pretty`: the grid, under its range. */
export function gridText(data: unknown, columns?: number): string {
  const { range, values } = data as { range: string; values: unknown[][] };
  if (values.length === 0) return `${range}: no values\n`;
  const { letters, rows } = gridRows(data);
  return `${range}\n` + renderTable(rows, columns, ["#", ...letters]);
}

const valuesPath = (token: string, range: string) =>
  spreadsheetPath(token, `/values/${encodeURIComponent(range)}`);

export const read = defineShortcut({
  service: "sheets",
  command: "+cells-get",
  aliases: ["+read"],
  description: "Read the cell values of a range",
  examples: [
    "larkit sheets +cells-get --spreadsheet-token shtcnAbc123 --range 0b12cd!A1:D10",
    "larkit sheets +cells-get --spreadsheet-token shtcnAbc123 --range 0b12cd!A1:D10 --format pretty",
    'larkit sheets +cells-get --url "https://example.feishu.cn/sheets/shtcnAbc123?sheet=0b12cd" --jq ".data.values"',
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["sheets:spreadsheet:readonly"], bot: ["sheets:spreadsheet:readonly"] },
  hasFormat: true,
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
    await ctx.outFormat(
      { range: valueRange.range, values: valueRange.values },
      {
        count: valueRange.values.length,
      },
      gridText,
      (data) => gridRows(data).rows,
    );
  },
});
