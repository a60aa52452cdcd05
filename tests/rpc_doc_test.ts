/**
 * docs/rpc.md is part of the contract: every method, notification and server request of the protocol module is
 * documented in one of its tables, and every name a table documents exists (as the README's exit-code table is
 * checked against cli/output/errors.ts).
 */
import assert from "node:assert/strict";
import { CLIENT_NOTIFICATIONS, METHODS, NOTIFICATIONS, SERVER_REQUESTS } from "../rpc/protocol.ts";
import { REPO } from "./helpers/run_main.ts";

Deno.test("docs/rpc.md documents exactly the methods, notifications and requests of rpc/protocol.ts", async () => {
  const doc = await Deno.readTextFile(`${REPO}/docs/rpc.md`);
  // A table row whose first cell is one protocol name: `| \`thread/start\` | …`.
  const documented = [...doc.matchAll(/^\| `([a-zA-Z]+(?:\/[a-zA-Z]+)*)` \|/gm)].map((m) => m[1])
    .filter((name) => name.includes("/") || /^initializ/.test(name));
  const expected = [
    ...Object.keys(METHODS),
    ...Object.keys(NOTIFICATIONS),
    ...Object.keys(SERVER_REQUESTS),
    ...CLIENT_NOTIFICATIONS,
  ];
  assert.deepEqual([...new Set(documented)].sort(), [...new Set(expected)].sort());
  assert.equal(documented.length, new Set(documented).size, "each name has one row");
});
