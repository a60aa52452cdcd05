/**
 * `--page-all` never loses data silently, through the API layers against the suite emulator: a response
 * without a list is printed (never empty stdout or `(empty)`), a stop at `--page-limit` is in the result, and a
 * later page failing under ndjson says how many items stdout already holds and the token to resume from.
 */
import assert from "node:assert/strict";
import { emulatorEnv, fixtures, withEmulator } from "./helpers/emulator.ts";
import { offlineAfterFirstPage, runCli } from "./helpers/run_cli.ts";

const ONE_CALENDAR = [
  "api",
  "GET",
  `/open-apis/calendar/v4/calendars/${fixtures.CALENDARS.bot}`,
  "--as",
  "bot",
];
const LIST = ["calendar", "calendars", "list", "--as", "bot", "--page-all", "--page-size", "1"];

Deno.test("--page-all on a response without a list prints the object in every format, with a warning", async () => {
  await withEmulator({}, async (emu) => {
    const expected = { calendar_id: fixtures.CALENDARS.bot };
    const json = await runCli([...ONE_CALENDAR, "--page-all"], { env: emulatorEnv(emu) });
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(json.json<{ data: { calendar_id: string } }>().data.calendar_id, expected.calendar_id);

    const ndjson = await runCli([...ONE_CALENDAR, "--page-all", "--format", "ndjson"], {
      env: emulatorEnv(emu),
    });
    assert.equal(ndjson.code, 0, ndjson.stderr);
    const lines = ndjson.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 1);
    assert.equal(JSON.parse(lines[0]).calendar_id, expected.calendar_id);
    assert.match(ndjson.stderr, /^warning: --page-all: the response holds no list/m);

    for (const format of ["table", "csv"]) {
      const r = await runCli([...ONE_CALENDAR, "--page-all", "--format", format], { env: emulatorEnv(emu) });
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout, /\(empty\)/);
      assert.match(r.stdout, /calendar_id/);
      assert.ok(r.stdout.includes(expected.calendar_id), r.stdout);
    }
  });
});

Deno.test("--page-limit stops with the truncation and the resume token in the result", async () => {
  await withEmulator({}, async (emu) => {
    const r = await runCli([...LIST, "--page-limit", "1"], { env: emulatorEnv(emu) });
    assert.equal(r.code, 0, r.stderr);
    const out = r.json<{ data: { has_more: boolean; page_token: string }; meta: Record<string, unknown> }>();
    assert.equal(out.meta.truncated, true);
    assert.equal(out.meta.count, 1);
    assert.equal(typeof out.meta.page_token, "string");
    assert.deepEqual([out.data.has_more, out.data.page_token], [true, out.meta.page_token]);

    // The token resumes where the limit stopped; --page-limit 0 fetches everything.
    const rest = await runCli([
      ...LIST,
      "--page-limit",
      "0",
      "--params",
      JSON.stringify({ page_token: out.meta.page_token }),
    ], {
      env: emulatorEnv(emu),
    });
    assert.equal(rest.code, 0, rest.stderr);
    const all = await runCli([...LIST, "--page-limit", "0"], { env: emulatorEnv(emu) });
    const total = all.json<{ meta: { count: number; truncated?: boolean } }>().meta;
    assert.equal(total.truncated, undefined);
    assert.equal(rest.json<{ meta: { count: number } }>().meta.count, total.count - 1);
  });
});

Deno.test("a later page failing under ndjson: the envelope counts the items on stdout and gives the resume token", async () => {
  await withEmulator({}, async (emu) => {
    // Every page after the first fails for good (the network is gone).
    const fetch = offlineAfterFirstPage;
    const r = await runCli([...LIST, "--format", "ndjson"], {
      env: emulatorEnv(emu),
      fetch,
      sleep: () => Promise.resolve(),
    });
    assert.equal(r.code, 4, r.stderr);
    assert.equal(r.stdout.trimEnd().split("\n").length, 1, "the first page's item is on stdout");
    const error = JSON.parse(r.stderr.slice(r.stderr.indexOf("\n{") + 1)).error;
    assert.equal(error.type, "network");
    assert.equal(error.detail.items_written, 1);
    assert.equal(error.detail.pages_fetched, 1);
    assert.equal(typeof error.detail.page_token, "string");
    assert.match(error.hint, /stdout holds the first 1 items/);
  });
});
