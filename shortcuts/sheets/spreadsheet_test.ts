import assert from "node:assert/strict";
import { targetOf, writeCells } from "./spreadsheet.ts";

const none = { url: undefined, "spreadsheet-token": undefined, range: undefined, "sheet-id": undefined };

Deno.test("a start cell (or none) is widened to the size of the values; a full range is kept", () => {
  assert.equal(writeCells("C2", [[1, 2], [3, 4], [5, 6]]), "C2:D4");
  assert.equal(writeCells(undefined, [["a"]]), "A1:A1");
  assert.equal(writeCells("Z1", [[1, 2, 3]]), "Z1:AB1");
  assert.equal(writeCells("A1:B9", [[1]]), "A1:B9");
});

Deno.test("the target comes from the token or the URL, the range, and --sheet-id", () => {
  assert.deepEqual(targetOf({ ...none, "spreadsheet-token": "sht1", range: "s1!A1:B2" }), {
    token: "sht1",
    sheetId: "s1",
    cells: "A1:B2",
  });
  assert.deepEqual(targetOf({ ...none, url: "https://x.feishu.cn/sheets/sht2?sheet=s9", range: "C3" }), {
    token: "sht2",
    sheetId: "s9",
    cells: "C3",
  });
  assert.deepEqual(targetOf({ ...none, "spreadsheet-token": "sht1" }), {
    token: "sht1",
    sheetId: undefined,
    cells: undefined,
  });
  assert.throws(() => targetOf({ ...none, url: "https://x.feishu.cn/docx/abc" }), /not a spreadsheet URL/);
  assert.throws(
    () => targetOf({ ...none, url: "https://x.feishu.cn/sheets/a", "spreadsheet-token": "b" }),
    /different spreadsheets/,
  );
});
