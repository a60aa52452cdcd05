/**
 * The lean `--help` (`cli/fast/help.ts`) prints exactly what the commander tree prints: every service's help,
 * a daily rotating sample of the shortcuts' and of resources and methods (first, middle and last of each
 * service; `HELP_SAMPLE_SEED` replays a day's sample), the `help
 * <command>` and `-h` spellings, global flags around them, and terminal widths that wrap differently. Each
 * line is answered by the lean path directly (it must answer, not fall back) and by the tree (a run with a
 * gate that allows everything always takes the tree), and the two must match byte for byte. Lines the lean
 * path leaves to the tree (root help, strict mode, an unknown word, other flags) must still match end to end.
 * `cli/fast/help_static.ndjson` (the shortcuts' help and completion data) is written by `deno task gen`
 * (`tests/manifest_test.ts` checks it is fresh).
 */
import assert from "node:assert/strict";
import { registryOf } from "../cli/api_commands/registry_of.ts";
import { FIXED_NAMES } from "../cli/commands/index.ts";
import { createRunContext } from "../cli/context.ts";
import { runHelp } from "../cli/fast/help.ts";
import { prescanGlobals } from "../cli/globals.ts";
import { loadShortcuts, SHORTCUT_SERVICES } from "../shortcuts/index.ts";
import {
  answerLean,
  assertLeftToTree,
  calendarOverlay,
  initConfig,
  setStrictMode,
  viaRun,
  viaTree,
} from "./helpers/lean_vs_tree.ts";
import { cliProvider, type RunOptions } from "./helpers/run_cli.ts";
import { daySeed, sampleOf } from "./helpers/sample.ts";

const viaLean = (argv: string[], configDir: string, opts?: RunOptions) =>
  answerLean(runHelp, argv, configDir, opts);
const SEED = daySeed("HELP_SAMPLE_SEED");
/** Names the sample in a failure, so it can be replayed. */
const seeded = (argv: string[]) => `${argv.join(" ")} (HELP_SAMPLE_SEED=${SEED} to replay)`;

const pick = <T>(xs: T[]): T[] => [...new Set([xs[0], xs[Math.floor(xs.length / 2)], xs[xs.length - 1]])];

/**
 * Every service's help, and of the other lines (resources, methods, every shortcut: ~700, too many to compare
 * on every run) a daily rotating sample of `others`.
 */
async function sweepLines(configDir: string, others: number): Promise<string[][]> {
  const p = cliProvider({ configDir });
  const registry = await registryOf(createRunContext(p, prescanGlobals([], p.env)));
  const services = new Set([
    ...registry.listServices().map((s) => s.name),
    ...Object.keys(SHORTCUT_SERVICES),
  ]);
  const lines: string[][] = [];
  for (const service of [...services].sort()) {
    if (FIXED_NAMES.has(service) || service === "event") continue;
    lines.push([service, "--help"]);
    const methods = await registry.methods(service);
    for (const resource of pick([...new Set(methods.map((m) => m.resource))]).filter(Boolean)) {
      lines.push([service, resource, "--help"]);
      for (const m of pick(methods.filter((x) => x.resource === resource))) {
        lines.push([service, resource, m.name, "--help"]);
      }
    }
    for (const s of await loadShortcuts(service)) lines.push([service, s.command, "--help"]);
  }
  const isService = (argv: string[]) => argv.length === 2;
  return [...lines.filter(isService), ...sampleOf(lines.filter((argv) => !isService(argv)), others, SEED)];
}

