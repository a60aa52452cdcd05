/**
 * What the sheets shortcuts share: which spreadsheet (`--url` or `--spreadsheet-token`), which range (`--range`
 * as `<sheetId>!A1:D10`, or `A1:D10`/`C2` with `--sheet-id`, or the sheet named by the URL, or the first
 * sheet), and the `--values` 2D array. When no sheet is named, the first one is looked up before the call.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { flag, type FlagSpec, type FlagValues, type Method, type ShortcutContext } from "../declare.ts";

export const sheetFlags = {
  url: flag.string("spreadsheet URL (\u2026/sheets/<token>?sheet=<sheetId>)"),
  "spreadsheet-token": flag.string("spreadsheet token (shtcn\u2026)"),
  range: flag.string("range: <sheetId>!A1:D10, or A1:D10 / C2 with --sheet-id (default: the whole sheet)"),
  "sheet-id": flag.string("sheet ID (default: the sheet in --url, else the first sheet)"),
};
type SheetFlags = FlagValues<typeof sheetFlags>;

/** `--values`, required: a JSON flag whose schema refuses absence, so the error says "is required". */
export const valuesFlag: FlagSpec<unknown> = flag.requiredJson(
  '2D array of cell values, e.g. \'[["Name","Qty"],["Pens",3]]\'',
  { input: ["file", "stdin"] },
);

const Cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const Values = z.array(z.array(Cell).check(z.minLength(1))).check(z.minLength(1));
export type Values = z.infer<typeof Values>;

export function parseValues(raw: unknown): Values {
  const parsed = Values.safeParse(raw);
  if (!parsed.success) {
    throw errors.validation(
      "--values must be a non-empty JSON array of rows, each a non-empty array of cells",
      {
        hint: `e.g. --values '[["Name","Qty"],["Pens",3]]' (cells: string, number, boolean or null)`,
      },
    );
  }
  return parsed.data;
}

export interface SheetTarget {
  token: string;
  /** undefined: the first sheet, looked up at run time. */
  sheetId?: string;
  /** The cells part of the range (`A1:D10`), if any. */
  cells?: string;
}

const CELLS = /^([A-Za-z]{1,3})(\d+)(?::([A-Za-z]{1,3})(\d+))?$/;

/** Which spreadsheet, sheet and cells the flags name; a `validation` error when they do not add up. */
export function targetOf(f: SheetFlags): SheetTarget {
  let token = f["spreadsheet-token"];
  let sheetFromUrl: string | undefined;
  if (f.url !== undefined) {
    let url: URL;
    try {
      url = new URL(f.url);
    } catch {
      throw errors.validation(`--url is not a URL: ${f.url}`);
    }
    const fromUrl = /\/sheets\/([A-Za-z0-9]+)/.exec(url.pathname)?.[1];
    if (!fromUrl) throw errors.validation(`--url is not a spreadsheet URL (\u2026/sheets/<token>): ${f.url}`);
    if (token !== undefined && token !== fromUrl) {
      throw errors.validation("--url and --spreadsheet-token name different spreadsheets; give one");
    }
    token = fromUrl;
    sheetFromUrl = url.searchParams.get("sheet") ?? undefined;
  }
  if (token === undefined) {
    throw errors.validation("specify the spreadsheet: --spreadsheet-token or --url", {
      hint: "e.g. --spreadsheet-token shtcnAbc123",
    });
  }
  let sheetId = f["sheet-id"] ?? sheetFromUrl;
  let cells: string | undefined;
  if (f.range !== undefined) {
    const bang = f.range.indexOf("!");
    const rangeSheet = bang >= 0 ? f.range.slice(0, bang) : undefined;
    cells = bang >= 0 ? f.range.slice(bang + 1) || undefined : f.range;
    if (rangeSheet !== undefined && sheetId !== undefined && rangeSheet !== sheetId) {
      throw errors.validation(`--range names sheet ${rangeSheet} but --sheet-id (or --url) names ${sheetId}`);
    }
    sheetId = rangeSheet ?? sheetId;
    if (cells !== undefined && !CELLS.test(cells)) {
      throw errors.validation(`--range: cannot read "${f.range}"`, {
        hint: "use A1:D10, C2 or <sheetId>!A1:D10",
      });
    }
  }
  return { token, sheetId, cells };
}

export function colIndex(letters: string): number {
  return [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
}

function colName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

/**
 * The cells a write covers: a full `A1:D10` is kept, a single start cell (or none: A1) is widened to the
 * size of the values, since the suite wants the whole target range.
 */
export function writeCells(cells: string | undefined, values: Values): string {
  const m = CELLS.exec(cells ?? "A1");
  if (!m) throw errors.validation(`--range: cannot read "${cells}"`);
  if (m[3]) return cells as string;
  const width = Math.max(...values.map((r) => r.length));
  const c0 = colIndex(m[1]);
  const r0 = Number(m[2]);
  return `${colName(c0)}${r0}:${colName(c0 + width - 1)}${r0 + values.length - 1}`;
}

export function rangeText(sheetId: string, cells: string | undefined): string {
  return cells ? `${sheetId}!${cells}` : sheetId;
}

export const spreadsheetPath = (token: string, rest: string) =>
  `/open-apis/sheets/v2/spreadsheets/${encodeURIComponent(token)}${rest}`;

const sheetsQueryPath = (token: string) =>
  `/open-apis/sheets/v3/spreadsheets/${encodeURIComponent(token)}/sheets/query`;

const SheetList = z.object({
  sheets: z.array(z.looseObject({ sheet_id: z.string(), index: z.optional(z.number()) })),
});

/** The sheet to act on: the named one, else the spreadsheet's first sheet. */
/** The sheet to use: the one named, else the first sheet of the spreadsheet (looked up). */
export async function resolveSheetId<F extends typeof sheetFlags>(
  ctx: ShortcutContext<F>,
  target: SheetTarget,
): Promise<string> {
  if (target.sheetId) return target.sheetId;
  const { sheets } = await ctx.api({
    method: "GET",
    path: sheetsQueryPath(target.token),
    description: "look up the first sheet (no sheet named)",
    response: SheetList,
    planned: { sheets: [{ sheet_id: "<first_sheet>" }] },
  });
  const first = [...sheets].sort((a, b) => (a.index ?? 0) - (b.index ?? 0))[0];
  if (!first) throw errors.notFound(`spreadsheet ${target.token} has no sheets`);
  return first.sheet_id;
}

/** A write of cell values (`+write`, `+append`): the sheet resolved, then one request with the body. */
export async function writeValues<F extends typeof sheetFlags, T>(
  ctx: ShortcutContext<F>,
  call: {
    method: Method;
    rest: string;
    body: (sheetId: string) => unknown;
    response: z.ZodMiniType<T>;
    planned: T;
  },
): Promise<T> {
  const target = targetOf(ctx.flags);
  const sheetId = await resolveSheetId(ctx, target);
  return await ctx.api({
    method: call.method,
    path: spreadsheetPath(target.token, call.rest),
    body: call.body(sheetId),
    response: call.response,
    planned: call.planned,
  });
}
