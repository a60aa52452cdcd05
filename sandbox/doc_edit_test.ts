import assert from "node:assert/strict";
import { applyUpdate } from "./doc_edit.ts";

const DOC = "# Plan\n\n## Goals\n\nShip it.\n\n## Risks\n\nNone yet.\n";

Deno.test("append and overwrite", () => {
  assert.deepEqual(applyUpdate("a\n", { mode: "append", markdown: "b\n" }), { ok: true, markdown: "a\nb\n" });
  assert.deepEqual(applyUpdate("a", { mode: "overwrite", markdown: "b" }), { ok: true, markdown: "b" });
});

Deno.test("selection_with_ellipsis spans start...end; replace, insert, delete", () => {
  const sel = { selection_with_ellipsis: "## Goals...it." };
  assert.deepEqual(applyUpdate(DOC, { mode: "replace_range", markdown: "## Aims\n\nLand it.", ...sel }), {
    ok: true,
    markdown: "# Plan\n\n## Aims\n\nLand it.\n\n## Risks\n\nNone yet.\n",
  });
  assert.deepEqual(
    applyUpdate(DOC, { mode: "insert_before", markdown: "X\n", selection_with_ellipsis: "## Risks" }),
    {
      ok: true,
      markdown: "# Plan\n\n## Goals\n\nShip it.\n\nX\n## Risks\n\nNone yet.\n",
    },
  );
  assert.deepEqual(applyUpdate(DOC, { mode: "delete_range", ...sel }), {
    ok: true,
    markdown: "# Plan\n\n\n\n## Risks\n\nNone yet.\n",
  });
});

Deno.test("selection_by_title covers a heading's section up to the next same-level heading", () => {
  assert.deepEqual(
    applyUpdate(DOC, {
      mode: "insert_after",
      markdown: "## Budget\n\nSmall.\n\n",
      selection_by_title: "Goals",
    }),
    {
      ok: true,
      markdown: "# Plan\n\n## Goals\n\nShip it.\n\n## Budget\n\nSmall.\n\n## Risks\n\nNone yet.\n",
    },
  );
});

Deno.test("replace_all and missing selections", () => {
  assert.deepEqual(
    applyUpdate("a b a", { mode: "replace_all", markdown: "c", selection_with_ellipsis: "a" }),
    {
      ok: true,
      markdown: "c b c",
    },
  );
  assert.equal(
    applyUpdate(DOC, { mode: "replace_range", markdown: "x", selection_with_ellipsis: "nope" }).ok,
    false,
  );
  assert.equal(applyUpdate(DOC, { mode: "delete_range" }).ok, false);
});
