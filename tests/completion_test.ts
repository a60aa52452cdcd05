/**
 * Shell completion asks the binary for candidates, so it lists exactly what the tree holds.
 */
import assert from "node:assert/strict";
import { EXIT_CODES } from "../cli/output/errors.ts";
import { runCli } from "./helpers/run_cli.ts";

Deno.test("__complete lists matching top-level commands and global flags", async () => {
  const words = await runCli(["__complete", "compl"]);
  assert.equal(words.code, 0);
  assert.deepEqual(words.stdout.trim().split("\n"), ["completion"]);
  const flags = await runCli(["__complete", "--pro"]);
  assert.deepEqual(flags.stdout.trim().split("\n"), ["--profile"]);
});

Deno.test("completion prints a script per shell and rejects unknown shells", async () => {
  for (const shell of ["bash", "zsh", "fish"]) {
    const r = await runCli(["completion", shell]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /larkit __complete/);
  }
  const bad = await runCli(["completion", "tcsh"]);
  assert.equal(bad.code, EXIT_CODES.validation.exit);
  assert.equal(bad.stdout, "");
  assert.match(bad.errorJson().error.message, /unknown shell "tcsh"/);
});
