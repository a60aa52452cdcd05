/**
 * Runs one argv against a provider and returns the exit code. `main.ts` and the agent server's turns both
 * call this, so a remote turn runs exactly what a terminal runs, streaming to the writers it is given.
 * Commander, the tree and the command modules load only for runs that need them (`cli/run_tree.ts`).
 */
import type { CommandGate } from "./command_meta.ts";
import { createRunContext, type Globals, type RunHooks } from "./context.ts";
import { asksOnlyVersion, prescanGlobals, refuseHostFlags, versionText } from "./globals.ts";
import { emitError, emitRendered } from "./output/emit.ts";
import { errors, LarkitError, toLarkitError } from "./output/errors.ts";
import type { Provider } from "./provider.ts";
import { lazy } from "./lazy.ts";

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
  tree: async (argv, ctx, opts) => (await lazy("cli/tree.ts")).buildTree(argv, ctx, opts),
  run: (argv, p, opts) => runCli(argv, p, opts),
};

export async function runCli(argv: string[], original: Provider, opts: RunOptions = {}): Promise<number> {
  const globals = prescanGlobals(argv, original.env);
  let ctx = createRunContext(original, globals, argv, HOOKS);
  try {
    if (opts.gate) refuseHostFlags(prescanGlobals(argv, { get: () => undefined }));
    ctx = createRunContext(await withRecordReplay(original, globals), globals, argv, HOOKS);
    // The one answer that needs no tree; commander would print the same line for this argv.
    if (asksOnlyVersion(argv)) {
      await emitRendered(ctx, `${versionText(ctx.p.version)}\n`);
      return 0;
    }
    // A Tab of completion and `--help` within a service are answered without commander when plain enough.
    if (!opts.gate && argv[0] === "__complete") {
      const code = await (await lazy("cli/fast/complete.ts")).runComplete(argv, ctx);
      if (code !== undefined) return code;
    } else if (!opts.gate && argv.some((a) => a === "--help" || a === "-h" || a === "help")) {
      const code = await (await lazy("cli/fast/help.ts")).runHelp(argv, ctx);
      if (code !== undefined) return code;
    }
    // A generated method, a shortcut, `api`, `schema`, `commands` and `app-server` are resolved without
    // commander when their command line is plain enough; a host's gate sees the same resolved command either
    // way (tests/turns_gate_test.ts).
    const lean = argv.length >= 3 || argv[0] === "schema" || argv[0] === "commands" ||
      argv[0] === "app-server" || argv[1]?.startsWith("+");
    if (lean && !argv[0].startsWith("-")) {
      const code = await (await lazy("cli/fast/method.ts")).runLean(argv, ctx, opts.gate);
      if (code !== undefined) return code;
    }
    return await (await lazy("cli/run_tree.ts")).runTree(argv, ctx, opts.gate);
  } catch (e) {
    // An interrupted run reports the interruption, whatever the abort surfaced as where it landed (told with
    // what it means there when the code it struck said so: a write's key, a prompt where nothing was sent).
    const told = e instanceof LarkitError && e.type === "interrupted";
    const err = original.signal.aborted && !told ? toLarkitError(original.signal.reason) : toLarkitError(e);
    await emitError(ctx, err);
    return err.exitCode;
  }
}
