/**
 * One Tab of shell completion (`larkit __complete <words>`) at the root or inside a service without commander (issue 17: a
 * Tab paid for loading commander and building the tree). The service's subtree comes from `help_model.ts`
 * and the candidates from the walk the tree's `__complete` uses (`completeWords`), so they are the tree's.
 * The root's list comes from `help_static.ndjson` (written from the tree). Fixed commands, `event`, the root in
 * strict mode and command lines the root would answer itself (`--version`, a global flag missing its value) go
 * to the tree.
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
import { fullRootModel, rootModel, serviceModel, type StrictMode, strictModeOf } from "./help_model.ts";

const GLOBAL_VALUE = new Set(GLOBAL_FLAGS.filter((f) => f.value).map((f) => f.flag));

/** The lean description of a command as completion sees it. */
function viewOfModel(cmd: ModelCommand, parent?: CompletionCommand): CompletionCommand {
  // Read when the walk reaches the command: one Tab looks at the options of one command and its parents.
  let options: CompletionCommand["options"] | undefined;
  const view: CompletionCommand = {
    name: cmd.name,
    aliases: cmd.aliases,
    hidden: cmd.hidden === true,
    about: cmd.summary || cmd.description,
    get options() {
      return options ??= cmd.options.map((o) => ({
        ...flagsOf(o),
        hidden: o.hidden === true,
        description: o.description,
      }));
    },
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
  mode: StrictMode,
  shortcutsOnly = false,
): Promise<CompletionCommand | undefined> {
  const root = rootModel();
  return await serviceModel(ctx, service, root, mode, shortcutsOnly) ? viewOfModel(root) : undefined;
}

/** The root with every command it lists, as completion sees it; undefined when the tree lists them. */
async function rootView(ctx: RunContext): Promise<CompletionCommand | undefined> {
  const root = await fullRootModel(ctx);
  return root && viewOfModel(root);
}

/**
 * Whether the words before the cursor leave the walk at the root: only its options and their values (a word
 * after `--`, which the scan for a service stops at, is a command the walk would enter).
 */
function atRoot(before: string[]): boolean {
  for (let i = 0; i < before.length; i++) {
    if (!before[i].startsWith("-")) return false;
    if (GLOBAL_VALUE.has(before[i])) i++;
  }
  return true;
}

/** Prints the candidates for `__complete <words>` and answers 0, or undefined when the tree must answer. */
export async function runComplete(argv: string[], ctx: RunContext): Promise<number | undefined> {
  const words = argv.slice(1);
  // The root parses its own options wherever they stand: it prints the version, or fails on a missing value.
  if (words.some((w) => w === "--version" || w.startsWith("-V")) || GLOBAL_VALUE.has(words.at(-1) ?? "")) {
    return undefined;
  }
  // The service the tree would build (its first word); a word still being typed at the root is the root's.
  const before = words.slice(0, -1);
  const [service, next] = positionalWords(before);
  // The walk goes from the service to the word after it, as this scan finds it: a `+shortcut` needs no resources.
  const mode = await strictModeOf(ctx);
  // The root's list in strict mode (fixed commands pruned too) is the tree's to give.
  const program = service !== undefined
    ? await serviceView(ctx, service, mode, next?.startsWith("+"))
    : atRoot(before) && mode === "off"
    ? await rootView(ctx)
    : undefined;
  if (!program) return undefined;
  const sources: CompletionSources = {
    profiles: () => configProfiles(ctx),
    service: async (name) => (await serviceView(ctx, name, mode))?.commands[0],
  };
  await emitCandidates(ctx, await completeWords(program, words, sources));
  return 0;
}
