/**
 * The one resolver (`cli/resolve/`) as a person, a script or an agent meets it, through `runCli`: help of
 * every kind of command (root, service, resource, generated method, shortcut, fixed group, fixed leaf with
 * arguments) in each of its spellings and widths; usage errors with did-you-mean and a hint naming the deepest
 * command that exists; the flag forms the parse reads (`--x=value`, `--no-x`, repeatable flags, `--`, global
 * flags wherever they stand); strict mode hiding and refusing what it forbids; and shell completion.
 */
import assert from "node:assert/strict";
import { createRunContext } from "../cli/context.ts";
import { landOn, parseLine } from "../cli/resolve/parse.ts";
import type { ParsedLine } from "../cli/resolve/node.ts";
import { rootNode } from "../cli/resolve/root.ts";
import { testProvider } from "../cli/test_provider.ts";
import { runCli, type RunOptions, type RunResult } from "./helpers/run_cli.ts";

/** The help a run printed: exit 0, nothing on stderr. */
async function help(argv: string[], opts: RunOptions = {}): Promise<string> {
  const r = await runCli(argv, opts);
  assert.equal(r.code, 0, `${JSON.stringify(argv)}: ${r.stderr}`);
  assert.equal(r.stderr, "", JSON.stringify(argv));
  assert.match(r.stdout, /^Usage: larkit/, JSON.stringify(argv));
  return r.stdout;
}

interface UsageError {
  message: string;
  hint: string;
  detail: { reason: string; word?: string; suggestions?: string[] };
}

/** The usage error a run failed with: exit 2, nothing on stdout. */
function usage(r: RunResult, label = ""): UsageError {
  assert.equal(r.code, 2, `${label}: ${r.stdout}${r.stderr}`);
  assert.equal(r.stdout, "", label);
  const error = r.errorJson().error;
  assert.deepEqual([error.type, error.subtype], ["validation", "usage"], label);
  return error as unknown as UsageError;
}

/** The lines of a section of help (`Options:`, `Commands:`), up to the blank line that ends it. */
function section(text: string, heading: string): string[] {
  const at = text.indexOf(`\n${heading}\n`);
  if (at === -1) return [];
  return text.slice(at + heading.length + 2).split("\n\n")[0].split("\n");
}

/** The terms a section lists (`--params <json>`, `list [options]`), wrapped descriptions left out. */
const terms = (text: string, heading: string) =>
  section(text, heading).filter((l) => /^ {2}\S/.test(l)).map((l) => l.trim().split(/ {2,}/)[0]);

/** The values `__complete` offers for the words. */
async function complete(words: string[], opts: RunOptions = {}): Promise<string[]> {
  const r = await runCli(["__complete", ...words], opts);
  assert.equal(r.code, 0, `${JSON.stringify(words)}: ${r.stderr}`);
  return r.stdout.split("\n").filter(Boolean).map((l) => l.split("\t")[0]);
}

/** A config dir with an app configured as profile `w` (`config strict-mode` needs one). */
async function initConfig(): Promise<string> {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-resolver-" });
  const argv = ["config", "init", "--name", "w", "--app-id", "cli_w", "--app-secret-stdin"];
  const init = await runCli(argv, { configDir, stdin: "s\n" });
  assert.equal(init.code, 0, init.stderr);
  return configDir;
}

async function setStrictMode(configDir: string, mode: string): Promise<void> {
  const r = await runCli(["config", "strict-mode", mode], { configDir });
  assert.equal(r.code, 0, r.stderr);
}

// ---------------------------------------------------------------------------------------------------- help

Deno.test("root help: every spelling prints it; options, the fixed commands and the services, no hidden one", async () => {
  const text = await help([]);
  for (const argv of [["--help"], ["-h"], ["help"]]) assert.equal(await help(argv), text, argv[0]);
  assert.ok(
    text.startsWith("Usage: larkit [options] [command]\n\nOne command line to the Lark/Feishu suite"),
  );
  const options = terms(text, "Options:");
  for (const flag of ["--profile <name>", "--offline", "--record <dir>", "-V, --version", "-h, --help"]) {
    assert.ok(options.includes(flag), flag);
  }
  assert.equal(section(text, "Global Options:").length, 0, "the root's options are its own");
  const commands = terms(text, "Commands:");
  for (
    const term of [
      "completion <shell>",
      "api [options] <method> <path>",
      "config",
      "calendar",
      "im",
      "help [command]",
    ]
  ) assert.ok(commands.includes(term), `${term} in ${commands.join(", ")}`);
  assert.ok(!commands.some((c) => c.startsWith("__complete")), "__complete is hidden");
  // The fixed commands come first, the services after them.
  assert.ok(commands.indexOf("config") < commands.indexOf("calendar"));
});

