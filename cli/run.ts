/**
 * Runs one argv against a provider and returns the exit code. `main.ts` and the agent server's turns both
 * call this, so a remote turn runs exactly what a terminal runs, streaming to the writers it is given.
 */
import { CommanderError } from "commander";
import { resolve } from "node:path";
import { createRunContext, type Globals } from "./context.ts";
import { recordingEdges, replayEdges } from "./record/session.ts";
import { emitError } from "./output/emit.ts";
import { errors, type LarkitError, toLarkitError } from "./output/errors.ts";
import type { Env, Provider } from "./provider.ts";
import { buildTree, configureAll, positionalWords } from "./tree.ts";

/** Global flags are read before the tree exists: the profile and strict mode decide what the tree holds. */
export function prescanGlobals(argv: string[], env: Env): Globals {
  const before = argv.indexOf("--") === -1 ? argv : argv.slice(0, argv.indexOf("--"));
  const valueOf = (flag: string, fallback?: string) => {
    let value = fallback || undefined;
    for (let i = 0; i < before.length; i++) {
      if (before[i] === flag) value = before[i + 1];
      else if (before[i].startsWith(`${flag}=`)) value = before[i].slice(flag.length + 1);
    }
    return value;
  };
  return {
    profile: valueOf("--profile", env.get("LARKIT_PROFILE")),
    record: valueOf("--record", env.get("LARKIT_RECORD")),
    replay: valueOf("--replay", env.get("LARKIT_REPLAY")),
    debug: before.includes("--debug"),
    color: !before.includes("--no-color") && env.get("NO_COLOR") === undefined,
    offline: before.includes("--offline"),
  };
}

const HELP_CODES = new Set(["commander.helpDisplayed", "commander.version", "commander.help"]);

function usageFromCommander(e: CommanderError, argv: string[]): LarkitError {
  const message = e.message.replace(/^error: /, "").replace(/\n+/g, " ").trim();
  const words = positionalWords(argv);
  const where = e.code === "commander.unknownCommand" ? words.slice(0, -1) : words;
  return errors.usage(message, {
    detail: { reason: e.code.replace(/^commander\./, "") },
    hint: `run \`larkit ${[...where, "--help"].join(" ")}\` to see the commands and flags`,
  });
}

/** `--record`/`--replay` swap the provider's network, random ids and clock before anything runs. */
async function withRecordReplay(p: Provider, globals: Globals): Promise<Provider> {
  if (globals.record && globals.replay) {
    throw errors.usage("--record and --replay cannot be combined", { hint: "record first, then replay" });
  }
  if (globals.replay) return await replayEdges(p, resolve(p.cwd, globals.replay));
  if (globals.record) return recordingEdges(p, resolve(p.cwd, globals.record));
  return p;
}

export async function runCli(argv: string[], original: Provider): Promise<number> {
  const globals = prescanGlobals(argv, original.env);
  let ctx = createRunContext(original, globals, argv);
  let captured = "";
  try {
    ctx = createRunContext(await withRecordReplay(original, globals), globals, argv);
    const program = await buildTree(argv, ctx);
    configureAll(program, (text) => captured += text);
    await program.parseAsync(argv, { from: "user" });
    return ctx.state.exitCode ?? 0;
  } catch (e) {
    if (e instanceof CommanderError && HELP_CODES.has(e.code)) {
      await ctx.p.stdout.write(captured);
      return 0;
    }
    const err = e instanceof CommanderError ? usageFromCommander(e, argv) : toLarkitError(e);
    await emitError(ctx, err);
    return err.exitCode;
  } finally {
    // The result is already written; background work (registry overlay refresh) finishes before exit.
    await Promise.allSettled(ctx.state.background ?? []);
  }
}
