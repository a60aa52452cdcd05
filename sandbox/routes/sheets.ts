/**
 * Sheets v2 values (read a range, write a range, append rows) and v3 sheet listing. Ranges use the suite's
 * `<sheetId>!A1:C4` notation; a bare `<sheetId>` means the sheet's used area.
 */
import * as z from "zod";
import { all, newHex, one, run, tx } from "../db.ts";
import { seedObject } from "../fixtures.ts";
import { ok, raise } from "../reply.ts";
import { type CallerCtx, jsonBody, type Route } from "../router.ts";
import { SHEETS_READ, SHEETS_WRITE } from "../scopes.ts";

type Cell = string | number | boolean | null;

interface Range {
  sheetId: string;
  /** Inclusive zero-based bounds; undefined = open (to the used edge). */
  r0: number;
  c0: number;
  r1?: number;
  c1?: number;
}

function colIndex(letters: string): number {
  return [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
}

export function colName(index: number): string {
  let n = index + 1;
  let s = "";
  while (n > 0) {
    const m = (n - 1) % 26;
    s = String.fromCharCode(65 + m) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

function parseRange(text: string): Range {
  const [sheetId, cells] = text.split("!");
  if (!sheetId) raise(400, 90202, `wrong range: ${text}`);
  if (!cells) return { sheetId, r0: 0, c0: 0 };
  const m = /^([A-Za-z]+)(\d*)(?::([A-Za-z]+)(\d*))?$/.exec(cells);
  if (!m) raise(400, 90202, `wrong range: ${text}`);
  const [, ca, ra, cb, rb] = m;
  return {
    sheetId,
    c0: colIndex(ca),
    r0: ra ? Number(ra) - 1 : 0,
    c1: cb ? colIndex(cb) : ra ? colIndex(ca) : undefined,
    r1: rb ? Number(rb) - 1 : cb ? undefined : ra ? Number(ra) - 1 : undefined,
  };
}

function a1(sheetId: string, r0: number, c0: number, r1: number, c1: number): string {
  return `${sheetId}!${colName(c0)}${r0 + 1}:${colName(c1)}${r1 + 1}`;
}

function checkSheet(ctx: CallerCtx, sheetId: string): void {
  const token = ctx.params.spreadsheet_token;
  if (!one(ctx.st.db, "SELECT 1 AS x FROM sheet_tabs WHERE spreadsheet_token = ?", token)) {
    raise(404, 1310214, `spreadsheet not found: ${token}`);
  }
  if (
    !one(
      ctx.st.db,
      "SELECT 1 AS x FROM sheet_tabs WHERE spreadsheet_token = ? AND sheet_id = ?",
      token,
      sheetId,
    )
  ) {
    raise(400, 90215, `sheet not found: ${sheetId}`);
  }
}

function cells(ctx: CallerCtx, sheetId: string) {
  return all<{ row: number; col: number; value: string }>(
    ctx.st.db,
    "SELECT row, col, value FROM sheet_cells WHERE spreadsheet_token = ? AND sheet_id = ?",
    ctx.params.spreadsheet_token,
    sheetId,
  );
}

function revision(ctx: CallerCtx): number {
  return (one<{ n: number }>(
    ctx.st.db,
    "SELECT COUNT(*) AS n FROM sheet_cells WHERE spreadsheet_token = ?",
    ctx.params.spreadsheet_token,
  )
    ?.n ?? 0) + 1;
}

function writeValues(ctx: CallerCtx, sheetId: string, r0: number, c0: number, values: Cell[][]) {
  tx(ctx.st.db, () => {
    values.forEach((row, r) =>
      row.forEach((v, c) =>
        run(
          ctx.st.db,
          `INSERT INTO sheet_cells (spreadsheet_token, sheet_id, row, col, value) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT(spreadsheet_token, sheet_id, row, col) DO UPDATE SET value = excluded.value`,
          ctx.params.spreadsheet_token,
          sheetId,
          r0 + r,
          c0 + c,
          JSON.stringify(v),
        )
      )
    );
  });
}

const ValueRange = z.object({
  valueRange: z.object({
    range: z.string().check(z.minLength(1)),
    values: z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()]))).check(z.minLength(1)),
  }),
});

function readRange(ctx: CallerCtx) {
  const range = parseRange(ctx.params.range);
  checkSheet(ctx, range.sheetId);
  const all = cells(ctx, range.sheetId);
  const r1 = range.r1 ?? Math.max(range.r0, ...all.map((c) => c.row));
  const c1 = range.c1 ?? Math.max(range.c0, ...all.map((c) => c.col));
  const values: Cell[][] = [];
  for (let r = range.r0; r <= r1; r++) values.push(new Array(c1 - range.c0 + 1).fill(null));
  for (const c of all) {
    if (c.row >= range.r0 && c.row <= r1 && c.col >= range.c0 && c.col <= c1) {
      values[c.row - range.r0][c.col - range.c0] = JSON.parse(c.value);
    }
  }
  const rev = revision(ctx);
  return ok({
    revision: rev,
    spreadsheetToken: ctx.params.spreadsheet_token,
    valueRange: {
      majorDimension: "ROWS",
      range: a1(range.sheetId, range.r0, range.c0, r1, c1),
      revision: rev,
      values,
    },
  });
}

function writeRange(ctx: CallerCtx) {
  const { valueRange } = jsonBody(ctx, ValueRange);
  const range = parseRange(valueRange.range);
  checkSheet(ctx, range.sheetId);
  writeValues(ctx, range.sheetId, range.r0, range.c0, valueRange.values);
  const cols = Math.max(...valueRange.values.map((r) => r.length));
  return ok({
    revision: revision(ctx),
    spreadsheetToken: ctx.params.spreadsheet_token,
    updatedRange: a1(
      range.sheetId,
      range.r0,
      range.c0,
      range.r0 + valueRange.values.length - 1,
      range.c0 + cols - 1,
    ),
    updatedRows: valueRange.values.length,
    updatedColumns: cols,
    updatedCells: valueRange.values.reduce((n, r) => n + r.length, 0),
  });
}

