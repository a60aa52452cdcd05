/**
 * Runs one argv against a provider and returns the exit code. `main.ts` and the agent server's turns both
 * call this, so a remote turn runs exactly what a terminal runs, streaming to the writers it is given.
 */
import { CommanderError } from "commander";
import { createRunContext, type Globals } from "./context.ts";
import { emitError } from "./output/emit.ts";
import { errors, type LarkitError, toLarkitError } from "./output/errors.ts";
import type { Env, Provider } from "./provider.ts";
import { buildTree, configureAll, positionalWords } from "./tree.ts";

/** Global flags are read before the tree exists: the profile and strict mode decide what the tree holds. */
export function prescanGlobals(argv: string[], env: Env): Globals {
  const before = argv.indexOf("--") === -1 ? argv : argv.slice(0, argv.indexOf("--"));
  let profile = env.get("LARKIT_PROFILE") || undefined;
  for (let i = 0; i < before.length; i++) {
    if (before[i] === "--profile") profile = before[i + 1];
    else if (before[i].startsWith("--profile=")) profile = before[i].slice("--profile=".length);
  }
  return {
    profile,
    debug: before.includes("--debug"),
    color: !before.includes("--no-color") && env.get("NO_COLOR") === undefined,
    offline: before.includes("--offline") || env.get("LARKIT_REMOTE_META") === "off",
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

export async function runCli(argv: string[], p: Provider): Promise<number> {
  const ctx = createRunContext(p, prescanGlobals(argv, p.env));
  let captured = "";
  try {
    const program = await buildTree(argv, ctx);
    configureAll(program, (text) => captured += text);
    await program.parseAsync(argv, { from: "user" });
    return ctx.state.exitCode ?? 0;
  } catch (e) {
    if (e instanceof CommanderError && HELP_CODES.has(e.code)) {
      await p.stdout.write(captured);
      return 0;
    }
    const err = e instanceof CommanderError ? usageFromCommander(e, argv) : toLarkitError(e);
    await emitError(ctx, err);
    return err.exitCode;
  }
}
