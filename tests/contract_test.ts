/**
 * The output contract as an agent sees it: stdout holds only results, errors are one JSON envelope on stderr,
 * exit codes are stable per error type. A success and a failure go through `main.ts` as a process, so the
 * exit status is the one `Deno.exit` gives; the rest runs in-process.
 */
import assert from "node:assert/strict";
import { EXIT_CODES } from "../cli/output/errors.ts";
import { runCli } from "./helpers/run_cli.ts";
import { runMain } from "./helpers/run_main.ts";

Deno.test("--version prints the version on stdout and exits 0", async () => {
  const r = await runMain(["--version"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^larkit version \d+\.\d+\.\d+\n$/);
  assert.equal(r.stderr, "");
});

Deno.test("--help prints usage on stdout and exits 0", async () => {
  const r = await runCli(["--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^Usage: larkit/);
  assert.match(r.stdout, /--profile <name>/);
  assert.equal(r.stderr, "");
});

Deno.test("an unknown flag is a usage error envelope on stderr with an empty stdout", async () => {
  const r = await runMain(["--no-such-flag"]);
  assert.equal(r.stdout, "");
  assert.equal(r.code, EXIT_CODES.validation.exit);
  const env = r.errorJson();
  assert.equal(env.ok, false);
  assert.deepEqual([env.error.type, env.error.subtype], ["validation", "usage"]);
  assert.match(env.error.message, /unknown option '--no-such-flag'/);
  assert.match(env.error.hint ?? "", /larkit --help/);
});

Deno.test("an unknown command is a usage error naming it", async () => {
  const r = await runCli(["frobnicate"]);
  assert.equal(r.stdout, "");
  assert.equal(r.code, EXIT_CODES.validation.exit);
  const env = r.errorJson();
  assert.deepEqual([env.error.type, env.error.subtype], ["validation", "usage"]);
  assert.match(env.error.message, /frobnicate/);
});

Deno.test("stderr holds exactly one JSON document on failure", async () => {
  const r = await runCli(["--no-such-flag"]);
  assert.doesNotThrow(() => JSON.parse(r.stderr));
  assert.equal(r.stderr.trim().split("\n").filter((l) => l.startsWith("{")).length, 1);
});
