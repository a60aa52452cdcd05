/**
 * One Tab answered by the lean path (`cli/fast/complete.ts`) gives exactly the tree's candidates: for every
 * service its commands, and a daily rotating sample (`COMPLETE_SAMPLE_SEED` replays one) of prefixes of them,
 * and for sampled resources, methods and shortcuts
 * their flags, flag values (`--params` enum objects, shortcut choices, `--format`, `--as`, `--profile`),
 * values with quotes in them, `--flag=value` words and global flags among the words. Each line is answered
 * by the lean path directly (it must answer, not fall back) and by the tree (a run with a gate that allows
 * everything always takes the tree), byte for byte. Lines it leaves to the tree must still match end to end.
 */
import assert from "node:assert/strict";
import { registryOf } from "../cli/api_commands/registry_of.ts";
import { FIXED_NAMES } from "../cli/commands/index.ts";
import { createRunContext } from "../cli/context.ts";
import { runComplete } from "../cli/fast/complete.ts";
import { prescanGlobals } from "../cli/globals.ts";
import { loadShortcuts, SHORTCUT_SERVICES } from "../shortcuts/index.ts";
import { answerLean, assertLeftToTree, initConfig, setStrictMode, viaTree } from "./helpers/lean_vs_tree.ts";
import { cliProvider } from "./helpers/run_cli.ts";
import { daySeed, sampleOf } from "./helpers/sample.ts";

const viaLean = (argv: string[], configDir: string) => answerLean(runComplete, argv, configDir);

const pick = <T>(xs: T[]): T[] => [...new Set([xs[0], xs[xs.length - 1]])];

/**
 * Partial command lines (the words after `larkit`, the last one under the cursor) across the services: each
 * service's first word always, and of the rest (~600, too many to compare on every run) a daily rotating
 * sample of `others`.
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
    lines.push([service, ""], [service, "+"], [service, service.slice(0, 1)]);
    const methods = await registry.methods(service);
    // The first and last method of the service, through its resource.
    for (const m of pick(methods).filter(Boolean)) {
      const at = [service, m.resource, m.name];
      lines.push([service, m.resource, ""], [...at, "--"], [...at, "--params", ""], [...at, "--as", "b"]);
    }
    // The first shortcut's flags; every shortcut flag with choices, its values.
    const shortcuts = await loadShortcuts(service);
    if (shortcuts.length) lines.push([service, shortcuts[0].command, "--"]);
    for (const s of shortcuts) {
      for (const [name, spec] of Object.entries(s.flags)) {
        if (spec.choices) lines.push([service, s.command, `--${name}`, ""]);
      }
    }
  }
  const isService = (words: string[]) => words.length === 2 && words[1] === "";
  return [...lines.filter(isService), ...sampleOf(lines.filter((w) => !isService(w)), others, SEED)];
}

const SEED = daySeed("COMPLETE_SAMPLE_SEED");
/** Names the sample in a failure, so it can be replayed. */
const seeded = (words: string[]) => `${JSON.stringify(words)} (COMPLETE_SAMPLE_SEED=${SEED} to replay)`;

const withLean = async (lines: string[][], configDir: string) => {
  for (const words of lines) {
    const argv = ["__complete", ...words];
    const lean = await viaLean(argv, configDir);
    assert.ok(lean, `the lean path left ${seeded(words)} to the tree`);
    assert.deepEqual(lean, await viaTree(argv, configDir), seeded(words));
  }
};

Deno.test("lean completion is byte for byte the tree's across every service and a rotating sample of methods and shortcuts", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-complete-" });
  try {
    const lines = await sweepLines(configDir, 160);
    assert.ok(lines.length >= 190, `only ${lines.length} command lines`);
    await withLean(lines, configDir);
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("lean completion: the root, global flags among the words, --flag=value, quotes, profiles, aliases, nothing to offer", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-complete-" });
  try {
    await initConfig(configDir, "work");
    await withLean([
      [],
      [""],
      ["cal"],
      ["c"],
      ["-"],
      ["--pro"],
      ["--profile", ""],
      ["--debug", "--profile", "work", ""],
      ["--profile", "work", "calendar", "+ag"],
      ["--debug", "calendar", "events", ""],
      ["calendar", "--profile", ""],
      ["calendar", "events", "get", "--profile", "w"],
      ["calendar", "events", "get", "--params", '{"user_id_type":"'],
      ["calendar", "events", "get", "--params='{}'", "--"],
      ["calendar", "events", "get", "--format=json", "--f"],
      ["calendar", "events", "get", "-o", "out.json", "--"],
      ["calendar", "events", "get", "--as", "bot", "--dry-run", ""],
      ["calendar", "events", "nosuch", ""],
      ["calendar", "+agenda", "--start", ""],
      ["calendar", "+agenda", "-q", ""],
      ["calendar", "events", "--", ""],
      ["drive", "+export-download", "--file-"],
      ["im", "+messages-send", "--msg-type", "t"],
      ["calendar", "+agenda", "--help", ""],
      ["calendar", "it's", ""],
      ["base", "+records-list", "--"],
      ["im", "+messages-list", "--"],
      ["calendar", "-"],
      ["calendar", "events", "--"],
    ], configDir);
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("what lean completion leaves to the tree still reads the same end to end", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-complete-" });
  try {
    for (
      const words of [
        ["--", "config", ""],
        ["config", ""],
        ["event", ""],
        ["schema", "calendar.events.ge"],
        ["calendar", "--version", ""],
        ["calendar", "events", "--profile"],
        ["nosuch", ""],
      ]
    ) {
      await assertLeftToTree(runComplete, ["__complete", ...words], configDir, JSON.stringify(words));
    }
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("in strict mode lean completion prunes as the tree prunes; the root goes to the tree", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-complete-" });
  try {
    await initConfig(configDir);
    const lines = await sweepLines(configDir, 40);
    for (const mode of ["bot", "user"]) {
      await setStrictMode(configDir, mode);
      let answered = 0;
      for (const words of [...lines, ["calendar", "+join-event", "--"], ["calendar", "+j"]]) {
        const argv = ["__complete", ...words];
        const lean = await viaLean(argv, configDir);
        if (lean) assert.deepEqual(lean, await viaTree(argv, configDir), `${mode}: ${seeded(words)}`);
        answered += lean ? 1 : 0;
      }
      assert.ok(
        answered > lines.length / 2,
        `${mode}: the lean path answered only ${answered} of ${lines.length}`,
      );
      assert.equal(await viaLean(["__complete", ""], configDir), undefined);
      // +join-event runs as a user only: in bot mode it is a hidden stub, walked into but never offered.
      const offered = await viaLean(["__complete", "calendar", "+j"], configDir);
      assert.equal(
        offered?.stdout.includes("+join-event"),
        mode === "user",
        offered?.stdout ?? "no lean answer",
      );
    }
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});
