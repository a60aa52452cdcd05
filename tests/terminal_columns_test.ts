/**
 * Issue 23.1: every read shortcut takes `--format` and writes its result through it, and every one whose result
 * is a list declares its table columns, most important first. The walk runs each read shortcut's `run` the way
 * the plan pass does (each call answered by its `planned` stand-in, flags from its first `--help` example), so
 * a shortcut added tomorrow is covered the day it lands.
 */
import assert from "node:assert/strict";
import { columnName } from "../cli/output/formats/rows.ts";
import { testProvider } from "../cli/test_provider.ts";
import { timeCell } from "../shortcuts/common/columns.ts";
import { columnLetters } from "../shortcuts/sheets/read.ts";
import type { FlagSpecs, Shortcut, ShortcutContext } from "../shortcuts/declare.ts";
import { loadAllShortcuts } from "../shortcuts/index.ts";
import { resolveFlags } from "../shortcuts/inputs.ts";
import { takesFormat } from "../shortcuts/command_flags.ts";
import { runCli } from "./helpers/run_cli.ts";
import { exampleFlags } from "../cli/commands/schema_calls.ts";

const READS = (await loadAllShortcuts()).filter((s) => s.risk === "read");
const nameOf = (s: Shortcut<FlagSpecs>) => `${s.service} ${s.command}`;

interface Written {
  via: "out" | "outFormat" | "delegate";
  data?: unknown;
}

/** Runs a shortcut with every call answered by its planned stand-in; says how it wrote its result. */
async function planResult(s: Shortcut<FlagSpecs>): Promise<Written> {
  const p = testProvider({ env: { TZ: "UTC" } });
  const flags = await resolveFlags(p, s.flags, exampleFlags(s, s.examples[0]), "help");
  let written: Written | undefined;
  const planned = (call: { planned: unknown }) => Promise.resolve(call.planned);
  const ctx = {
    flags,
    identity: s.authTypes[0],
    userOpenId: "ou_test",
    timeZone: "UTC",
    now: () => Date.UTC(2026, 2, 2),
    api: planned,
    paginate: async (call: { planned: unknown }) => [await planned(call)],
    upload: planned,
    uploadBytes: planned,
    download: () => Promise.resolve({ saved_path: "saved.bin", size_bytes: 0 }),
    fetchText: () => Promise.resolve(""),
    mcp: planned,
    localFile: () => Promise.resolve({ path: "in.txt", name: "in.txt", size: 0 }),
    localText: () => Promise.resolve(""),
    inlineFile: () => Promise.resolve(""),
    note: () => {},
    progress: () => Promise.resolve(),
    status: () => Promise.resolve(),
    out: (data: unknown) => {
      written = { via: "out", data };
      return Promise.resolve();
    },
    outFormat: (data: unknown) => {
      written = { via: "outFormat", data };
      return Promise.resolve();
    },
    delegate: () => {
      written = { via: "delegate" };
      return Promise.resolve();
    },
  } as unknown as ShortcutContext<FlagSpecs>;
  await s.run(ctx);
  assert.ok(written, `${nameOf(s)} wrote no result`);
  return written;
}

Deno.test("every read shortcut takes --format and writes its result through it", async () => {
  const ignoring: string[] = [];
  for (const s of READS) {
    assert.ok(takesFormat(s), `${nameOf(s)} takes no --format`);
    // ctx.out always writes JSON: a read shortcut writing through it would accept --format and ignore it.
    if ((await planResult(s)).via === "out") ignoring.push(nameOf(s));
  }
  assert.deepEqual(ignoring, [], "read shortcuts whose result ignores --format (use ctx.outFormat)");
});

/**
 * Lists whose items have no fixed keys: a base record's fields are its table's own, so the default table shows
 * each field as a column (flattened), which no declaration made in advance can name.
 */
const OWN_KEYS: Record<string, string> = {
  "base +record-list": "a record's fields are its table's",
  "base +record-search": "a record's fields are its table's",
  "base +record-get": "a record's fields are its table's",
};

Deno.test("every read shortcut whose result is a list declares its table columns", async () => {
  const missing: string[] = [];
  let lists = 0;
  for (const s of READS) {
    const { data } = await planResult(s);
    if (!Array.isArray(data)) continue;
    lists++;
    if (nameOf(s) in OWN_KEYS) {
      assert.equal(s.columns, undefined, `${nameOf(s)}: ${OWN_KEYS[nameOf(s)]}, yet it declares columns`);
      continue;
    }
    if (!s.columns?.length) {
      missing.push(nameOf(s));
      continue;
    }
    const names = s.columns.map(columnName);
    assert.equal(new Set(names).size, names.length, `${nameOf(s)} names a column twice: ${names}`);
  }
  assert.deepEqual(missing, [], "list shortcuts without default columns");
  // The walk found the lists (a broken walk finding none would pass the check above vacuously).
  assert.ok(lists >= 60, `only ${lists} list shortcuts found`);
});

Deno.test("a time cell: the shaped datetime or date, else the raw timestamp in UTC", () => {
  assert.equal(timeCell({ datetime: "2026-03-02T09:30:00+08:00" }), "2026-03-02T09:30:00+08:00");
  assert.equal(timeCell({ date: "2026-03-02" }), "2026-03-02");
  assert.equal(timeCell({ timestamp: "1772443800" }), "2026-03-02T09:30Z");
  assert.equal(timeCell(undefined), "");
});

const sandbox = (argv: string[], columns = 120) =>
  runCli(["sandbox", "run", "--as", "user", "--", ...argv], { stdoutIsTTY: true, columns });

Deno.test("im +chat-list --format table: the declared columns, name first; --columns picks others", async () => {
  const table = await sandbox(["im", "+chat-list", "--format", "table"]);
  assert.equal(table.code, 0, table.stderr);
  assert.deepEqual(table.stdout.split("\n")[0].trim().split(/\s{2,}/), [
    "name",
    "chat_id",
    "description",
    "owner_id",
  ]);
  const picked = await sandbox(["im", "+chat-list", "--format", "table", "--columns", "chat_id,name"]);
  assert.equal(picked.code, 0, picked.stderr);
  assert.deepEqual(picked.stdout.split("\n")[0].trim().split(/\s{2,}/), ["chat_id", "name"]);
});

Deno.test("sheets +read --format pretty: a grid headed by the column letters; csv is not the JSON envelope", async () => {
  const { fixtures } = await import("./helpers/emulator.ts");
  const read = ["sheets", "+read", "--spreadsheet-token", fixtures.SHEETS.budget];
  const grid = await sandbox([...read, "--format", "pretty"]);
  assert.equal(grid.code, 0, grid.stderr);
  const [range, header] = grid.stdout.split("\n");
  assert.match(range, /!/);
  assert.match(header, /^#\s+A\s+B/);
  const csv = await sandbox([...read, "--format", "csv"]);
  assert.equal(csv.code, 0, csv.stderr);
  assert.doesNotMatch(csv.stdout, /^\{/);
});

Deno.test("column letters: A…Z, then AA", () => {
  assert.deepEqual([0, 25, 26, 27, 701, 702].map(columnLetters), ["A", "Z", "AA", "AB", "ZZ", "AAA"]);
});
