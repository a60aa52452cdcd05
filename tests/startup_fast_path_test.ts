/**
 * The lean resolver (`cli/fast/method.ts`) answers a generated method exactly as the commander tree does:
 * same stdout, stderr and exit code. The tree is forced by a leading `--quiet` (a line starting with a flag
 * always takes the tree; off a terminal it changes nothing), so each command line below runs both ways and must
 * come out byte for byte the same.
 */
import assert from "node:assert/strict";
import { type DeclaredFlag, parseFlags } from "../cli/fast/method.ts";
import { runCli as runIn } from "../cli/run.ts";
import { cliProvider } from "./helpers/run_cli.ts";
import { emulatorEnv, withEmulator } from "./helpers/emulator.ts";

const FLAGS: DeclaredFlag[] = [
  { long: "params", takesValue: true, attribute: "params" },
  { long: "page-all", takesValue: false, attribute: "pageAll" },
  { long: "page-limit", takesValue: true, attribute: "pageLimit", default: "10" },
  { long: "jq", short: "q", takesValue: true, attribute: "jq" },
  { long: "dry-run", takesValue: false, attribute: "dryRun" },
];

/** The options object of a command line without operands. */
const parseMethodFlags = (flags: DeclaredFlag[], args: string[]) => parseFlags(flags, args)?.opts;

Deno.test("parseFlags builds commander's options object, defaults included, and takes operands up to a count", () => {
  assert.deepEqual(parseMethodFlags(FLAGS, []), { pageLimit: "10" });
  assert.deepEqual(parseFlags(FLAGS, ["calendar.calendars.list", "--page-all"], 1), {
    opts: { pageLimit: "10", pageAll: true },
    words: ["calendar.calendars.list"],
  });
  assert.equal(parseFlags(FLAGS, ["a", "b"], 1), undefined);
  assert.deepEqual(
    parseMethodFlags(FLAGS, ["--params", '{"a":1}', "--page-all", "-q", ".data", "--page-limit=3"]),
    { params: '{"a":1}', pageAll: true, jq: ".data", pageLimit: "3" },
  );
  // Global flags belong to the root; the last value of a repeated flag wins, as in commander.
  assert.deepEqual(
    parseMethodFlags(FLAGS, ["--debug", "--profile", "p", "--params", "1", "--params=2", "--offline"]),
    { pageLimit: "10", params: "2" },
  );
});

Deno.test("parseFlags gives up on what it does not fully understand (the tree answers those)", () => {
  for (
    const args of [
      ["--nosuch"],
      ["--params"],
      ["--params", "-"],
      ["--dry-run=yes"],
      ["extra"],
      ["-qx"],
      ["--profile"],
    ]
  ) {
    assert.equal(parseMethodFlags(FLAGS, args), undefined, JSON.stringify(args));
  }
});

async function bothWays(argv: string[], env: Record<string, string>) {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-fast-" });
  const run = async (tree: boolean) => {
    const p = cliProvider({ configDir, env });
    const code = await runIn(tree ? ["--quiet", ...argv] : argv, p);
    return { code, stdout: p.out.text(), stderr: p.err.text() };
  };
  const fast = await run(false);
  const tree = await run(true);
  await Deno.remove(configDir, { recursive: true });
  return { fast, tree };
}

