/**
 * For the tests that hold a lean answer (`cli/fast/`) against the commander tree's, byte for byte: the same
 * argv run both ways, a config dir ready for strict mode, and a registry overlay in force.
 */
import assert from "node:assert/strict";
import { createRunContext, type RunContext } from "../../cli/context.ts";
import { prescanGlobals } from "../../cli/globals.ts";
import { runCli } from "../../cli/run.ts";
import { cliProvider, type RunOptions } from "./run_cli.ts";

export interface Answer {
  code: number;
  stdout: string;
  stderr: string;
}

/** A gate that allows everything: a host's run, which leaves `--help`, a Tab and `commands` to the tree. */
const ALLOW_ALL = { gate: () => undefined };

/** `argv` answered by the tree. */
export async function viaTree(argv: string[], configDir: string, opts: RunOptions = {}): Promise<Answer> {
  const p = cliProvider({ configDir, ...opts });
  const code = await runCli(argv, p, ALLOW_ALL);
  return { code, stdout: p.out.text(), stderr: p.err.text() };
}

/** `argv` answered by one lean answerer (`runHelp`, `runComplete`); undefined when it leaves argv to the tree. */
export async function answerLean(
  answer: (argv: string[], ctx: RunContext) => Promise<number | undefined>,
  argv: string[],
  configDir: string,
  opts: RunOptions = {},
): Promise<Answer | undefined> {
  const p = cliProvider({ configDir, ...opts });
  const code = await answer(argv, createRunContext(p, prescanGlobals(argv, p.env), argv));
  return code === undefined ? undefined : { code, stdout: p.out.text(), stderr: p.err.text() };
}

/** `argv` as a terminal runs it: lean where it answers, the tree otherwise. */
export async function viaRun(argv: string[], configDir: string, opts: RunOptions = {}): Promise<Answer> {
  const p = cliProvider({ configDir, ...opts });
  const code = await runCli(argv, p);
  return { code, stdout: p.out.text(), stderr: p.err.text() };
}

/** The lean `answer` leaves `argv` to the tree, and a run as a terminal runs it answers as the tree does. */
export async function assertLeftToTree(
  answer: (argv: string[], ctx: RunContext) => Promise<number | undefined>,
  argv: string[],
  configDir: string,
  label: string,
): Promise<void> {
  assert.equal(await answerLean(answer, argv, configDir), undefined, label);
  assert.deepEqual(await viaRun(argv, configDir), await viaTree(argv, configDir), label);
}

/** A config dir with an app configured (`config init`, profile `name`), which `config strict-mode` needs. */
export async function initConfig(configDir: string, name = "w"): Promise<void> {
  const init = cliProvider({ configDir, stdin: "s\n" });
  const argv = ["config", "init", "--name", name, "--app-id", "cli_w", "--app-secret-stdin"];
  assert.equal(await runCli(argv, init), 0, init.err.text());
}

export async function setStrictMode(configDir: string, mode: string): Promise<void> {
  const p = cliProvider({ configDir });
  assert.equal(await runCli(["config", "strict-mode", mode], p), 0, p.err.text());
}

/**
 * Writes into `cacheDir` a registry overlay (version 2099.01.01) serving calendar with one method more:
 * `list_again`, made by `extra` from calendars.list (which `extra` may also change). Returns the env that
 * puts the overlay in force.
 */
export async function calendarOverlay(
  cacheDir: string,
  extra: (list: Record<string, unknown>) => Record<string, unknown>,
): Promise<Record<string, string>> {
  const base = new URL("../../registry/baseline/", import.meta.url);
  const index = JSON.parse(await Deno.readTextFile(new URL("index.json", base)));
  const calendar = JSON.parse(await Deno.readTextFile(new URL("services/calendar.json", base)));
  const methods = calendar.resources.calendars.methods;
  methods.list_again = extra(methods.list);
  const summary = index.services.find((s: { name: string }) => s.name === "calendar");
  await Deno.mkdir(`${cacheDir}/registry/services`, { recursive: true });
  await Deno.writeTextFile(
    `${cacheDir}/registry/overlay.json`,
    JSON.stringify({
      ...index,
      version: "2099.01.01",
      services: [{ ...summary, methods: summary.methods + 1 }],
    }),
  );
  await Deno.writeTextFile(`${cacheDir}/registry/services/calendar.json`, JSON.stringify(calendar));
  return { LARKIT_CACHE_DIR: cacheDir, LARKIT_REMOTE_META: "on" };
}
