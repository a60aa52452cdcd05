/**
 * Usage errors point at commands that exist: `larkit nosuch --help` is an error (not the parent's help with
 * exit 0) with did-you-mean suggestions in `detail`, and every hint names the deepest real command.
 */
import assert from "node:assert/strict";
import { runCli } from "./helpers/run_cli.ts";

function usage(r: { code: number; stdout: string; errorJson(): { error: Record<string, unknown> } }) {
  assert.equal(r.code, 2);
  assert.equal(r.stdout, "");
  const error = r.errorJson().error;
  assert.deepEqual([error.type, error.subtype], ["validation", "usage"]);
  return error as { message: string; hint: string; detail: { word?: string; suggestions?: string[] } };
}

Deno.test("an unknown command with --help is a usage error with suggestions, not the parent's help", async () => {
  const nosuch = usage(await runCli(["nosuch", "--help"]));
  assert.equal(nosuch.message, "unknown command 'nosuch'");
  assert.deepEqual(nosuch.detail, { reason: "unknownCommand", word: "nosuch", suggestions: [] });
  assert.match(nosuch.hint, /`larkit --help`/);

  const typo = usage(await runCli(["calendr", "--help"]));
  assert.ok(typo.detail.suggestions?.includes("calendar"), JSON.stringify(typo.detail));
  assert.match(typo.hint, /did you mean .*calendar/);

  const nested = usage(await runCli(["calendar", "evnts", "--help"]));
  assert.deepEqual(nested.detail.suggestions, ["events"]);
  assert.match(nested.hint, /`larkit calendar --help`/);

  const help = await runCli(["calendar", "--help"]);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^Usage: larkit calendar/);
});

Deno.test("usage hints name commands that exist", async () => {
  const misspelt = usage(await runCli(["calendar", "evnts", "list"]));
  assert.match(misspelt.hint, /`larkit calendar --help`/);
  assert.deepEqual(misspelt.detail.suggestions, ["events"]);

  // `--as bot` before the command: `bot` is the option's value, not the `bot` service.
  const early = usage(await runCli(["--as", "bot", "calendar", "events", "list"]));
  assert.doesNotMatch(early.hint, /larkit bot/);
  assert.match(early.hint, /`larkit calendar( events list)? --help`/);
});