Deno.test("a generated method, a shortcut, api and schema answer the same through the lean resolver and through the tree", async () => {
  await withEmulator({}, async (emu) => {
    const env = emulatorEnv(emu);
    const lines = [
      ["calendar", "calendars", "list", "--as", "bot", "--dry-run"],
      ["calendar", "calendars", "list", "--as", "bot", "--page-size", "2", "--format", "ndjson"],
      ["calendar", "calendars", "list", "--as", "bot", "-q", ".data | keys"],
      ["calendar", "acls", "create", "--as", "bot", "--dry-run", "--params", '{"calendar_id":"c1"}'],
      ["calendar", "calendars", "list", "--as", "bot", "--page-size", "x"],
      ["calendar", "calendars", "get", "--as", "bot", "--params={}"],
      ["calendar", "calendars", "list", "--no-such-flag"],
      // Unknown options the lean resolver reports itself: commander's wording and did-you-mean, same hint.
      ["calendar", "calendars", "list", "--as", "bot", "--page-s", "--dry-run"],
      ["calendar", "calendars", "list", "--dry-run=1"],
      ["calendar", "calendars", "list", "--ofline", "--debug"],
      ["calendar", "calendars", "list", "--helpp"],
      ["calendar", "calendars", "list", "--nosuch=1", "--params", "{}"],
      ["calendar", "calendars", "list", "--nosuch", "--params"],
      ["calendar", "calendars", "list", "--nosuch", "word"],
      ["calendar", "calendars", "list", "-x"],
      ["calendar", "calendars", "list", "--debug=1"],
      ["calendar", "+agenda", "--calendar-i", "x"],
      ["drive", "+export-download", "--file-toke", "x"],
      ["calendar", "calendars", "nosuch", "--dry-run"],
      ["calendar", "calendars", "list", "--dry-run", "--help"],
      ["api", "GET", "/open-apis/calendar/v4/calendars", "--as", "bot", "--dry-run"],
      ["api", "get", "open-apis/calendar/v4/calendars", "--as", "bot", "--params", '{"page_size":2}'],
      [
        "api",
        "POST",
        "/open-apis/calendar/v4/calendars",
        "--as",
        "bot",
        "--dry-run",
        "--data",
        '{"summary":"x"}',
      ],
      ["api", "FETCH", "/open-apis/x", "--dry-run"],
      ["api", "GET", "/open-apis/calendar/v4/calendars", "--bogus"],
      ["schema", "calendar.calendars.list"],
      ["schema", "calendar.calendars.list", "--format", "pretty"],
      ["schema", "calendar"],
      ["schema"],
      ["schema", "nosuch.x.y"],
      ["schema", "calendar.calendars.list", "extra"],
      ["schema", "--format=pretty", "calendar.+agenda"],
      ["schema", "calendar.calendars.list", "--jq", ".data.httpMethod"],
      ["schema", "-q", ".data | keys", "calendar"],
      ["calendar", "+agenda", "--as", "bot", "--dry-run"],
      ["calendar", "+agenda", "--as", "bot"],
      ["calendar", "+agenda", "--as", "bot", "--format", "csv", "--columns", "summary"],
      ["calendar", "+agenda", "--as", "bot", "--start", "not-a-time"],
      ["calendar", "+agenda", "--bogus"],
      ["calendar", "+nosuch", "--dry-run"],
      ["drive", "+list-comments", "--as", "bot", "--dry-run", "--solved-status", "all"],
      ["drive", "+list-comments", "--as", "bot", "--dry-run", "--solved-status", "maybe"],
      // A deprecated alias: parsed, warned about, the same either way.
      [
        "drive",
        "+export-download",
        "--as",
        "bot",
        "--dry-run",
        "--file-token",
        "boxcnexp0001",
        "--output",
        "e.pdf",
      ],
    ];
    for (const argv of lines) {
      const { fast, tree } = await bothWays(argv, env);
      assert.deepEqual(fast, tree, argv.join(" "));
    }
  });
});

Deno.test("under strict mode a leaf for both identities is answered lean, one it prunes by the tree, alike", async () => {
  await withEmulator({}, async (emu) => {
    for (const mode of ["bot", "user"]) {
      const env = { ...emulatorEnv(emu), LARKIT_STRICT_MODE: mode };
      const lines = [
        // Both identities: strict mode keeps the leaf, so the lean resolver answers without reading the account.
        ["calendar", "calendars", "list", "--dry-run"],
        ["calendar", "calendars", "list", "--as", "user", "--dry-run"],
        ["calendar", "calendars", "list", "--no-such-flag"],
        ["calendar", "+agenda", "--dry-run"],
        ["calendar", "+agenda", "--bogus"],
        // One identity: pruned under the other mode (a stub that refuses), kept under its own.
        ["calendar", "calendars", "subscription", "--dry-run"],
        ["calendar", "calendars", "subscription", "--no-such-flag"],
        ["im", "app_feed_card", "create", "--no-such-flag"],
        ["calendar", "+join-event", "--bogus"],
        ["calendar", "+join-event", "--event-id", "e_1", "--dry-run"],
      ];
      for (const argv of lines) {
        const { fast, tree } = await bothWays(argv, env);
        assert.deepEqual(fast, tree, `${mode}: ${argv.join(" ")}`);
      }
    }
  });
});
