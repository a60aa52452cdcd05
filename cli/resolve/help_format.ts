/**
 * Help text of a command node: the layout the command line has always printed (commander's, kept so that
 * people and scripts reading help see no change): usage, description, arguments, options, the root's global
 * options, subcommands, then the text the command adds after.
 */
import { type CommandNode, flagsOf, type OptionDecl } from "./node.ts";

const HELP_OPTION: OptionDecl = { flags: "-h, --help", description: "display help for command" };
/** The implicit `help [command]` subcommand of a command with subcommands and no action. */
const HELP_COMMAND: CommandNode = {
  name: "help [command]",
  aliases: [],
  description: "display help for command",
  options: [],
  commands: [],
  leaf: true,
};

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

/** The description plus the default an option with a value takes. */
function optionDescription(o: OptionDecl): string {
  if (o.default === undefined || !flagsOf(o).takesValue) return o.description;
  const extra = `(default: ${JSON.stringify(o.default)})`;
  return o.description ? `${o.description} ${extra}` : extra;
}

/** How a parent's help lists a command: `show [options] <domain>`. */
export function subcommandTerm(c: CommandNode): string {
  if (c.term !== undefined) return c.term;
  return c.name + (c.aliases[0] ? `|${c.aliases[0]}` : "") + (c.options.length ? " [options]" : "") +
    argsTerm(c);
}

function argsTerm(c: CommandNode): string {
  return (c.args ?? []).map((a) => {
    const shown = `${a.name}${a.variadic ? "..." : ""}`;
    return a.required ? ` <${shown}>` : ` [${shown}]`;
  }).join("");
}

const visibleCommands = (c: CommandNode) =>
  c.commands.filter((s) => !s.hidden).concat(
    !c.leaf && !c.commands.some((s) => s.name === "help" || s.aliases.includes("help")) ? [HELP_COMMAND] : [],
  );

/** The help of a command, as `outputHelp` writes it: the layout, then the text added after it. */
export function formatHelp(cmd: CommandNode, helpWidth: number): string {
  const options = cmd.options.filter((o) => !o.hidden).concat([HELP_OPTION]);
  const globals: OptionDecl[] = [];
  for (let up = cmd.parent; up; up = up.parent) globals.push(...up.options.filter((o) => !o.hidden));
  const commands = visibleCommands(cmd);
  const args = (cmd.args ?? []).filter((a) => a.description);
  const argTerm = (a: NonNullable<CommandNode["args"]>[number]) => a.name;
  const argDescription = (a: NonNullable<CommandNode["args"]>[number]) => {
    const notes = [
      ...(a.choices ? [`choices: ${a.choices.map((c) => JSON.stringify(c)).join(", ")}`] : []),
      ...(a.default !== undefined ? [`default: ${JSON.stringify(a.default)}`] : []),
    ];
    return notes.length ? `${a.description} (${notes.join(", ")})` : a.description;
  };
  const termWidth = Math.max(
    0,
    ...args.map((a) => argTerm(a).length),
    ...options.map((o) => o.flags.length),
    ...globals.map((o) => o.flags.length),
    ...commands.map((c) => subcommandTerm(c).length),
  );
  const item = (term: string, description: string) => formatItem(term, termWidth, description, helpWidth);
  const list = (heading: string, items: string[]) => items.length ? [heading, ...items, ""] : [];

  let path = cmd.name + (cmd.aliases[0] ? `|${cmd.aliases[0]}` : "");
  for (let up = cmd.parent; up; up = up.parent) path = `${up.name} ${path}`;
  const usage = (cmd.leaf ? "[options]" : "[options] [command]") + argsTerm(cmd);
  const out = [
    `Usage: ${path} ${usage}`,
    "",
    ...(cmd.description ? [boxWrap(cmd.description, helpWidth), ""] : []),
    ...list("Arguments:", args.map((a) => item(argTerm(a), argDescription(a)))),
    ...list("Options:", options.map((o) => item(o.flags, optionDescription(o)))),
    ...list("Global Options:", globals.map((o) => item(o.flags, optionDescription(o)))),
    ...list("Commands:", commands.map((c) => item(subcommandTerm(c), c.summary || c.description))),
  ];
  return out.join("\n") + (cmd.after ? `${cmd.after}\n` : "");
}