Deno.test("a service's, a resource's and a fixed group's help list their commands; named alone they print it", async () => {
  const service = await help(["calendar", "--help"]);
  assert.equal(await help(["calendar"]), service);
  assert.equal(await help(["help", "calendar"]), service);
  assert.ok(service.startsWith("Usage: larkit calendar [options] [command]\n\nCalendar"));
  const listed = terms(service, "Commands:");
  for (const term of ["calendars", "events", "+agenda [options]", "+create [options]", "help [command]"]) {
    assert.ok(listed.includes(term), `${term} in ${listed.join(", ")}`);
  }
  assert.deepEqual(terms(service, "Options:"), ["-h, --help"]);
  assert.ok(terms(service, "Global Options:").includes("--profile <name>"));

  const resource = await help(["calendar", "calendars"]);
  assert.equal(await help(["calendar", "calendars", "--help"]), resource);
  assert.equal(await help(["help", "calendar", "calendars"]), resource);
  assert.ok(resource.startsWith("Usage: larkit calendar calendars [options] [command]\n"));
  assert.ok(terms(resource, "Commands:").includes("list [options]"));

  const group = await help(["config"]);
  assert.equal(await help(["config", "--help"]), group);
  assert.equal(await help(["help", "config"]), group);
  assert.equal(await help(["config", "-h"]), group);
  assert.ok(group.startsWith("Usage: larkit config [options] [command]\n\nconfigure the app"));
  const commands = terms(group, "Commands:");
  for (const term of ["init [options]", "set [options] <key> <value>", "strict-mode [options] [mode]"]) {
    assert.ok(commands.includes(term), `${term} in ${commands.join(", ")}`);
  }
});

Deno.test("a generated method's help: usage, its flags with defaults, the global flags, the method's text after", async () => {
  const text = await help(["calendar", "calendars", "list", "--help"]);
  assert.equal(await help(["calendar", "calendars", "list", "-h"]), text);
  assert.equal(await help(["help", "calendar", "calendars", "list"]), text);
  // Help is asked wherever it stands among the flags; what comes after it is not read.
  assert.equal(await help(["calendar", "calendars", "list", "--as", "bot", "--help", "--nosuch"]), text);
  assert.ok(text.startsWith("Usage: larkit calendar calendars list [options]\n\n"));
  const options = terms(text, "Options:");
  assert.deepEqual(options.slice(0, 3), ["--params <json>", "--as <identity>", "--page-all"]);
  assert.ok(options.includes("-q, --jq <expr>") && options.at(-1) === "-h, --help");
  assert.match(
    section(text, "Options:").join("\n"),
    /--page-limit <n> +most pages.*\n? *.*\(default:\s+"10"\)/,
  );
  assert.ok(terms(text, "Global Options:").includes("--offline"));
  assert.equal(section(text, "Commands:").length, 0);
  assert.match(text, /\nGET \/open-apis\/calendar\/v4\/calendars\n/);
  assert.match(text, /larkit schema calendar\.calendars\.list/);
});

