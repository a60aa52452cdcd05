/**
 * The README is part of the contract: its exit-code table must say what the code does.
 */
import assert from "node:assert/strict";
import { ERROR_TYPES, EXIT_CODES } from "../cli/output/errors.ts";
import { REPO } from "./helpers/run_main.ts";

Deno.test("README exit-code table matches cli/output/errors.ts", async () => {
  const readme = await Deno.readTextFile(`${REPO}/README.md`);
  const table = readme.split("<!-- exit-codes:begin")[1]?.split("<!-- exit-codes:end -->")[0];
  assert.ok(table, "README has the exit-code markers");
  const rows = [...table.matchAll(/^\| (\d+) \| `([a-z_]+)` \| (.+) \|$/gm)].map((
    m,
  ) => [m[2], Number(m[1]), m[3]]);
  const expected = [...ERROR_TYPES].sort((a, b) => EXIT_CODES[a].exit - EXIT_CODES[b].exit)
    .map((t) => [t, EXIT_CODES[t].exit, EXIT_CODES[t].meaning]);
  assert.deepEqual(
    rows.sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    expected.sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  );
});
