/**
 * Runs one argv against a provider and returns the exit code. `main.ts` and the agent server's turns both
 * call this, so a remote turn runs exactly what a terminal runs, streaming to the writers it is given.
 */
import { type Command, CommanderError } from "commander";
import { type CommandGate, commandPath, metaOf, turnPolicyOf } from "./command_meta.ts";
import { createRunContext, type Globals, type RunHooks } from "./context.ts";
import { positionalWords, prescanGlobals } from "./globals.ts";
import { asksHelp, land, type Landing } from "./usage.ts";
import { emitError, emitRendered } from "./output/emit.ts";
import { errors, type LarkitError, toLarkitError } from "./output/errors.ts";
import type { Provider } from "./provider.ts";
import type * as RecordSession from "./record/session.ts";
import { buildTree, configureAll } from "./tree.ts";

/**
 * Imports through a specifier Deno cannot resolve ahead of time, so the module stays out of every run's
 * start-up graph (a literal specifier is loaded up front); the type import keeps it type-checked and
 * `deno task compile` lists it for `--include`.
 */
const later = <T>(path: string): Promise<T> => import(path);

const HELP_CODES = new Set(["commander.helpDisplayed", "commander.version", "commander.help"]);

/** A usage error whose hint names the deepest command that exists, with did-you-mean suggestions. */
function usageError(message: string, reason: string, at: Landing): LarkitError {
  const detail: Record<string, unknown> = { reason };
  if (at.unknown !== undefined) Object.assign(detail, { word: at.unknown, suggestions: at.suggestions });
  const maybe = at.suggestions.length ? `did you mean ${at.suggestions.join(", ")}? ` : "";
  return errors.usage(message, {
    detail,
    hint: `${maybe}run \`larkit ${[...at.path, "--help"].join(" ")}\` to see the commands and flags`,
  });
}

function usageFromCommander(e: CommanderError, argv: string[], program?: Command): LarkitError {
  const message = e.message.replace(/^error: /, "").replace(/\n+/g, " ").trim();
  const at = program ? land(program, argv) : { path: positionalWords(argv), suggestions: [] };
  return usageError(message, e.code.replace(/^commander\./, ""), at);
}

/** Recording and replaying read and write files of this machine: a host's run (a turn) may not ask for them. */
function refuseHostFlags(given: Pick<Globals, "record" | "replay">): void {
  const flag = given.record !== undefined ? "--record" : given.replay !== undefined ? "--replay" : undefined;
  if (flag) {
    throw errors.permission(`${flag} cannot be used inside an agent-server turn`, {
      hint: "it reads or writes files on the server's machine; record in a terminal instead",
    });
  }
}

/**
 * `--record`/`--replay` swap the provider's network, random ids and clock before anything runs. Their modules
 * load only for such a run (start-up).
 */
async function withRecordReplay(p: Provider, globals: Globals): Promise<Provider> {
  if (globals.record && globals.replay) {
    throw errors.usage("--record and --replay cannot be combined", { hint: "record first, then replay" });
  }
  if (!globals.replay && !globals.record) return p;
  const [{ resolve }, { recordingEdges, replayEdges }] = await Promise.all([
    import("node:path"),
    later<typeof RecordSession>("./record/session.ts"),
  ]);
  if (globals.replay) return await replayEdges(p, resolve(p.cwd, globals.replay));
  return recordingEdges(p, resolve(p.cwd, globals.record as string));
}

/** The suite service a resolved command addresses: its first word, or for raw `api` the path's segment. */
function serviceOf(path: string[], cmd: Command): string | undefined {
  if (path[0] !== "api") return metaOf(cmd)?.layer === "builtin" ? undefined : path[0];
  const apiPath = cmd.args[1] ?? "";
  return /^\/?open-apis\/([^/?]+)/.exec(apiPath)?.[1];
}

export interface RunOptions {
  /**
   * The host's check of the resolved command (the agent server's turn rules). With a gate, the command line's
   * own `--record`/`--replay` are refused too: they write or read files of this machine.
   */
  gate?: CommandGate;
}

const HOOKS: RunHooks = {
  tree: (argv, ctx, opts) => buildTree(argv, ctx, opts),
  run: (argv, p, opts) => runCli(argv, p, opts),
};

export async function runCli(argv: string[], original: Provider, opts: RunOptions = {}): Promise<number> {
  const globals = prescanGlobals(argv, original.env);
  let ctx = createRunContext(original, globals, argv, HOOKS);
  let captured = "";
  let program: Command | undefined;
  try {
    if (opts.gate) refuseHostFlags(prescanGlobals(argv, { get: () => undefined }));
    ctx = createRunContext(await withRecordReplay(original, globals), globals, argv, HOOKS);
    program = await buildTree(argv, ctx);
    configureAll(program, (text) => captured += text);
    // Commander answers `nosuch --help` with the parent's help and exit 0: a misspelt command is an error.
    const at = asksHelp(argv) ? land(program, argv) : undefined;
    if (at?.unknown !== undefined) throw usageError(`unknown command '${at.unknown}'`, "unknownCommand", at);
    const gate = opts.gate;
    if (gate) {
      // Decided on the leaf commander resolved, after parsing: argv tricks (`--`, quoting) cannot hide it.
      program.hook("preAction", (_root, leaf) => {
        const path = commandPath(leaf);
        const refusal = gate({
          path,
          layer: metaOf(leaf)?.layer ?? "builtin",
          service: serviceOf(path, leaf),
          turn: turnPolicyOf(leaf),
        });
        if (refusal) throw refusal;
        const flags = leaf.optsWithGlobals();
        refuseHostFlags({ ...globals, record: flags.record, replay: flags.replay });
      });
    }
    await program.parseAsync(argv, { from: "user" });
    return ctx.state.exitCode ?? 0;
  } catch (e) {
    if (e instanceof CommanderError && HELP_CODES.has(e.code)) {
      await emitRendered(ctx, captured);
      return 0;
    }
    // An interrupted run reports the interruption, whatever the abort surfaced as where it landed.
    const err = original.signal.aborted
      ? toLarkitError(original.signal.reason)
      : e instanceof CommanderError
      ? usageFromCommander(e, argv, program)
      : toLarkitError(e);
    await emitError(ctx, err);
    return err.exitCode;
  }
}