Deno.test("a shortcut's help and a fixed leaf's help with an argument", async () => {
  const shortcut = await help(["calendar", "+agenda", "--help"]);
  assert.equal(await help(["help", "calendar", "+agenda"]), shortcut);
  assert.ok(shortcut.startsWith("Usage: larkit calendar +agenda [options]\n\nView the calendar agenda"));
  assert.ok(terms(shortcut, "Options:").includes("--calendar-id <value>"));
  assert.match(shortcut, /\nExamples:\n {2}larkit calendar \+agenda\n/);

  // `help` after a service names the help command, not a resource.
  assert.equal(await help(["calendar", "help", "+agenda"]), shortcut);
  assert.equal(await help(["calendar", "help"]), await help(["calendar", "--help"]));

  const leaf = await help(["skills", "show", "--help"]);
  assert.equal(await help(["help", "skills", "show"]), leaf);
  assert.equal(await help(["skills", "help", "show"]), leaf);
  assert.equal(await help(["skills", "show", "-h"]), leaf);
  assert.ok(leaf.startsWith("Usage: larkit skills show [options] <domain>\n\nprint a skill"));
  assert.deepEqual(section(leaf, "Arguments:"), [
    "  domain                 the skill's domain, from `larkit skills list`",
  ]);
  assert.deepEqual(terms(leaf, "Options:"), ["-h, --help"]);
  assert.ok(terms(leaf, "Global Options:").includes("--profile <name>"));
  // Help of a leaf is not its run: a missing argument is not asked for.
  assert.equal(await help(["skills", "show", "--help"]), leaf);
});

Deno.test("help wraps at the terminal's width on a TTY, at 80 columns otherwise", async () => {
  const description = "View the calendar agenda (defaults to today), recurring events expanded";
  const piped = await help(["calendar", "+agenda", "--help"]);
  assert.ok(piped.includes(`\n${description}\n`), "71 columns fit in 80");
  const narrow = await help(["calendar", "+agenda", "--help"], { stdoutIsTTY: true, columns: 60 });
  assert.ok(!narrow.includes(description));
  assert.ok(narrow.includes("\nView the calendar agenda (defaults to today), recurring\nevents expanded\n"));

  const method = ["calendar", "calendars", "list", "--help"];
  const params =
    "--params <json>        query and path parameters as a JSON object (supports @file, - for stdin)";
  assert.ok(!(await help(method)).includes(params), "wrapped at 80");
  assert.ok((await help(method, { stdoutIsTTY: true, columns: 200 })).includes(params), "one line at 200");
});

// ------------------------------------------------------------------------------------------- usage errors

Deno.test("an unknown command: suggestions, and a hint naming the deepest command that exists", async () => {
  const top = usage(await runCli(["calendr"]));
  assert.equal(top.message, "unknown command 'calendr' (Did you mean calendar?)");
  assert.deepEqual(top.detail, { reason: "unknownCommand", word: "calendr", suggestions: ["calendar"] });
  assert.equal(top.hint, "did you mean calendar? run `larkit --help` to see the commands and flags");

  // A resource found by name first and listed only to tell what is wrong reads the same.
  const resource = usage(await runCli(["calendar", "evnts", "list"]));
  assert.equal(resource.message, "unknown command 'evnts' (Did you mean events?)");

  const method = usage(await runCli(["calendar", "calendars", "lst"]));
  assert.deepEqual(method.detail.suggestions, ["list"]);
  assert.equal(
    method.hint,
    "did you mean list? run `larkit calendar calendars --help` to see the commands and flags",
  );

  const fixed = usage(await runCli(["config", "sett", "brand", "lark"]));
  assert.deepEqual(fixed.detail.suggestions, ["set"]);
  assert.match(fixed.hint, /`larkit config --help`/);

  const shortcut = usage(await runCli(["calendar", "+agend"]));
  assert.equal(shortcut.message, "unknown command '+agend' (Did you mean +agenda?)");
  assert.match(shortcut.hint, /`larkit calendar --help`/);

  const none = usage(await runCli(["zzzz"]));
  assert.deepEqual(none.detail.suggestions, []);
  assert.equal(none.hint, "run `larkit --help` to see the commands and flags");
});

