/**
 * Issue 23.7: helpful help. A shortcut's help shows examples, required flags, identities, scopes and risk; a
 * generated command's help shows its path, query and body parameters (required ones marked) and an example
 * built from the schema, and leaves out the paging flags of a method that has no pages; every help ends with
 * the global flags.
 */
import assert from "node:assert/strict";
import { runCli } from "./helpers/run_cli.ts";

Deno.test("a shortcut's --help: examples, required flags, identities, risk, scopes, global flags", async () => {
  const res = await runCli(["im", "+messages-send", "--help"]);
  assert.equal(res.code, 0, res.stderr);
  for (
    const part of [/\nExamples:\n {2}larkit im \+messages-send/, /\nIdentities: .*Risk: write/, /\nScopes:\n/]
  ) {
    assert.match(res.stdout, part);
  }
  assert.match(res.stdout, /\nGlobal Options:\n {2}--profile <name>/);
  const agenda = await runCli(["calendar", "+agenda", "--help"]);
  assert.doesNotMatch(agenda.stdout, /\nRequired:/, "no flag of +agenda is required");
});

Deno.test("a generated command's --help: parameters with required marks, an example, no paging flags on a get", async () => {
  const get = await runCli(["calendar", "events", "get", "--help"]);
  assert.equal(get.code, 0, get.stderr);
  assert.match(
    get.stdout,
    /\nGET \/open-apis\/calendar\/v4\/calendars\/\{calendar_id\}\/events\/\{event_id\}\n/,
  );
  assert.match(get.stdout, /\n {2}path: +calendar_id\* \(string\) +event_id\* \(string\)\n/);
  assert.match(get.stdout, /user_id_type \(user_id\|union_id\|open_id\)/);
  assert.match(
    get.stdout,
    /\n {2}larkit calendar events get --params '\{"calendar_id":"<calendar_id>","event_id":"<event_id>"\}'\n/,
  );
  assert.doesNotMatch(get.stdout, /--page-all/);
  assert.match(get.stdout, /\nGlobal Options:\n/);

  const list = await runCli(["calendar", "events", "list", "--help"]);
  assert.match(list.stdout, /--page-all/);
});
