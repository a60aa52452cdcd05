/**
 * Shell completion asks the binary for candidates, so it lists exactly what the tree holds.
 */
import assert from "node:assert/strict";
import { EXIT_CODES } from "../cli/output/errors.ts";
import { runCli } from "./helpers/run_cli.ts";

Deno.test("__complete lists matching top-level commands and global flags", async () => {
  const words = await runCli(["__complete", "compl"]);
  assert.equal(words.code, 0);
  assert.deepEqual(values(words.stdout), ["completion"]);
  const flags = await runCli(["__complete", "--pro"]);
  assert.deepEqual(values(flags.stdout), ["--profile"]);
});

/** The values of `value<TAB>description` lines. */
function values(stdout: string): string[] {
  return stdout.trim().split("\n").filter(Boolean).map((l) => l.split("\t")[0]);
}

Deno.test("__complete: an empty word lists the service's commands (not the service again), with descriptions", async () => {
  const r = await runCli(["__complete", "calendar", ""]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(values(r.stdout).includes("+agenda"), r.stdout);
  assert.ok(!values(r.stdout).includes("calendar"));
  assert.match(r.stdout, /^\+agenda\tView the calendar agenda/m);
});

Deno.test("__complete: flag values for --format, --as, --profile (from the config) and schema paths", async () => {
  const format = await runCli(["__complete", "calendar", "+agenda", "--format", ""]);
  assert.deepEqual(values(format.stdout), ["csv", "json", "ndjson", "pretty", "table"]);
  const as = await runCli(["__complete", "calendar", "+agenda", "--as", "b"]);
  assert.deepEqual(values(as.stdout), ["bot"]);
  const configDir = await Deno.makeTempDir({ prefix: "larkit-complete-" });
  const init = await runCli(["config", "init", "--name", "work", "--app-id", "cli_w", "--app-secret-stdin"], {
    configDir,
    stdin: "s\n",
  });
  assert.equal(init.code, 0, init.stderr);
  const profiles = await runCli(["__complete", "--profile", ""], { configDir });
  assert.ok(values(profiles.stdout).includes("work"), profiles.stdout);
  // A flag's value is not taken for a command word.
  const after = await runCli(["__complete", "--profile", "work", "calendar", "+ag"], { configDir });
  assert.deepEqual(values(after.stdout), ["+agenda"]);
  const schema = await runCli(["__complete", "schema", "calendar.events.ge"]);
  assert.deepEqual(values(schema.stdout), ["calendar.events.get"]);
});

Deno.test("the zsh script passes the empty word under the cursor; completion --help says how to install", async () => {
  const zsh = await runCli(["completion", "zsh"]);
  assert.match(zsh.stdout, /"\$\{\(@\)words\[2,CURRENT\]\}"/);
  const help = await runCli(["completion", "--help"]);
  assert.match(help.stdout, /Install \(then open a new shell\):\n {2}bash: /);
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
