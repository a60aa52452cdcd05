/**
 * Runs one argv against a provider and returns the exit code. `main.ts` and the agent server's turns both
 * call this, so a remote turn runs exactly what a terminal runs, streaming to the writers it is given. The
 * resolver (`cli/resolve/`) and the command modules load only for runs that need them.
 */
import type { CommandGate } from "./command_meta.ts";
import { createRunContext, type Globals, type RunHooks } from "./context.ts";
import { asksOnlyVersion, prescanGlobals, refuseHostFlags, versionText } from "./globals.ts";
import { emitError, emitRendered } from "./output/emit.ts";
import { errors, LarkitError, toLarkitError } from "./output/errors.ts";
import type { Provider } from "./provider.ts";
import { lazy } from "./lazy.ts";
import { FIXED_NAMES } from "./resolve/fixed_commands.ts";

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
    lazy("cli/record/session.ts"),
  ]);
  if (globals.replay) return await replayEdges(p, resolve(p.cwd, globals.replay));
  return recordingEdges(p, resolve(p.cwd, globals.record as string));
}

export interface RunOptions {
  /**
   * The host's check of the resolved command (the agent server's turn rules). With a gate, the command line's
   * own `--record`/`--replay` are refused too: they write or read files of this machine.
   */
  gate?: CommandGate;
}

const HOOKS: RunHooks = {
  run: (argv, p, opts) => runCli(argv, p, opts),
};

export async function runCli(argv: string[], original: Provider, opts: RunOptions = {}): Promise<number> {
  const globals = prescanGlobals(argv, original.env);
  let ctx = createRunContext(original, globals, argv, HOOKS);
  try {
    if (opts.gate) refuseHostFlags(prescanGlobals(argv, { get: () => undefined }));
    ctx = createRunContext(await withRecordReplay(original, globals), globals, argv, HOOKS);
    // The one answer that needs no command node.
    if (asksOnlyVersion(argv)) {
      await emitRendered(ctx, `${versionText(ctx.p.version)}\n`);
      return 0;
    }
    // A Tab of completion takes the words exactly as typed (global flags included): not the resolver's parse.
    if (!opts.gate && argv[0] === "__complete") {
      await (await lazy("cli/commands/completion.ts")).runComplete(argv.slice(1), ctx);
      return ctx.state.exitCode ?? 0;
    }
    // A suite command's line needs the services' nodes: they load beside the resolver, not after it (start-up).
    const suite = argv[0] !== undefined && !argv[0].startsWith("-") && !FIXED_NAMES.has(argv[0]);
    const [{ runLine }] = await Promise.all([
      lazy("cli/resolve/run.ts"),
      suite ? lazy("cli/resolve/services.ts") : undefined,
    ]);
    return await runLine(argv, ctx, opts.gate);
  } catch (e) {
    // An interrupted run reports the interruption, whatever the abort surfaced as where it landed (told with
    // what it means there when the code it struck said so: a write's key, a prompt where nothing was sent).
    const told = e instanceof LarkitError && e.type === "interrupted";
    const err = original.signal.aborted && !told ? toLarkitError(original.signal.reason) : toLarkitError(e);
    await emitError(ctx, err);
    return err.exitCode;
  }
}
