/**
 * `--help` of the root, a service, a resource, a generated method or a shortcut without commander (issue 17: loading
 * commander and building the tree was most of a help run): the subtree from `help_model.ts`, laid out by
 * `help_format.ts` exactly as the tree's help. It takes only the plain forms -- `<service> [<resource>
 * [<method>]] --help` or `-h` (a shortcut in place of the resource), and `[...] help <command>` -- with global
 * flags around them, strict mode pruning as the tree prunes; anything else (fixed commands, `event`, the root or a
 * forbidden leaf in strict mode, an
 * unknown word, other flags) answers `undefined` and the tree prints it, messages and exit codes included.
 */
import type { RunContext } from "../context.ts";
import { GLOBAL_FLAGS } from "../globals.ts";
import { emitRendered } from "../output/emit.ts";
import { flagsOf, formatHelp, type ModelCommand } from "./help_format.ts";
import { childNamed, fullRootModel, rootModel, serviceModel, strictModeOf } from "./help_model.ts";

const GLOBAL_VALUE = new Set(GLOBAL_FLAGS.filter((f) => f.value).map((f) => f.flag));
const GLOBAL_SWITCH = new Set(GLOBAL_FLAGS.filter((f) => !f.value).map((f) => f.flag));

/**
 * The command words of argv and whether it asks `--help`/`-h`, when everything else is a global flag the
 * root consumes wherever it stands; undefined otherwise.
 */
function plainWords(argv: string[]): { words: string[]; flag: boolean } | undefined {
  const words: string[] = [];
  let flag = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") flag = true;
    else if (GLOBAL_SWITCH.has(arg)) continue;
    else if (GLOBAL_VALUE.has(arg)) {
      // commander takes the next word as the value whatever it is; a flag-looking value is left to the tree.
      if (i + 1 >= argv.length || argv[i + 1].startsWith("-")) return undefined;
      i++;
    } else if (arg.startsWith("-")) {
      if (!GLOBAL_VALUE.has(arg.slice(0, arg.indexOf("=")))) return undefined;
    } else if (flag) {
      // commander hands every word after the help flag on as an unknown: the tree decides what they mean.
      return undefined;
    } else words.push(arg);
  }
  return { words, flag };
}

/** The command whose help argv asks for, or undefined when the tree must answer. */
async function helpTarget(argv: string[], ctx: RunContext): Promise<ModelCommand | undefined> {
  const plain = plainWords(argv);
  if (!plain) return undefined;
  const { words, flag } = plain;
  const at = words.indexOf("help");
  // `--help` with every word naming a command; or `help` as the last or second-to-last word, naming a child.
  if (flag ? at !== -1 : at === -1 || at < words.length - 2) return undefined;
  const path = flag ? words : words.slice(0, at).concat(words.slice(at + 1));
  // No word: the root's own help, listing every command.
  const mode = await strictModeOf(ctx);
  // The root's list in strict mode (fixed commands pruned too) is the tree's to give.
  const start = path.length === 0
    ? mode === "off" ? await fullRootModel(ctx) : undefined
    : await serviceModel(ctx, path[0], rootModel(), mode, path[1]?.startsWith("+"));
  if (!start) return undefined;
  let cmd = start;
  for (const [k, word] of path.slice(1).entries()) {
    // The `help` word is the implicit help subcommand of the command before it: one with subcommands only.
    if (k + 1 === at && (cmd.leaf || cmd.commands.length === 0 || childNamed(cmd, "help"))) return undefined;
    const next = childNamed(cmd, word);
    if (!next) return undefined;
    cmd = next;
  }
  if (!flag && at === path.length && (cmd.leaf || cmd.commands.length === 0 || childNamed(cmd, "help"))) {
    return undefined;
  }
  // commander replaces its help option when a command declares `-h` or `--help` itself.
  const ownsHelp = (f: ReturnType<typeof flagsOf>) => f.short === "-h" || f.long === "--help";
  if (cmd.options.some((o) => ownsHelp(flagsOf(o)))) return undefined;
  // A leaf strict mode forbids refuses to run, help included: the tree says so.
  return cmd.forbidden ? undefined : cmd;
}

/** Prints the help argv asks for and answers 0, or undefined when the tree must answer. */
export async function runHelp(argv: string[], ctx: RunContext): Promise<number | undefined> {
  const cmd = await helpTarget(argv, ctx);
  if (!cmd) return undefined;
  const stdout = ctx.p.stdout;
  const text = formatHelp(cmd, (stdout.isTTY ? stdout.columns : undefined) ?? 80);
  // commander strips escape sequences from help written where colours are off; none is declared today.
  if (text.includes("\x1b") || text.includes("\x9b")) return undefined;
  await emitRendered(ctx, text);
  return 0;
}
