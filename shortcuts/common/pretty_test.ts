import assert from "node:assert/strict";
import { loadCellWidths } from "../../cli/output/formats/cells.ts";
import { renderTable } from "../../cli/output/formats/table.ts";
import { tableOr } from "./pretty.ts";

await loadCellWidths();

Deno.test("tableOr: an empty list is the sentence, not a bare (empty) table", () => {
  assert.equal(tableOr("No events found.\n", ["event_id"])([], 80), "No events found.\n");
});

Deno.test("tableOr: a list is the table in the given column order", () => {
  const rows = [{ summary: "Standup", event_id: "e_1", extra: "x" }];
  const text = tableOr("No events found.\n", ["event_id", "summary"])(rows, 80);
  assert.equal(text, renderTable(rows, 80, ["event_id", "summary"]));
  assert.match(text.split("\n")[0], /^event_id\s+summary\s*$/);
});
