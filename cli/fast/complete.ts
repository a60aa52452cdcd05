/**
 * One Tab of shell completion (`larkit __complete <words>`) inside a service without commander (issue 17: a
 * Tab paid for loading commander and building the tree). The service's subtree comes from `help_model.ts`
 * and the candidates from the walk the tree's `__complete` uses (`completeWords`), so they are the tree's.
 * The root's own list (fixed commands and every service), fixed commands, `event`, strict mode and command
 * lines the root would answer itself (`--version`, a global flag missing its value) go to the tree.
 */
import {
  completeWords,
  type CompletionCommand,
  type CompletionSources,
  configProfiles,
  emitCandidates,
} from "../commands/completion.ts";
import type { RunContext } from "../context.ts";
import { GLOBAL_FLAGS, positionalWords } from "../globals.ts";
import { flagsOf, type ModelCommand } from "./help_format.ts";
import { rootModel, serviceModel } from "./help_model.ts";
import { strictModeOff } from "./method.ts";

const GLOBAL_VALUE = new Set(GLOBAL_FLAGS.filter((f) => f.value).map((f) => f.flag));

/** The lean description of a command as completion sees it. */
function viewOfModel(cmd: ModelCommand, parent?: CompletionCommand): CompletionCommand {
  const view: CompletionCommand = {
    name: cmd.name,
    aliases: cmd.aliases,
    hidden: false,
    about: cmd.summary || cmd.description,
    options: cmd.options.map((o) => ({
      ...flagsOf(o),
      hidden: o.hidden === true,
      description: o.description,
    })),
    commands: [],
    parent,
    values: (flag) => cmd.values?.(flag) ?? [],
  };
  view.commands = cmd.commands.map((c) => viewOfModel(c, view));
  return view;
}

/** The root with one service's subtree under it, as completion sees it; undefined when the tree builds it. */
async function serviceView(
  ctx: RunContext,
  service: string,
  shortcutsOnly = false,
): Promise<CompletionCommand | undefined> {
  const root = rootModel();
  return await serviceModel(ctx, service, root, shortcutsOnly) ? viewOfModel(root) : undefined;
}

/** Prints the candidates for `__complete <words>` and answers 0, or undefined when the tree must answer. */
export async function runComplete(argv: string[], ctx: RunContext): Promise<number | undefined> {
  const words = argv.slice(1);
  // The root parses its own options wherever they stand: it prints the version, or fails on a missing value.
  if (words.some((w) => w === "--version" || w.startsWith("-V")) || GLOBAL_VALUE.has(words.at(-1) ?? "")) {
    return undefined;
  }
  // The service the tree would build (its first word); a word still being typed at the root is the root's.
  const [service, next] = positionalWords(words.slice(0, -1));
  if (service === undefined) return undefined;
  // The walk goes from the service to the word after it, as this scan finds it: a `+shortcut` needs no resources.
  const program = await serviceView(ctx, service, next?.startsWith("+"));
  if (!program || !await strictModeOff(ctx)) return undefined;
  const sources: CompletionSources = {
    profiles: () => configProfiles(ctx),
    service: async (name) => (await serviceView(ctx, name))?.commands[0],
  };
  await emitCandidates(ctx, await completeWords(program, words, sources));
  return 0;
}
