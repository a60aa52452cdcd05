/**
 * commander's built-in help layout (`Help.formatHelp` of commander 15, with the settings the tree uses: no
 * sorting, global options shown, no styles), over a plain description of a command instead of a commander
 * `Command`, so `--help` can be answered without loading commander and its Node-compat modules (issue 17).
 * `tests/startup_help_test.ts` compares its output with the tree's byte for byte for every service and
 * shortcut and a sample of resources and methods: a commander upgrade that changes the layout fails there.
 */
import type { Candidate } from "../commands/completion.ts";

/** An option as the tree declares it: commander's flags string (`-o, --output <path>`) and description. */
export interface ModelOption {
  flags: string;
  description: string;
  default?: string;
  /** Parsed but left out of help and completion (a deprecated alias). */
  hidden?: boolean;
}

/** A command as the tree builds it, with what its help and completion show. */
export interface ModelCommand {
  name: string;
  aliases: string[];
  description: string;
  /** Shown in the parent's list instead of the description when set. */
  summary?: string;
  options: ModelOption[];
  commands: ModelCommand[];
  parent?: ModelCommand;
  /** Left out of its parent's help and completion (`__complete`). */
  hidden?: boolean;
  /** How its parent's help lists it, when it is not worked out here (a fixed command, with its arguments). */
  term?: string;
  /** The identities it runs as (a leaf), for strict-mode pruning. */
  identities?: readonly string[];
  /** A leaf strict mode forbids: hidden, and its help is the tree's (it refuses instead). */
  forbidden?: boolean;
  /** Has an action of its own (a leaf): commander adds no implicit `help` subcommand then. */
  leaf: boolean;
  /** Text `addHelpText("after", ...)` puts after the help. */
  after?: string;
  /** The values completion offers for a flag (`--params` enum objects, a shortcut flag's choices). */
  values?: (flag: string) => Candidate[];
}

const HELP_OPTION: ModelOption = { flags: "-h, --help", description: "display help for command" };
/** The implicit `help [command]` subcommand of a command with subcommands and no action. */
const HELP_COMMAND: ModelCommand = {
  name: "help [command]",
  aliases: [],
  description: "display help for command",
  options: [],
  commands: [],
  leaf: true,
};

/** commander's split of a flags string: `-o, --output <path>` -> `-o`, `--output`, takes a value. */
export function flagsOf(o: ModelOption): { short?: string; long?: string; takesValue: boolean } {
  const words = o.flags.split(/[ |,]+/).filter((w) => w.startsWith("-"));
  return {
    short: words.find((w) => /^-[^-]$/.test(w)),
    long: words.find((w) => w.startsWith("--")),
    takesValue: /[<[]/.test(o.flags),
  };
}

const MIN_WIDTH_TO_WRAP = 40;

/** `Help.boxWrap`: wraps at whitespace, keeping the text's own line breaks. */
function boxWrap(str: string, width: number): string {
  if (width < MIN_WIDTH_TO_WRAP) return str;
  const wrapped: string[] = [];
  for (const line of str.split(/\r\n|\n/)) {
    const chunks = line.match(/[\s]*[^\s]+/g);
    if (chunks === null) {
      wrapped.push("");
      continue;
    }
    let sum = [chunks.shift() as string];
    let sumWidth = sum[0].length;
    for (const chunk of chunks) {
      if (sumWidth + chunk.length <= width) {
        sum.push(chunk);
        sumWidth += chunk.length;
        continue;
      }
      wrapped.push(sum.join(""));
      const next = chunk.trimStart();
      sum = [next];
      sumWidth = next.length;
    }
    wrapped.push(sum.join(""));
  }
  return wrapped.join("\n");
}

/** `Help.formatItem`: the term padded to the column, the description wrapped beside it. */
function formatItem(term: string, termWidth: number, description: string, helpWidth: number): string {
  if (!description) return `  ${term}`;
  const remaining = helpWidth - termWidth - 4;
  const formatted = remaining < MIN_WIDTH_TO_WRAP || /\n[^\S\r\n]/.test(description)
    ? description
    : boxWrap(description, remaining).replace(/\n/g, "\n" + " ".repeat(termWidth + 2));
  return `  ${term.padEnd(termWidth)}  ${formatted.replace(/\n/g, "\n  ")}`;
}

/** `Help.optionDescription`: the description plus the default commander shows for an option with a value. */
function optionDescription(o: ModelOption): string {
  if (o.default === undefined || !flagsOf(o).takesValue) return o.description;
  const extra = `(default: ${JSON.stringify(o.default)})`;
  return o.description ? `${o.description} ${extra}` : extra;
}

function subcommandTerm(c: ModelCommand): string {
  if (c.term !== undefined) return c.term;
  return c.name + (c.aliases[0] ? `|${c.aliases[0]}` : "") + (c.options.length ? " [options]" : "");
}

const visibleCommands = (c: ModelCommand) =>
  c.commands.filter((s) => !s.hidden).concat(
    c.commands.length && !c.leaf && !c.commands.some((s) => s.name === "help" || s.aliases.includes("help"))
      ? [HELP_COMMAND]
      : [],
  );

/** The help of a command, as `outputHelp` writes it: the layout, then the text added after it. */
export function formatHelp(cmd: ModelCommand, helpWidth: number): string {
  const options = cmd.options.filter((o) => !o.hidden).concat([HELP_OPTION]);
  const globals: ModelOption[] = [];
  for (let up = cmd.parent; up; up = up.parent) globals.push(...up.options.filter((o) => !o.hidden));
  const commands = visibleCommands(cmd);
  const termWidth = Math.max(
    0,
    ...options.map((o) => o.flags.length),
    ...globals.map((o) => o.flags.length),
    ...commands.map((c) => subcommandTerm(c).length),
  );
  const item = (term: string, description: string) => formatItem(term, termWidth, description, helpWidth);
  const list = (heading: string, items: string[]) => items.length ? [heading, ...items, ""] : [];

  let path = cmd.name + (cmd.aliases[0] ? `|${cmd.aliases[0]}` : "");
  for (let up = cmd.parent; up; up = up.parent) path = `${up.name} ${path}`;
  const usage = cmd.commands.length ? "[options] [command]" : "[options]";
  const out = [
    `Usage: ${path} ${usage}`,
    "",
    ...(cmd.description ? [boxWrap(cmd.description, helpWidth), ""] : []),
    ...list("Options:", options.map((o) => item(o.flags, optionDescription(o)))),
    ...list("Global Options:", globals.map((o) => item(o.flags, optionDescription(o)))),
    ...list("Commands:", commands.map((c) => item(subcommandTerm(c), c.summary || c.description))),
  ];
  return out.join("\n") + (cmd.after ? `${cmd.after}\n` : "");
}
