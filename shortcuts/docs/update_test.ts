import assert from "node:assert/strict";
import { updateArgs } from "./update.ts";

const base = {
  doc: "d",
  markdown: undefined,
  "selection-with-ellipsis": undefined,
  "selection-by-title": undefined,
  "new-title": undefined,
  timeout: 60,
} as const;

Deno.test("update modes: whole-document modes need markdown only, range modes exactly one selection", () => {
  assert.deepEqual(updateArgs({ ...base, mode: "append", markdown: "x" }), {
    doc: "d",
    mode: "append",
    markdown: "x",
  });
  assert.deepEqual(updateArgs({ ...base, mode: "delete_range", "selection-by-title": "## A" }), {
    doc: "d",
    mode: "delete_range",
    selection_by_title: "## A",
  });
  assert.throws(() => updateArgs({ ...base, mode: "overwrite" }), /--mode overwrite needs --markdown/);
  assert.throws(
    () => updateArgs({ ...base, mode: "append", markdown: "x", "selection-by-title": "A" }),
    /takes no selection/,
  );
  assert.throws(() => updateArgs({ ...base, mode: "insert_after", markdown: "x" }), /needs --selection/);
  assert.throws(
    () =>
      updateArgs({
        ...base,
        mode: "replace_range",
        markdown: "x",
        "selection-by-title": "A",
        "selection-with-ellipsis": "b",
      }),
    /mutually exclusive/,
  );
  assert.throws(
    () => updateArgs({ ...base, mode: "delete_range", markdown: "x", "selection-by-title": "A" }),
    /no --markdown/,
  );
});