Deno.test("an unknown option: did-you-mean among the command's and the global flags, the hint at the command", async () => {
  const typo = usage(await runCli(["calendar", "calendars", "list", "--page-sise", "1"]));
  assert.equal(typo.message, "unknown option '--page-sise' (Did you mean --page-size?)");
  assert.equal(typo.detail.reason, "unknownOption");
  assert.match(typo.hint, /`larkit calendar calendars list --help`/);

  const fixed = usage(await runCli(["skills", "list", "--fromat", "json"]));
  assert.equal(fixed.message, "unknown option '--fromat' (Did you mean --format?)");
  assert.match(fixed.hint, /`larkit skills list --help`/);

  const global = usage(await runCli(["calendar", "calendars", "list", "--ofline"]));
  assert.equal(global.message, "unknown option '--ofline' (Did you mean --offline?)");

  // A switch takes no value: `--dry-run=yes` is not `--dry-run`.
  const valued = usage(await runCli(["calendar", "calendars", "list", "--dry-run=yes"]));
  assert.match(valued.message, /^unknown option '--dry-run=yes'/);

  // Before the command's words: the hint still names the command the words reach.
  const early = usage(await runCli(["--nope=1", "calendar", "calendars"]));
  assert.equal(early.message, "unknown option '--nope=1'");
  assert.match(early.hint, /`larkit calendar calendars --help`/);

  const unrelated = usage(await runCli(["calendar", "+agenda", "--zzzzzz"]));
  assert.equal(unrelated.message, "unknown option '--zzzzzz'");
});

Deno.test("missing values, too many and missing arguments", async () => {
  const value = usage(await runCli(["calendar", "calendars", "list", "--params"]));
  assert.equal(value.message, "option '--params <json>' argument missing");
  assert.equal(value.detail.reason, "optionMissingArgument");
  const global = usage(await runCli(["calendar", "calendars", "list", "--profile"]));
  assert.equal(global.message, "option '--profile <name>' argument missing");

  const many = usage(await runCli(["skills", "show", "im", "extra"]));
  assert.equal(many.message, "too many arguments for 'show'. Expected 1 argument but got 2: im, extra.");
  assert.equal(many.detail.reason, "excessArguments");
  assert.match(many.hint, /`larkit skills show --help`/);
  // After a leaf a word is an argument, not a command: a method takes none.
  const after = usage(await runCli(["calendar", "calendars", "list", "nosuch"]));
  assert.equal(after.message, "too many arguments for 'list'. Expected 0 arguments but got 1: nosuch.");

  const missing = usage(await runCli(["skills", "show"]));
  assert.equal(missing.message, "missing required argument 'domain'");
  assert.equal(missing.detail.reason, "missingArgument");
  assert.equal(usage(await runCli(["api", "GET"])).message, "missing required argument 'path'");

  const choice = usage(await runCli(["remote-control", "launch"]));
  assert.match(
    choice.message,
    /^command-argument value 'launch' is invalid for argument 'action'\. Allowed choices/,
  );
});

// ----------------------------------------------------------------------------------------------- flag forms

/** The parse of a command line's leaf, as `runLine` hands it to the command. */
async function parsed(argv: string[]): Promise<ParsedLine> {
  const ctx = createRunContext(testProvider({}), { debug: false, color: false, offline: true });
  const { node, rest, help } = await landOn(rootNode(ctx), argv);
  assert.ok(node.leaf && !help, JSON.stringify(argv));
  return parseLine(node, rest);
}

Deno.test("flag forms: --no-x negates, a repeatable flag keeps each value, --x=value, -x value", async () => {
  assert.deepEqual(await parsed(["auth", "login", "--no-wait"]), { values: { wait: false }, args: [] });
  assert.deepEqual(await parsed(["auth", "login"]), { values: {}, args: [] });
  assert.deepEqual(await parsed(["auth", "login", "--domain", "calendar", "--domain=im", "--recommend"]), {
    values: { domain: ["calendar", "im"], recommend: true },
    args: [],
  });
  assert.deepEqual(await parsed(["skills", "list", "-q", ".data", "--format=table"]), {
    values: { jq: ".data", format: "table" },
    args: [],
  });
  // Only the negation is declared: `--wait` is unknown.
  const wait = usage(await runCli(["auth", "login", "--wait"]));
  assert.match(wait.message, /^unknown option '--wait'/);
  // A switch with no declared negation has none.
  assert.match(
    usage(await runCli(["calendar", "calendars", "list", "--no-page-all"])).message,
    /--no-page-all/,
  );
});

