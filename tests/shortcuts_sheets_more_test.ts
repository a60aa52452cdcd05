/**
 * The sheets shortcuts beyond read/write/append, end to end against the emulator (the hand-written values
 * routes for cells, the generic handler for sheets v3 and the supplementary v2 structure entries): per
 * shortcut its main path, a dry run that sends nothing and fits the registry, and one bad input; then CSV.
 */
import assert from "node:assert/strict";
import { fromCsv, toCsv } from "../shortcuts/sheets/csv.ts";
import { fixtures } from "./helpers/emulator.ts";
import { type ShortcutCase, shortcutCaseTests } from "./helpers/shortcut_cases.ts";
import { withSuite } from "./helpers/suite_session.ts";

const TOKEN = fixtures.SHEETS.budget;
const SHEET = fixtures.SHEETS.budgetSheet;
const S = ["--spreadsheet-token", TOKEN, "--sheet-id", SHEET];
const V2 = `/sheets/v2/spreadsheets/${TOKEN}`;
const V3 = `/sheets/v3/spreadsheets/${TOKEN}/sheets/${SHEET}`;
const DIM = ["--dimension", "rows", "--start-index", "2", "--end-index", "4"];

const CASES: Record<string, ShortcutCase> = {
  "sheets +csv-get": {
    argv: [...S, "--range", "A1:B2"],
    sends: [`GET ${V2}/values/${SHEET}!A1:B2`],
    bad: ["--sheet-id", SHEET],
    says: /spreadsheet/,
  },
  "sheets +csv-put": {
    argv: [...S, "--range", "A1", "--csv", 'a,"b,c"\n1,2'],
    sends: [`PUT ${V2}/values`],
    bad: [...S, "--csv", '"open'],
    says: /unterminated/,
  },
  "sheets +cells-clear": {
    argv: [...S, "--range", "A2:B3", "--yes"],
    sends: [`PUT ${V2}/values`],
    bad: [...S, "--yes"],
    says: /full range/,
  },
  "sheets +workbook-create": {
    argv: ["--title", "Budget"],
    sends: ["POST /sheets/v3/spreadsheets"],
    bad: ["--title", "B", "--folder-token", "a/b"],
    says: /not a token/,
  },
  "sheets +workbook-info": {
    argv: ["--spreadsheet-token", TOKEN],
    sends: [`GET /sheets/v3/spreadsheets/${TOKEN}`],
    bad: [],
    says: /spreadsheet/,
  },
  "sheets +workbook-rename": {
    argv: ["--spreadsheet-token", TOKEN, "--title", "B2"],
    sends: [`PATCH /sheets/v3/spreadsheets/${TOKEN}`],
    bad: ["--spreadsheet-token", TOKEN],
    says: /--title/,
  },
  "sheets +sheet-list": {
    argv: ["--spreadsheet-token", TOKEN],
    sends: [`GET /sheets/v3/spreadsheets/${TOKEN}/sheets/query`],
    bad: [],
    says: /spreadsheet/,
  },
  "sheets +sheet-info": { argv: S, sends: [`GET ${V3}`], bad: ["--sheet-id", SHEET], says: /spreadsheet/ },
  "sheets +sheet-create": {
    argv: ["--spreadsheet-token", TOKEN, "--title", "March", "--index", "1"],
    sends: [`POST ${V2}/sheets_batch_update`],
    bad: ["--spreadsheet-token", TOKEN, "--title", "M", "--index", "-1"],
    says: /whole number/,
  },
  "sheets +sheet-copy": {
    argv: [...S, "--title", "Copy"],
    sends: [`POST ${V2}/sheets_batch_update`],
    bad: [...S, "--title", ""],
    says: /must not be empty/,
  },
  "sheets +sheet-rename": {
    argv: [...S, "--title", "April"],
    sends: [`POST ${V2}/sheets_batch_update`],
    bad: S,
    says: /--title/,
  },
  "sheets +sheet-hide": {
    argv: S,
    sends: [`POST ${V2}/sheets_batch_update`],
    bad: ["--sheet-id", SHEET],
    says: /spreadsheet/,
  },
  "sheets +sheet-unhide": {
    argv: S,
    sends: [`POST ${V2}/sheets_batch_update`],
    bad: ["--sheet-id", SHEET],
    says: /spreadsheet/,
  },
  "sheets +sheet-delete": {
    argv: [...S, "--yes"],
    sends: [`POST ${V2}/sheets_batch_update`],
    bad: ["--spreadsheet-token", TOKEN, "--yes"],
    says: /name the sheet/,
  },
  "sheets +dim-freeze": {
    argv: [...S, "--rows", "1"],
    sends: [`POST ${V2}/sheets_batch_update`],
    bad: S,
    says: /give --rows, --cols/,
  },
  "sheets +dim-insert": {
    argv: [...S, ...DIM, "--inherit-style", "BEFORE"],
    sends: [`POST ${V2}/insert_dimension_range`],
    bad: [...S, "--dimension", "rows", "--start-index", "4", "--end-index", "2"],
    says: /greater than/,
  },
  "sheets +dim-delete": {
    argv: [...S, ...DIM, "--yes"],
    sends: [`DELETE ${V2}/dimension_range`],
    bad: [...S, "--dimension", "pages", "--start-index", "0", "--end-index", "1", "--yes"],
    says: /must be one of/,
  },
  "sheets +dim-hide": {
    argv: [...S, ...DIM],
    sends: [`PUT ${V2}/dimension_range`],
    bad: [...S, "--dimension", "rows", "--start-index", "0", "--end-index", "9999"],
    says: /at most 5000/,
  },
  "sheets +dim-unhide": {
    argv: [...S, ...DIM],
    sends: [`PUT ${V2}/dimension_range`],
    bad: [...S, "--dimension", "rows"],
    says: /--start-index/,
  },
  "sheets +dim-resize": {
    argv: [...S, ...DIM, "--size", "40"],
    sends: [`PUT ${V2}/dimension_range`],
    bad: [...S, ...DIM, "--size", "0"],
    says: /whole number ≥ 1/,
  },
  "sheets +rows-resize": {
    argv: [...S, "--start-index", "0", "--end-index", "2", "--size", "30"],
    sends: [`PUT ${V2}/dimension_range`],
    bad: [...S, "--start-index", "0", "--end-index", "2"],
    says: /--size/,
  },
  "sheets +cols-resize": {
    argv: [...S, "--start-index", "1", "--end-index", "2", "--size", "120"],
    sends: [`PUT ${V2}/dimension_range`],
    bad: [...S, "--start-index", "1", "--end-index", "1", "--size", "9"],
    says: /greater than/,
  },
  "sheets +dim-move": {
    argv: [...S, ...DIM, "--to", "0"],
    sends: [`POST ${V3}/move_dimension`],
    bad: [...S, ...DIM, "--to", "x"],
    says: /whole number/,
  },
  "sheets +cells-merge": {
    argv: [...S, "--range", "A1:C1"],
    sends: [`POST ${V2}/merge_cells`],
    bad: S,
    says: /must name cells/,
  },
  "sheets +cells-unmerge": {
    argv: [...S, "--range", "A1:C1"],
    sends: [`POST ${V2}/unmerge_cells`],
    bad: S,
    says: /must name cells/,
  },
  "sheets +cells-set-style": {
    argv: [...S, "--range", "A1:D1", "--bold", "true", "--background-color", "#FFF2CC"],
    sends: [`PUT ${V2}/style`],
    bad: [...S, "--range", "A1", "--font-color", "red"],
    says: /#RRGGBB/,
  },
  "sheets +cells-search": {
    argv: [...S, "--find", "total"],
    sends: [`POST ${V3}/find`],
    bad: [...S, "--find", "(", "--regex"],
    says: /regular expression/,
  },
  "sheets +cells-replace": {
    argv: [...S, "--find", "2025", "--replacement", "2026"],
    sends: [`POST ${V3}/replace`],
    bad: [...S, "--find", "2025"],
    says: /--replacement/,
  },
  "sheets +filter-list": { argv: S, sends: [`GET ${V3}/filter`], bad: ["--url", "not a url"], says: /url/i },
  "sheets +filter-create": {
    argv: [
      ...S,
      "--range",
      "A1:E100",
      "--col",
      "E",
      "--condition",
      '{"filter_type":"multiValue","expected":["Done"]}',
    ],
    sends: [`POST ${V3}/filter`],
    bad: [...S, "--range", "A1:E100", "--col", "E", "--condition", '{"expected":["Done"]}'],
    says: /filter_type/,
  },
  "sheets +filter-update": {
    argv: [...S, "--col", "E", "--condition", '{"filter_type":"multiValue","expected":["Open"]}'],
    sends: [`PUT ${V3}/filter`],
    bad: [...S, "--col", "E"],
    says: /filter_type/,
  },
  "sheets +filter-delete": {
    argv: [...S, "--yes"],
    sends: [`DELETE ${V3}/filter`],
    bad: ["--yes"],
    says: /spreadsheet/,
  },
  "sheets +filter-view-list": {
    argv: S,
    sends: [`GET ${V3}/filter_views/query`],
    bad: ["--sheet-id", SHEET],
    says: /spreadsheet/,
  },
  "sheets +filter-view-create": {
    argv: [...S, "--range", "A1:E100", "--view-name", "Open"],
    sends: [`POST ${V3}/filter_views`],
    bad: [...S, "--view-name", "Open"],
    says: /must name cells/,
  },
  "sheets +filter-view-update": {
    argv: [...S, "--view-id", "pH9hbVcCXA", "--view-name", "Done"],
    sends: [`PATCH ${V3}/filter_views/pH9hbVcCXA`],
    bad: [...S, "--view-id", "pH9hbVcCXA"],
    says: /give --view-name or --range/,
  },
  "sheets +filter-view-delete": {
    argv: [...S, "--view-id", "pH9hbVcCXA", "--yes"],
    sends: [`DELETE ${V3}/filter_views/pH9hbVcCXA`],
    bad: [...S, "--yes"],
    says: /--view-id/,
  },
  "sheets +dropdown-get": {
    argv: [...S, "--range", "B2:B9"],
    sends: [`GET ${V2}/dataValidation`],
    bad: S,
    says: /must name cells/,
  },
  "sheets +dropdown-set": {
    argv: [...S, "--range", "B2:B9", "--options", "Open,Done", "--multiple"],
    sends: [`POST ${V2}/dataValidation`],
    bad: [...S, "--range", "B2:B9", "--options", ","],
    says: /1 to 500 choices/,
  },
  "sheets +cond-format-list": {
    argv: S,
    sends: [`GET ${V2}/sheets/condition_formats`],
    bad: ["--sheet-id", SHEET],
    says: /spreadsheet/,
  },
  "sheets +float-image-list": {
    argv: S,
    sends: [`GET ${V3}/float_images/query`],
    bad: ["--sheet-id", SHEET],
    says: /spreadsheet/,
  },
  "sheets +float-image-delete": {
    argv: [...S, "--float-image-id", "ye06SS14ph", "--yes"],
    sends: [`DELETE ${V3}/float_images/ye06SS14ph`],
    bad: [...S, "--yes"],
    says: /--float-image-id/,
  },
};