Deno.test("lean --help is byte for byte the tree's: every service, a rotating sample of shortcuts, resources and methods", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-help-" });
  try {
    const lines = await sweepLines(configDir, 120);
    assert.ok(lines.length >= 150, `only ${lines.length} command lines`);
    for (const argv of lines) {
      const lean = await viaLean(argv, configDir);
      assert.ok(lean, `the lean path left ${seeded(argv)} to the tree`);
      assert.deepEqual(lean, await viaTree(argv, configDir), seeded(argv));
    }
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("lean --help: other spellings, global flags around them, terminal widths", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-help-" });
  try {
    const lines: [string[], RunOptions?][] = [
      [["--help"]],
      [["help"]],
      [["-h", "--debug"]],
      [["--help"], { stdoutIsTTY: true, columns: 150 }],
      [["help", "calendar"]],
      [["calendar", "help", "events"]],
      [["calendar", "events", "help", "get"]],
      [["calendar", "help"]],
      [["calendar", "help", "+agenda"]],
      [["calendar", "events", "-h"]],
      [["--debug", "calendar", "+agenda", "--help", "--profile", "p"]],
      [["calendar", "events", "get", "--help", "--offline", "--no-color"]],
      [["calendar", "+agenda", "--help"], { stdoutIsTTY: true, columns: 120 }],
      [["calendar", "--help"], { stdoutIsTTY: true, columns: 60 }],
      [["calendar", "events", "--help"], { stdoutIsTTY: true, columns: 200 }],
      [["calendar", "events", "list", "--help"], { stdoutIsTTY: true, columns: 30 }],
      [["im", "+messages-send", "--help"], { stdoutIsTTY: true, columns: 100 }],
    ];
    for (const [argv, opts] of lines) {
      const lean = await viaLean(argv, configDir, opts);
      assert.ok(lean, `the lean path left ${argv.join(" ")} to the tree`);
      assert.deepEqual(lean, await viaTree(argv, configDir, opts), argv.join(" "));
    }
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("what lean --help leaves to the tree still reads the same end to end", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-help-" });
  try {
    const lines = [
      ["config", "--help"],
      ["help", "config"],
      ["event", "--help"],
      ["calendar", "nosuch", "--help"],
      ["calendar", "--help", "events"],
      ["--help", "calendar"],
      ["calendar", "events", "get", "help"],
      ["help", "calendar", "events"],
      ["calendar", "events", "list", "--as", "bot", "--help"],
      ["calendar", "--profile", "--help"],
      ["calendar", "--version", "--help"],
    ];
    for (const argv of lines) await assertLeftToTree(runHelp, argv, configDir, argv.join(" "));
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("in strict mode lean --help prunes as the tree prunes; a forbidden leaf and the root go to the tree", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-help-" });
  try {
    await initConfig(configDir);
    const lines = await sweepLines(configDir, 30);
    for (const mode of ["bot", "user"]) {
      await setStrictMode(configDir, mode);
      let answered = 0;
      for (const argv of [...lines, ["--help"], ["calendar", "+join-event", "--help"]]) {
        const lean = await viaLean(argv, configDir);
        const tree = await viaTree(argv, configDir);
        assert.deepEqual(await viaRun(argv, configDir), tree, `${mode}: ${seeded(argv)}`);
        if (lean) assert.deepEqual(lean, tree, `${mode}: ${seeded(argv)}`);
        answered += lean ? 1 : 0;
      }
      assert.ok(
        answered > lines.length / 2,
        `${mode}: the lean path answered only ${answered} of ${lines.length}`,
      );
      assert.equal(await viaLean(["--help"], configDir), undefined);
      const calendar = await viaLean(["calendar", "--help"], configDir);
      // +join-event runs as a user only.
      assert.equal(
        calendar?.stdout.includes("+join-event"),
        mode === "user",
        calendar?.stdout ?? "no lean answer",
      );
      assert.equal(
        await viaLean(["calendar", "+join-event", "--help"], configDir) === undefined,
        mode === "bot",
      );
    }
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("with a registry overlay in force, lean help shows the overlay's methods; the root's list goes to the tree", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-help-" });
  const cacheDir = await Deno.makeTempDir({ prefix: "larkit-help-cache-" });
  try {
    const env = await calendarOverlay(
      cacheDir,
      (list) => ({ ...list, summary: "A method only the overlay has" }),
    );
    const opts: RunOptions = { env };
    const argv = ["calendar", "calendars", "--help"];
    const lean = await viaLean(argv, configDir, opts);
    assert.match(lean?.stdout ?? "", /list_again \[options\] +A method only the overlay has/);
    assert.deepEqual(lean, await viaTree(argv, configDir, opts));
    assert.equal(await viaLean(["--help"], configDir, opts), undefined);
  } finally {
    await Deno.remove(configDir, { recursive: true });
    await Deno.remove(cacheDir, { recursive: true });
  }
});