function appendRows(ctx: CallerCtx) {
  const { valueRange } = jsonBody(ctx, ValueRange);
  const range = parseRange(valueRange.range);
  checkSheet(ctx, range.sheetId);
  const used = cells(ctx, range.sheetId).filter((c) =>
    c.col >= range.c0 && (range.c1 === undefined || c.col <= range.c1)
  );
  const startRow = Math.max(range.r0, used.length ? Math.max(...used.map((c) => c.row)) + 1 : range.r0);
  writeValues(ctx, range.sheetId, startRow, range.c0, valueRange.values);
  const cols = Math.max(...valueRange.values.map((r) => r.length));
  const rev = revision(ctx);
  const updatedRange = a1(
    range.sheetId,
    startRow,
    range.c0,
    startRow + valueRange.values.length - 1,
    range.c0 + cols - 1,
  );
  return ok({
    revision: rev,
    spreadsheetToken: ctx.params.spreadsheet_token,
    tableRange: a1(
      range.sheetId,
      range.r0,
      range.c0,
      startRow + valueRange.values.length - 1,
      range.c0 + cols - 1,
    ),
    updates: {
      spreadsheetToken: ctx.params.spreadsheet_token,
      updatedRange,
      updatedRows: valueRange.values.length,
      updatedColumns: cols,
      updatedCells: valueRange.values.reduce((n, r) => n + r.length, 0),
      revision: rev,
    },
  });
}

const V2 = "/open-apis/sheets/v2/spreadsheets/:spreadsheet_token";

export const sheetsRoutes: Route[] = [
  { method: "GET", path: `${V2}/values/:range`, auth: "token", scopes: SHEETS_READ, handle: readRange },
  { method: "PUT", path: `${V2}/values`, auth: "token", scopes: SHEETS_WRITE, handle: writeRange },
  { method: "POST", path: `${V2}/values_append`, auth: "token", scopes: SHEETS_WRITE, handle: appendRows },
  {
    method: "GET",
    path: "/open-apis/sheets/v3/spreadsheets/:spreadsheet_token/sheets/query",
    auth: "token",
    scopes: SHEETS_READ,
    handle(ctx) {
      const tabs = tabsOf(ctx);
      return ok({ sheets: tabs.map((t) => sheetJson(ctx, t)) });
    },
  },
  {
    method: "GET",
    path: "/open-apis/sheets/v3/spreadsheets/:spreadsheet_token/sheets/:sheet_id",
    auth: "token",
    scopes: SHEETS_READ,
    handle(ctx) {
      const tabs = tabsOf(ctx);
      const tab = tabs.find((t) => t.sheet_id === ctx.params.sheet_id) ??
        raise(400, 90215, `sheet not found: ${ctx.params.sheet_id}`);
      return ok({ sheet: sheetJson(ctx, tab) });
    },
  },
  {
    // A new spreadsheet has one empty sheet, so the values routes (`+append`, `+write`) take it at once.
    method: "POST",
    path: "/open-apis/sheets/v3/spreadsheets",
    auth: "token",
    scopes: ["sheets:spreadsheet:create", ...SHEETS_WRITE],
    handle(ctx) {
      const body = jsonBody(
        ctx,
        z.object({ title: z._default(z.string(), ""), folder_token: z.optional(z.string()) }),
      );
      const token = `shtcn${newHex(ctx.st.db, "spreadsheet", 22)}`;
      const sheetId = newHex(ctx.st.db, "sheet_tab", 6);
      const spreadsheet = {
        spreadsheet_token: token,
        title: body.title,
        url: `${ctx.st.origin}/sheets/${token}`,
        ...(body.folder_token ? { folder_token: body.folder_token } : {}),
      };
      tx(ctx.st.db, () => {
        run(
          ctx.st.db,
          "INSERT INTO sheet_tabs (spreadsheet_token, sheet_id, title, idx) VALUES (?, ?, 'Sheet1', 0)",
          token,
          sheetId,
        );
        // What `GET .../spreadsheets/{token}` (the generic handler) answers.
        seedObject(ctx.st.db, "/open-apis/sheets/v3/spreadsheets", token, {
          ...spreadsheet,
          token,
          owner_id: ctx.caller.openId,
        });
      });
      return ok({ spreadsheet });
    },
  },
];

interface Tab {
  sheet_id: string;
  title: string;
  idx: number;
}

/** The spreadsheet's tabs in order; a spreadsheet has at least one, so none means there is no such spreadsheet. */
function tabsOf(ctx: CallerCtx): Tab[] {
  const tabs = all<Tab>(
    ctx.st.db,
    "SELECT sheet_id, title, idx FROM sheet_tabs WHERE spreadsheet_token = ? ORDER BY idx",
    ctx.params.spreadsheet_token,
  );
  if (tabs.length === 0) raise(404, 1310214, `spreadsheet not found: ${ctx.params.spreadsheet_token}`);
  return tabs;
}

function sheetJson(ctx: CallerCtx, t: Tab) {
  const used = cells(ctx, t.sheet_id);
  return {
    sheet_id: t.sheet_id,
    title: t.title,
    index: t.idx,
    hidden: false,
    resource_type: "sheet",
    grid_properties: {
      frozen_row_count: 0,
      frozen_column_count: 0,
      row_count: Math.max(200, ...used.map((c) => c.row + 1)),
      column_count: Math.max(20, ...used.map((c) => c.col + 1)),
    },
  };
}
