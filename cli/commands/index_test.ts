/**
 * Each fixed command module registers exactly the top-level names its entry declares: a run that loads only
 * the module its first word names must not miss a command another module would have added.
 */
import assert from "node:assert/strict";
import { Command } from "commander";
import { createRunContext } from "../context.ts";
import { testProvider } from "../test_provider.ts";
import { FIXED_COMMANDS } from "./index.ts";

for (const fixed of FIXED_COMMANDS) {
  Deno.test(`fixed commands: ${fixed.names[0]} registers ${fixed.names.join(", ")}`, async () => {
    const program = new Command("larkit");
    (await fixed.load())(
      program,
      createRunContext(testProvider(), { debug: false, color: false, offline: false }),
    );
    assert.deepEqual(program.commands.map((c) => c.name()), fixed.names);
  });
}
