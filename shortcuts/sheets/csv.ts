/**
 * Cells as CSV (`+csv-get`, `+csv-put`) and clearing a range (`+cells-clear`). CSV follows RFC 4180: fields
 * with a comma, quote or line break are quoted, quotes doubled.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import {
  rangeText,
  resolveSheetId,
  sheetFlags,
  spreadsheetPath,
  targetOf,
  type Values,
  writeCells,
} from "./spreadsheet.ts";

const S = "--spreadsheet-token shtcnAbc123";
const ValueRange = z.object({
  valueRange: z.looseObject({ range: z.string(), values: z._default(z.array(z.array(z.unknown())), []) }),
});
const Written = z.looseObject({ updatedRange: z.optional(z.string()), updatedCells: z.optional(z.number()) });

/** Rows of cells as CSV text. */
export function toCsv(rows: unknown[][]): string {
  const cell = (v: unknown) => {
    const s = v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return rows.map((r) => r.map(cell).join(",")).join("\n") + (rows.length ? "\n" : "");
}

/** CSV text as rows of strings; an unterminated quote is an error, not a silently merged row. */
export function fromCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"', i++);
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") (row.push(field), field = "");
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field), rows.push(row), row = [], field = "";
    } else field += c;
  }
  if (quoted) throw errors.validation("--csv has an unterminated quoted field");
  if (field !== "" || row.length) (row.push(field), rows.push(row));
  return rows;
}

export const csvGet = defineShortcut({
  service: "sheets",
  command: "+csv-get",
  description: "Read a range as CSV text",
  examples: [
    `larkit sheets +csv-get ${S} --range 0b12cd!A1:D20`,
    `larkit sheets +csv-get ${S} --jq .data.csv`,
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["sheets:spreadsheet:read"], bot: ["sheets:spreadsheet:read"] },
  hasFormat: true,
  flags: sheetFlags,
  async run(ctx) {
    const target = targetOf(ctx.flags);
    const sheetId = await resolveSheetId(ctx, target);
    const { valueRange } = await ctx.api({
      method: "GET",
      path: spreadsheetPath(target.token, `/values/${encodeURIComponent(rangeText(sheetId, target.cells))}`),
      params: { valueRenderOption: "FormattedValue" },
      response: ValueRange,
      planned: { valueRange: { range: "<range>", values: [] } },
    });
    await ctx.outFormat({ range: valueRange.range, csv: toCsv(valueRange.values) }, {
      count: valueRange.values.length,
    });
  },
});

export const csvPut = defineShortcut({
  service: "sheets",
  command: "+csv-put",
  description: "Write CSV text into a sheet from a start cell (overwrites; at most 5000 rows per call)",
  examples: [
    `larkit sheets +csv-put ${S} --sheet-id 0b12cd --range A1 --csv 'Item,Qty'`,
    `larkit sheets +csv-put ${S} --csv @data.csv`,
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["sheets:spreadsheet:write_only"], bot: ["sheets:spreadsheet:write_only"] },
  hasFormat: false,
  flags: { ...sheetFlags, csv: flag.requiredString("CSV text", { input: ["file", "stdin"] }) },
  async run(ctx) {
    const rows: Values = fromCsv(ctx.flags.csv);
    if (!rows.length) throw errors.validation("--csv has no rows");
    if (rows.length > 5000) throw errors.validation("at most 5000 rows per call (the suite's limit)");
    const width = Math.max(...rows.map((r) => r.length));
    const padded = rows.map((r) => [...r, ...Array(width - r.length).fill("")]);
    const target = targetOf(ctx.flags);
    const sheetId = await resolveSheetId(ctx, target);
    const written = await ctx.api({
      method: "PUT",
      path: spreadsheetPath(target.token, "/values"),
      body: { valueRange: { range: rangeText(sheetId, writeCells(target.cells, padded)), values: padded } },
      response: Written,
      planned: { updatedRange: "<range>", updatedCells: 0 },
    });
    await ctx.out({ rows: padded.length, columns: width, ...written });
  },
});

const CELLS = /^([A-Za-z]{1,3})(\d+):([A-Za-z]{1,3})(\d+)$/;
const colIndex = (c: string) => [...c.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);

export const cellsClear = defineShortcut({
  service: "sheets",
  command: "+cells-clear",
  description: "Clear the values of a range (formats stay; asks for confirmation)",
  examples: [`larkit sheets +cells-clear ${S} --range 0b12cd!A2:D50 --yes`],
  risk: "high-risk-write",
  authTypes: ["user", "bot"],
  scopes: { user: ["sheets:spreadsheet:write_only"], bot: ["sheets:spreadsheet:write_only"] },
  hasFormat: false,
  flags: sheetFlags,
  async run(ctx) {
    const target = targetOf(ctx.flags);
    const m = CELLS.exec(target.cells ?? "");
    if (!m) {
      throw errors.validation("--range must be a full range such as A2:D50 (a whole sheet is not cleared)");
    }
    const rows = Number(m[4]) - Number(m[2]) + 1;
    const cols = colIndex(m[3]) - colIndex(m[1]) + 1;
    if (rows < 1 || cols < 1) throw errors.validation("--range ends before it starts");
    if (rows * cols > 50_000) throw errors.validation("at most 50000 cells per call; clear in parts");
    const sheetId = await resolveSheetId(ctx, target);
    // The v2 API has no clear: writing empty strings over the range is the same for values.
    const values = Array.from({ length: rows }, () => Array(cols).fill(""));
    const written = await ctx.api({
      method: "PUT",
      path: spreadsheetPath(target.token, "/values"),
      body: { valueRange: { range: rangeText(sheetId, target.cells), values } },
      response: Written,
      planned: { updatedRange: "<range>", updatedCells: 0 },
    });
    await ctx.out({ cleared: rows * cols, ...written });
  },
});
