/**
 * The README is part of the contract: its exit-code table must say what the code does.
 */
import assert from "node:assert/strict";
import { ERROR_SUBTYPE_NAMES, ERROR_SUBTYPES, EXIT_CODES, exitCodeOf } from "../cli/output/errors.ts";
import { REPO } from "./helpers/run_main.ts";

Deno.test("README exit-code table matches cli/output/errors.ts", async () => {
  const readme = await Deno.readTextFile(`${REPO}/README.md`);
  const table = readme.split("<!-- exit-codes:begin")[1]?.split("<!-- exit-codes:end -->")[0];
  assert.ok(table, "README has the exit-code markers");
  const rows = [...table.matchAll(/^\| (\d+) \| `([a-z_]+)` \| `([a-z_]+)` \| (yes|no) \| (.+) \|$/gm)]
    .map((m) => [m[3], m[2], Number(m[1]), m[4] === "yes", m[5]]);
  const expected = ERROR_SUBTYPE_NAMES.map((s) => {
    const { type, retryable, meaning } = ERROR_SUBTYPES[s];
    return [s, type, exitCodeOf(s), retryable, meaning];
  });
  const bySubtype = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
  assert.deepEqual(rows.sort(bySubtype), expected.sort(bySubtype));
});

Deno.test("larkit's own error types use exit codes none of the reference's categories use", () => {
  const reference = new Set(Object.values(EXIT_CODES).filter((c) => c.reference).map((c) => c.exit));
  assert.deepEqual([...reference].sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 10]);
  const own = ERROR_SUBTYPE_NAMES.filter((s) => !EXIT_CODES[ERROR_SUBTYPES[s].type].reference);
  for (const s of own) assert.ok(!reference.has(exitCodeOf(s)), `${s} exits ${exitCodeOf(s)}`);
});
