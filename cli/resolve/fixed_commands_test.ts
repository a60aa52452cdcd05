/**
 * Each fixed command module declares exactly the top-level names its entry lists: a run that loads only the
 * module its first word names must not miss a command another module would have added.
 */
import assert from "node:assert/strict";
import { addDeclared } from "./declare.ts";
import { groupNode } from "./node.ts";
import { FIXED_COMMANDS } from "./fixed_commands.ts";

for (const fixed of FIXED_COMMANDS) {
  Deno.test(`fixed commands: ${fixed.names[0]} declares ${fixed.names.join(", ")}`, async () => {
    const root = groupNode("larkit");
    addDeclared(root, await fixed.load());
    assert.deepEqual(root.commands.map((c) => c.name), fixed.names);
  });
}
