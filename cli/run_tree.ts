/**
 * The commander half of a run: builds the tree for argv, parses it, and turns commander's own exits (help,
 * version, usage errors) into the run's output. `cli/run.ts` loads it only for runs that need the tree, so
 * answers given without it (a bare `--version`) never load commander and its Node-compat modules.
 */
import { type Command, CommanderError } from "commander";
import { apiOperand, type CommandGate, commandPath, metaOf, turnPolicyOf } from "./command_meta.ts";
import type { RunContext } from "./context.ts";
import { positionalWords, refuseHostFlags } from "./globals.ts";
import { asksHelp, land } from "./usage.ts";
import { emitRendered } from "./output/emit.ts";
import type { LarkitError } from "./output/errors.ts";
import { usageError } from "./resolve/usage.ts";
import { buildTree, configureAll } from "./tree.ts";

const HELP_CODES = new Set(["commander.helpDisplayed", "commander.version", "commander.help"]);

function usageFromCommander(e: CommanderError, argv: string[], program?: Command): LarkitError {
  const message = e.message.replace(/^error: /, "").replace(/\n+/g, " ").trim();
  const at = program ? land(program, argv) : { path: positionalWords(argv), suggestions: [] };
  return usageError(message, e.code.replace(/^commander\./, ""), at);
}

/**
 * The suite service a resolved command addresses: its first word, or for raw `api` the path's segment (and the
 * host its operand names, if any).
 */
function targetOf(path: string[], cmd: Command): { service?: string; host?: string } {
  if (path[0] !== "api") return { service: metaOf(cmd)?.layer === "builtin" ? undefined : path[0] };
  return apiOperand(cmd.args[1] ?? "");
}

/**
 * Runs argv through the tree. Help and version output are written here (exit 0); commander's usage errors
 * are thrown as `usage` errors; anything else a command throws passes through unchanged.
 */
export async function runTree(argv: string[], ctx: RunContext, gate?: CommandGate): Promise<number> {
  let captured = "";
  let program: Command | undefined;
  try {
    program = await buildTree(argv, ctx);
    configureAll(program, (text) => captured += text, ctx.p.stdout.isTTY ? ctx.p.stdout.columns : undefined);
    // Commander answers `nosuch --help` with the parent's help and exit 0: a misspelt command is an error.
    const at = asksHelp(argv) ? land(program, argv) : undefined;
    if (at?.unknown !== undefined) throw usageError(`unknown command '${at.unknown}'`, "unknownCommand", at);
    if (gate) {
      // Decided on the leaf commander resolved, after parsing: argv tricks (`--`, quoting) cannot hide it.
      program.hook("preAction", (_root, leaf) => {
        const path = commandPath(leaf);
        const refusal = gate({
          path,
          layer: metaOf(leaf)?.layer ?? "builtin",
          ...targetOf(path, leaf),
          turn: turnPolicyOf(leaf),
        });
        if (refusal) throw refusal;
        const flags = leaf.optsWithGlobals();
        refuseHostFlags({ ...ctx.globals, record: flags.record, replay: flags.replay });
      });
    }
    await program.parseAsync(argv, { from: "user" });
    return ctx.state.exitCode ?? 0;
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    if (HELP_CODES.has(e.code)) {
      await emitRendered(ctx, captured);
      return 0;
    }
    throw usageFromCommander(e, argv, program);
  }
}