Deno.test("`--` ends the flags: what follows is an argument, even when it looks like one", async () => {
  // schema's [path] receives `--format` as a path, not the flag (which would want a value).
  const schema = await runCli(["schema", "--", "--format"]);
  assert.equal(schema.code, 2, schema.stderr);
  assert.equal(schema.errorJson().error.message, 'not a schema path: "--format"');
  assert.equal(
    usage(await runCli(["schema", "--format"])).message,
    "option '--format <fmt>' argument missing",
  );
  // A method takes no argument: a flag after `--` is refused, never read as a flag.
  const method = usage(await runCli(["calendar", "calendars", "list", "--", "--dry-run"]));
  assert.equal(method.message, "too many arguments for 'list'. Expected 0 arguments but got 1: --dry-run.");
  assert.deepEqual(await parsed(["skills", "show", "--", "-h"]), { values: {}, args: ["-h"] });
});

Deno.test("--x=value and global flags before, among and after the words give the same run", async () => {
  const configDir = await initConfig();
  try {
    const dry = async (argv: string[]) => {
      const r = await runCli(argv, { configDir });
      assert.equal(r.code, 0, `${JSON.stringify(argv)}: ${r.stderr}`);
      return r.json<{ data: { as: string; appId: string; api: { url: string; params?: unknown }[] } }>().data;
    };
    const plain = await dry([
      "calendar",
      "calendars",
      "list",
      "--as",
      "bot",
      "--dry-run",
      "--params",
      '{"page_size":5}',
    ]);
    assert.deepEqual(plain.api[0].params, { page_size: 5 });
    assert.equal(plain.appId, "cli_w");
    for (
      const argv of [
        ["calendar", "calendars", "list", "--as=bot", "--dry-run", '--params={"page_size":5}'],
        [
          "--offline",
          "--quiet",
          "calendar",
          "calendars",
          "list",
          "--as",
          "bot",
          "--dry-run",
          "--params",
          '{"page_size":5}',
        ],
        [
          "calendar",
          "--offline",
          "calendars",
          "--profile",
          "w",
          "list",
          "--as",
          "bot",
          "--params",
          '{"page_size":5}',
          "--dry-run",
        ],
        [
          "calendar",
          "calendars",
          "list",
          "--as",
          "bot",
          "--dry-run",
          "--params",
          '{"page_size":5}',
          "--no-color",
          "--profile=w",
        ],
        [
          "--profile",
          "w",
          "calendar",
          "calendars",
          "list",
          "--params",
          '{"page_size":5}',
          "--as",
          "bot",
          "--dry-run",
        ],
      ]
    ) assert.deepEqual(await dry(argv), plain, JSON.stringify(argv));
    // A global flag's value is not a command word: `--profile calendar` names the profile "calendar".
    const wrong = await runCli(["--profile", "calendar", "calendars", "list"], { configDir });
    assert.equal(usage(wrong).message, "unknown command 'calendars' (Did you mean calendar?)");
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

// ------------------------------------------------------------------------------------------------- strict mode

Deno.test("strict mode: a forbidden leaf is refused (its help too), hidden from help, completion and the catalogue", async () => {
  const configDir = await initConfig();
  try {
    // Before strict mode: all of it is there, so each check below can fail.
    assert.ok(terms(await help(["auth", "--help"], { configDir }), "Commands:").includes("login [options]"));
    assert.ok((await complete(["calendar", "+"], { configDir })).includes("+join-event"));
    await help(["calendar", "+join-event", "--help"], { configDir });

    await setStrictMode(configDir, "bot");
    for (
      const argv of [
        ["auth", "login"],
        ["auth", "login", "--help"],
        ["help", "auth", "login"],
        ["calendar", "+join-event", "--event-id", "x", "--dry-run"],
        ["calendar", "+join-event", "--help"],
      ]
    ) {
      const r = await runCli(argv, { configDir });
      assert.equal(r.code, 6, `${JSON.stringify(argv)}: ${r.stdout}${r.stderr}`);
      assert.equal(r.stdout, "");
      const error = r.errorJson().error;
      assert.deepEqual([error.type, error.subtype], ["policy", "strict_mode"], JSON.stringify(argv));
      assert.equal(error.message, 'strict mode is "bot": only the bot identity is allowed');
    }
    const auth = terms(await help(["auth", "--help"], { configDir }), "Commands:");
    assert.ok(!auth.includes("login [options]") && auth.includes("logout"), auth.join(", "));
    const calendar = terms(await help(["calendar"], { configDir }), "Commands:");
    assert.ok(!calendar.includes("+join-event [options]") && calendar.includes("+agenda [options]"));

    assert.ok(!(await complete(["auth", ""], { configDir })).includes("login"));
    const shortcuts = await complete(["calendar", "+"], { configDir });
    assert.ok(!shortcuts.includes("+join-event") && shortcuts.includes("+agenda"), shortcuts.join(" "));
    assert.deepEqual(
      await complete(["auth", "login", "--"], { configDir }),
      [],
      "nothing under a forbidden leaf",
    );

    const catalogue = await runCli(["commands", "--format", "ndjson"], { configDir });
    assert.equal(catalogue.code, 0, catalogue.stderr);
    const paths = catalogue.stdout.trimEnd().split("\n").map((l) => JSON.parse(l).path as string);
    assert.ok(!paths.includes("auth login") && !paths.includes("calendar +join-event"));
    assert.ok(paths.includes("auth logout") && paths.includes("calendar +agenda"));

    // Leaves that run as both identities, and identity-agnostic ones, are untouched.
    await help(["calendar", "+agenda", "--help"], { configDir });
    assert.equal((await runCli(["skills", "show", "im"], { configDir })).code, 0);
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

// -------------------------------------------------------------------------------------------------- completion

Deno.test("completion: the root's commands, a service's, a fixed group's, with descriptions", async () => {
  const root = await runCli(["__complete", ""]);
  assert.equal(root.code, 0, root.stderr);
  const lines = root.stdout.split("\n").filter(Boolean);
  assert.ok(lines.includes("calendar\tCalendar (v4)"), "value<TAB>description");
  const values = lines.map((l) => l.split("\t")[0]);
  for (const name of ["api", "config", "calendar", "im", "skills"]) assert.ok(values.includes(name), name);
  assert.ok(!values.includes("__complete") && !values.includes("help"));
  assert.deepEqual(values, [...values].sort(), "sorted");

  assert.deepEqual(await complete(["cal"]), ["calendar"]);
  assert.deepEqual(await complete(["--offline", "cal"]), ["calendar"], "a global switch before the word");
  assert.deepEqual(
    await complete(["--profile", "x", "cal"]),
    ["calendar"],
    "a global flag's value is no word",
  );

  const service = await complete(["calendar", ""]);
  for (const name of ["+agenda", "calendars", "events"]) assert.ok(service.includes(name), name);
  assert.ok(!service.includes("calendar"), "not the service again");
  assert.deepEqual(await complete(["calendar", "calendars", "li"]), ["list"]);

  assert.deepEqual(await complete(["config", ""]), [
    "default-as",
    "init",
    "remove",
    "set",
    "show",
    "strict-mode",
  ]);
  assert.deepEqual(await complete(["nosuch", ""]), []);
  // A word a service finds by name but that names no resource offers nothing (not an error).
  assert.deepEqual(await complete(["calendar", "nosuch", ""]), []);
  assert.deepEqual(await complete(["calendar", "help", ""]), []);
});

Deno.test("completion: flags and flag values: --format, --as, declared choices, --profile, schema paths", async () => {
  assert.deepEqual(await complete(["calendar", "calendars", "list", "--pa"]), [
    "--page-all",
    "--page-limit",
    "--page-size",
    "--params",
  ]);
  assert.deepEqual(await complete(["calendar", "calendars", "list", "--format", ""]), [
    "csv",
    "json",
    "ndjson",
    "pretty",
    "table",
  ]);
  assert.deepEqual(await complete(["calendar", "+agenda", "--as", ""]), ["auto", "bot", "user"]);
  const types = await complete(["im", "+messages-send", "--msg-type", ""]);
  for (const t of ["text", "post", "interactive"]) assert.ok(types.includes(t), t);
  assert.deepEqual(await complete(["im", "+messages-send", "--msg-type", "te"]), ["text"]);

  const configDir = await initConfig();
  try {
    assert.deepEqual(await complete(["--profile", ""], { configDir }), ["w"]);
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }

  assert.deepEqual(await complete(["schema", "cal"]), ["calendar"]);
  const paths = await complete(["schema", "calendar.calendars."]);
  assert.ok(paths.includes("calendar.calendars.list"), paths.join(" "));
  assert.ok(paths.every((p) => p.startsWith("calendar.calendars.")), paths.join(" "));
});