shortcutCaseTests(CASES, {
  // The filter view and floating image the cases change.
  setup: (emu) => {
    fixtures.seedPath(emu.db, `/open-apis${V3}/filter_views/pH9hbVcCXA`, { filter_view_id: "pH9hbVcCXA" });
    fixtures.seedPath(emu.db, `/open-apis${V3}/float_images/ye06SS14ph`, { float_image_id: "ye06SS14ph" });
  },
  coverage: {
    title:
      "every sheets shortcut but the values ones has a case here (those: tests/shortcuts_sheets_test.ts)",
    services: ["sheets"],
    elsewhere: ["sheets +cells-get", "sheets +cells-set", "sheets +append"],
  },
  asUser: true,
});

Deno.test("CSV: quoted fields, doubled quotes and CRLF round-trip", () => {
  const rows = [["a", "b,c", 'say "hi"'], ["1", "", "line\nbreak"]];
  assert.deepEqual(fromCsv(toCsv(rows)), rows);
  assert.deepEqual(fromCsv("x,y\r\n1,2\r\n"), [["x", "y"], ["1", "2"]]);
});

Deno.test("sheets +csv-put then +csv-get: the CSV written reads back; +cells-clear empties it", async () => {
  await withSuite(async (_emu, larkit) => {
    const put = await larkit([
      "sheets",
      "+csv-put",
      ...S,
      "--range",
      "F1",
      "--csv",
      'item,note\npens,"a, b"\n',
    ]);
    assert.equal(put.code, 0, put.stderr);
    const got = await larkit(["sheets", "+csv-get", ...S, "--range", "F1:G2"]);
    assert.equal(got.code, 0, got.stderr);
    assert.equal(got.json<{ data: { csv: string } }>().data.csv, 'item,note\npens,"a, b"\n');
    const clear = await larkit(["sheets", "+cells-clear", ...S, "--range", "F1:G2", "--yes"]);
    assert.equal(clear.code, 0, clear.stderr);
    const after = await larkit(["sheets", "+csv-get", ...S, "--range", "F1:G2"]);
    assert.doesNotMatch(after.json<{ data: { csv: string } }>().data.csv, /pens/);
  });
});
