/**
 * Sheets shortcuts end to end against the emulator's seeded budget spreadsheet (sheet 0b12cd, A1:C4).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fixtures } from "./helpers/emulator.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

const TOKEN = fixtures.SHEETS.budget;
const SHEET = fixtures.SHEETS.budgetSheet;
const SS = ["--spreadsheet-token", TOKEN];

interface Read {
  data: { range: string; values: unknown[][] };
  meta: { count: number };
}

Deno.test("sheets +cells-get --format table|csv|ndjson: the grid's cells under the sheet's column letters", async () => {
  await withSuite(async (_emu, larkit) => {
    const range = ["--range", `${SHEET}!B1:C2`];
    const table = await larkit(["sheets", "+cells-get", ...SS, ...range, "--format", "table"]);
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.trimEnd().split("\n");
    assert.match(lines[0], /^#\s+B\s+C$/);
    assert.doesNotMatch(table.stdout, /\[/, "no row is shown as a JSON array");
    const csv = await larkit(["sheets", "+cells-get", ...SS, ...range, "--format", "csv"]);
    const csvLines = csv.stdout.trimEnd().split(/\r?\n/);
    assert.equal(csvLines[0], "#,B,C");
    assert.equal(csvLines.length, 3);
    const ndjson = await larkit(["sheets", "+cells-get", ...SS, ...range, "--format", "ndjson"]);
    const rows = ndjson.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(rows.map((r) => Object.keys(r)), [["#", "B", "C"], ["#", "B", "C"]]);
    assert.deepEqual(rows.map((r) => r["#"]), [1, 2]);
  });
});

Deno.test("sheets +read: a range, a URL naming the sheet, and the first sheet looked up when none is named", async () => {
  await withSuite(async (emu, larkit) => {
    const r = await larkit(["sheets", "+read", ...SS, "--range", `${SHEET}!A1:B2`]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json<Read>().data, {
      range: `${SHEET}!A1:B2`,
      values: [["Item", "Q1"], ["Cloud", 1200]],
    });
    assert.deepEqual(r.json<Read>().meta, { count: 2 });

    const byUrl = await larkit([
      "sheets",
      "+read",
      "--url",
      `https://x.feishu.cn/sheets/${TOKEN}?sheet=${SHEET}`,
      "--range",
      "C4",
    ]);
    assert.deepEqual(byUrl.json<Read>().data.values, [[950]]);

    emu.clearRequests();
    const whole = await larkit(["sheets", "+read", ...SS, "--as", "user"], { asUser: true });
    assert.equal(whole.json<Read>().data.range, `${SHEET}!A1:C4`);
    assert.deepEqual(suiteCalls(emu).map((c) => c.path), [
      `/open-apis/sheets/v3/spreadsheets/${TOKEN}/sheets/query`,
      `/open-apis/sheets/v2/spreadsheets/${TOKEN}/values/${SHEET}`,
    ]);
  });
});

Deno.test("sheets +write widens a start cell to the values; +append adds rows after the last used row", async () => {
  await withSuite(async (_emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeTextFile(join(cwd, "rows.json"), '[["Q3","Q4"],[1400,1500]]');
    const w = await larkit([
      "sheets",
      "+write",
      ...SS,
      "--sheet-id",
      SHEET,
      "--range",
      "D1",
      "--values",
      "@rows.json",
    ], {
      cwd,
    });
    assert.equal(w.code, 0, w.stderr);
    assert.equal(
      w.json<{ data: { updatedRange: string; updatedCells: number } }>().data.updatedRange,
      `${SHEET}!D1:E2`,
    );

    const a = await larkit([
      "sheets",
      "+append",
      ...SS,
      "--sheet-id",
      SHEET,
      "--values",
      '[["Office",300,310]]',
    ]);
    assert.equal(a.code, 0, a.stderr);
    const appended = a.json<{ data: { updatedRange: string }; meta: { count: number } }>();
    assert.deepEqual([appended.data.updatedRange, appended.meta.count], [`${SHEET}!A5:C5`, 1]);

    const back = await larkit(["sheets", "+read", ...SS, "--range", `${SHEET}!A1:E5`]);
    const values = back.json<Read>().data.values;
    assert.deepEqual(values[0], ["Item", "Q1", "Q2", "Q3", "Q4"]);
    assert.deepEqual(values[1], ["Cloud", 1200, 1350, 1400, 1500]);
    assert.deepEqual(values[4], ["Office", 300, 310, null, null]);
  });
});

Deno.test("sheets dry-runs show the lookup step and the write, and send nothing", async () => {
  await withSuite(async (emu, larkit) => {
    const w = await larkit([
      "sheets",
      "+write",
      ...SS,
      "--range",
      "B2",
      "--values",
      "[[1],[2]]",
      "--dry-run",
    ]);
    assert.equal(w.code, 0, w.stderr);
    const api = w.json<{ data: { api: { method: string; url: string; body?: unknown }[] } }>().data.api;
    assert.equal(api[0].url, `${emu.url}/open-apis/sheets/v3/spreadsheets/${TOKEN}/sheets/query`);
    assert.equal(api[1].method, "PUT");
    assert.deepEqual(api[1].body, { valueRange: { range: "<first_sheet>!B2:B3", values: [[1], [2]] } });
    const r = await larkit(["sheets", "+read", ...SS, "--range", `${SHEET}!A1:A2`, "--dry-run"]);
    assert.equal(r.json<{ data: { api: unknown[] } }>().data.api.length, 1);
    const a = await larkit([
      "sheets",
      "+append",
      ...SS,
      "--sheet-id",
      SHEET,
      "--values",
      '[["x"]]',
      "--dry-run",
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.deepEqual(emu.requests(), []);
  });
});

Deno.test("sheets bad input: values not a 2D array, no spreadsheet, a bad range, a sheet conflict", async () => {
  await withSuite(async (emu, larkit) => {
    const flat = await larkit(["sheets", "+write", ...SS, "--values", "[1,2]"]);
    assert.equal(flat.code, 2);
    assert.match(flat.errorJson().error.message, /--values must be a non-empty JSON array of rows/);
    const notJson = await larkit(["sheets", "+append", ...SS, "--values", "[[1,"]);
    assert.match(notJson.errorJson().error.message, /^--values: invalid JSON/);
    const noValues = await larkit(["sheets", "+append", ...SS]);
    assert.equal(noValues.errorJson().error.message, "--values is required");
    const none = await larkit(["sheets", "+read"]);
    assert.match(none.errorJson().error.message, /specify the spreadsheet/);
    const badRange = await larkit(["sheets", "+read", ...SS, "--range", "A1-B2"]);
    assert.match(badRange.errorJson().error.message, /--range: cannot read "A1-B2"/);
    const conflict = await larkit(["sheets", "+read", ...SS, "--sheet-id", "s1", "--range", "s2!A1"]);
    assert.match(conflict.errorJson().error.message, /--range names sheet s2 but --sheet-id/);
    assert.deepEqual(suiteCalls(emu), []);
    const unknownSheet = await larkit(["sheets", "+read", ...SS, "--range", "nosheet!A1"]);
    assert.equal(unknownSheet.code, 1);
    assert.deepEqual([unknownSheet.errorJson().error.type, unknownSheet.errorJson().error.subtype], [
      "api",
      "api_error",
    ]);
  });
});
