/**
 * Issue 23.1: readable tables. The agenda's declared columns in importance order, `--columns` with nested
 * paths, widths that fit the terminal with `…`, CJK and emoji measured by display width, `--jq` combined with
 * table/csv (filter first, then render), `--format` on every read shortcut.
 */
import assert from "node:assert/strict";
import { displayWidth, loadCellWidths, truncateCell } from "../cli/output/formats/cells.ts";
import { renderTable } from "../cli/output/formats/table.ts";
import { runCli } from "./helpers/run_cli.ts";

// Rendering is synchronous; the writers load the width measure first, as these tests do here.
await loadCellWidths();

const agenda = (extra: string[], columns?: number) =>
  runCli(["sandbox", "run", "--as", "user", "--", "calendar", "+agenda", ...extra], {
    stdoutIsTTY: columns !== undefined,
    columns,
  });

Deno.test("the agenda table: start–end, summary, organizer, location, my RSVP, in that order", async () => {
  const res = await agenda(["--format", "table"], 80);
  assert.equal(res.code, 0, res.stderr);
  const [header] = res.stdout.split("\n");
  assert.deepEqual(header.trim().split(/\s{2,}/), [
    "start–end",
    "summary",
    "organizer",
    "location",
    "my_rsvp",
  ]);
  assert.match(res.stdout, /\d{4}-\d{2}-\d{2} 09:30–09:45 +Daily stand-up +Alice Chen +accept/);
});

Deno.test("a narrow terminal: every line fits, cut cells end in …", async () => {
  const res = await agenda(["--format", "table"], 40);
  assert.equal(res.code, 0, res.stderr);
  for (const line of res.stdout.trimEnd().split("\n")) assert.ok(displayWidth(line) <= 40, line);
  assert.match(res.stdout, /…/);
});

Deno.test("--columns picks nested paths; csv with --jq renders the filter's results", async () => {
  const picked = await agenda(["--format", "table", "--columns", "summary,event_organizer.user_id"]);
  assert.equal(picked.code, 0, picked.stderr);
  assert.match(picked.stdout.split("\n")[0], /^summary +event_organizer\.user_id$/);
  assert.match(picked.stdout, /Daily stand-up +ou_/);

  const filtered = await agenda([
    "--format",
    "csv",
    "--jq",
    "[.data[] | {summary, rsvp: .self_rsvp_status}]",
  ]);
  assert.equal(filtered.code, 0, filtered.stderr);
  const lines = filtered.stdout.trimEnd().split("\r\n");
  assert.equal(lines[0], "rsvp,summary");
  assert.ok(lines.includes("accept,Daily stand-up"), filtered.stdout);
});

Deno.test("CJK and emoji are two columns wide; truncation never splits a grapheme", () => {
  assert.equal(displayWidth("会议室"), 6);
  assert.equal(displayWidth("👨‍👩‍👧"), 2);
  assert.equal(truncateCell("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", 5), "👨‍👩‍👧👨‍👩‍👧…");
  const table = renderTable([{ name: "周会 🚀", room: "A" }, { name: "standup", room: "B" }]);
  const [, , first, second] = table.split("\n");
  // The second column starts at the same display column on both rows.
  assert.equal(
    displayWidth(first.slice(0, first.indexOf("A"))),
    displayWidth(second.slice(0, second.indexOf("B"))),
  );
});

Deno.test("a read shortcut without a declared format takes --format and --columns (sheets +read)", async () => {
  const sheets = await runCli(["sheets", "+read", "--help"]);
  assert.match(sheets.stdout, /--format <format>/);
  assert.match(sheets.stdout, /--columns <paths>/);
});

Deno.test("generated list commands: --columns picks the items' columns; --jq then csv", async () => {
  const base = ["sandbox", "run", "--", "calendar", "calendars", "list", "--as", "bot"];
  const table = await runCli([...base, "--format", "table", "--columns", "summary,role"]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^summary +role\n/);
  assert.match(table.stdout, /\nlarkit sandbox +owner\n/);
  const csv = await runCli([...base, "--format", "csv", "--jq", "[.data.calendar_list[] | {summary}]"]);
  assert.equal(csv.code, 0, csv.stderr);
  assert.equal(csv.stdout.split("\r\n")[0], "summary");
});
