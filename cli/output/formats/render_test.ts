import assert from "node:assert/strict";
import { LarkitError } from "../errors.ts";
import { displayWidth, loadCellWidths, sanitizeCell, truncateCell } from "./cells.ts";
import { parseFormat } from "./names.ts";
import { createItemWriter, renderDocument } from "./render.ts";
import { extractItems, flattenRow } from "./rows.ts";

// Rendering is synchronous; the writers load the width measure first, as these tests do here.
await loadCellWidths();

const env = (data: unknown) => ({ ok: true as const, identity: "user" as const, data });

Deno.test("extractItems follows the priority list, then the first array key by name", () => {
  assert.deepEqual(extractItems([1, 2]), [1, 2]);
  assert.deepEqual(extractItems({ data: { zeta: [1], items: [2], has_more: false } }), [2]);
  assert.deepEqual(extractItems({ b: [1], a: [2] }), [2]);
  assert.deepEqual(extractItems({ data: { freebusy_list: [3] } }), [3]);
  assert.equal(extractItems({ data: { id: 1 } }), undefined);
});

Deno.test("flattenRow: dotted keys to depth 3, sorted, arrays and deeper objects as JSON", () => {
  const row = flattenRow({ b: 1, a: { y: { z: { deep: true } }, x: [1, 2] }, c: null });
  assert.deepEqual([...row], [["a.x", "[1,2]"], ["a.y.z", '{"deep":true}'], ["b", "1"], ["c", ""]]);
});

Deno.test("cells: width counts CJK as 2, truncation ends in …, controls and bidi overrides are escaped, not stripped", () => {
  assert.equal(displayWidth("会议ab"), 6);
  assert.equal(truncateCell("abcdefgh", 5), "abcd…");
  assert.equal(truncateCell("会议会议", 5), "会议…");
  assert.equal(
    sanitizeCell("a\x1b[31mred\x1b[0m\nb\u202ec\x07\x1b]0;t\x07\r\n\x9b"),
    "a\\u001b[31mred\\u001b[0m b\\u202ec\\u0007\\u001b]0;t\\u0007 \\u009b",
  );
});

Deno.test("table: a cell holding ESC, an OSC title, BEL and U+202E shows their escapes, and columns align on them", () => {
  const evil = "\x1b]0;owned\x07title\u202etxt\x1b[31m";
  const shown = "\\u001b]0;owned\\u0007title\\u202etxt\\u001b[31m";
  const text = renderDocument(env([{ summary: evil, id: "e1" }, { summary: "ok", id: "e22" }]), "table");
  const w = shown.length;
  assert.equal(
    text,
    `id   summary\n───  ${"─".repeat(w)}\ne1   ${shown}\ne22  ok\n`,
  );
  // A record table pads its keys to the escaped width too.
  assert.equal(
    renderDocument(env({ [`k\u202e`]: "v", key: "\x07" }), "table"),
    "key      \\u0007\nk\\u202e  v\n",
  );
});

Deno.test("table: aligned columns, separator, CJK-aware padding", () => {
  const text = renderDocument(
    env([{ id: "e1", summary: "周会" }, { id: "e22", summary: "Standup" }]),
    "table",
  );
  assert.equal(
    text,
    "id   summary\n" +
      "───  ───────\n" +
      "e1   周会\n" +
      "e22  Standup\n",
  );
});

Deno.test("table: shrinks the widest column to the terminal width", () => {
  const long = "x".repeat(40);
  const text = renderDocument(env([{ a: "1", b: long }]), "table", { columns: 20 });
  for (const line of text.trimEnd().split("\n")) assert.ok(displayWidth(line) <= 20, line);
  assert.match(text, /x…\n$/);
});

Deno.test("table/csv: empty list and single record", () => {
  assert.equal(renderDocument(env([]), "table"), "(empty)\n");
  assert.equal(renderDocument(env([]), "csv"), "", "no columns known: an empty CSV");
  assert.equal(renderDocument(env([]), "csv", { fields: ["id"] }), "id\r\n");
  assert.equal(renderDocument(env({ id: "m1", n: 2 }), "table"), "id  m1\nn   2\n");
  assert.equal(renderDocument(env({ id: "m1" }), "csv"), "key,value\r\nid,m1\r\n");
});

Deno.test("csv is RFC 4180: CRLF, quoting of comma, quote and line break", () => {
  const text = renderDocument(
    env({ items: [{ a: 'say "hi"', b: "x,y" }, { a: "l1\nl2", b: "plain" }] }),
    "csv",
  );
  assert.equal(text, 'a,b\r\n"say ""hi""","x,y"\r\n"l1\nl2",plain\r\n');
});

Deno.test("ndjson: one compact item per line; json is the envelope; pretty uses the summary", () => {
  assert.equal(renderDocument(env([{ a: 1 }, { a: 2 }]), "ndjson"), '{"a":1}\n{"a":2}\n');
  assert.equal(renderDocument(env([1]), "json"), JSON.stringify(env([1]), null, 2) + "\n");
  assert.equal(
    renderDocument(env([1]), "pretty", { pretty: (d) => `${(d as unknown[]).length} item` }),
    "1 item\n",
  );
  assert.equal(renderDocument(env([1]), "pretty"), JSON.stringify(env([1]), null, 2) + "\n");
});

Deno.test("parseFormat accepts the five formats case-insensitively and rejects others as validation", () => {
  assert.equal(parseFormat(undefined), "json");
  assert.equal(parseFormat("CSV"), "csv");
  assert.throws(
    () => parseFormat("yaml"),
    (e: unknown) => e instanceof LarkitError && e.type === "validation",
  );
});

Deno.test("item writer streams pages: header once, columns and widths fixed by the first page", async () => {
  let out = "";
  const w = createItemWriter("table", (t) => Promise.resolve(void (out += t)));
  await w.page([{ id: "a", n: 1 }]);
  await w.page([{ id: "bbbb", n: 2, extra: "dropped" }]);
  await w.end();
  assert.equal(out, "id  n\n──  ─\na   1\nb…  2\n");
  assert.equal(w.count, 2);

  let csv = "";
  const c = createItemWriter("csv", (t) => Promise.resolve(void (csv += t)));
  await c.page([{ id: "a" }]);
  await c.page([{ id: "b" }]);
  assert.equal(csv, "id\r\na\r\nb\r\n");

  let empty = "";
  const e = createItemWriter("table", (t) => Promise.resolve(void (empty += t)));
  await e.end();
  assert.equal(empty, "(empty)\n");
});
