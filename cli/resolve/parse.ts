/**
 * The resolver's parse: the one reading of argv. `landOn` walks the words down the command nodes
 * (`node.ts`) to the leaf they name, or to the command whose help they ask; `parseLine` reads the words after
 * a leaf's own against its declared flags and arguments. Flags are read as the command line has always read
 * them: `--name value`, `--name=value`, `-q value`, `--no-<name>` for a negatable switch, a repeatable flag once
 * per value, `--` ending the flags. Global flags (`cli/globals.ts`) are passed over wherever they stand: the
 * prescan reads them. Every failure is a `usage` error with did-you-mean and a hint naming the deepest command
 * that exists.
 */
import { GLOBAL_FLAGS, GLOBAL_SWITCHES, GLOBAL_VALUE_FLAGS } from "../globals.ts";
import type { LarkitError } from "../output/errors.ts";
import {
  type CommandNode,
  expanded,
  flagsOf,
  nodePath,
  type OptionDecl,
  type ParsedLine,
  valueKey,
} from "./node.ts";
import { optionSuggestion, unknownCommandError, usageError } from "./usage.ts";

const HELP_FLAGS = new Set(["--help", "-h"]);

/** Where the words of a command line led. */
export interface Landing {
  node: CommandNode;
  /** The words after the node's own, flags included (global ones too: `parseLine` passes over them). */
  rest: string[];
  /** `--help`, `-h` or the `help` word asked for the node's help. */
  help: boolean;
}

/** The child a word names: found without listing the siblings where the node can, else from the full list. */
export async function childOf(node: CommandNode, word: string): Promise<CommandNode | undefined> {
  const found = node.find ? await node.find(word) : undefined;
  if (found) return found;
  await expanded(node, 1);
  return node.commands.find((c) => c.name === word || c.aliases.includes(word));
}

async function unknownCommand(node: CommandNode, word: string): Promise<LarkitError> {
  await expanded(node, 1);
  const names = node.commands.filter((c) => !c.hidden).flatMap((c) => [c.name, ...c.aliases]);
  return unknownCommandError(word, names, nodePath(node));
}

/**
 * The path the words after an unknown flag would name, for its hint: the word after a flag without `=` is
 * taken as its value (`--as bot calendar` names `calendar`, not the `bot` service).
 */
async function hintPath(root: CommandNode, node: CommandNode, words: string[]): Promise<string[]> {
  let at = node;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === "--") break;
    if (w.startsWith("-")) {
      if (!w.includes("=")) i++;
      continue;
    }
    const next = await childOf(at, w).catch(() => undefined);
    if (!next) break;
    at = next;
    if (at.leaf) break;
  }
  return at === root ? [] : nodePath(at);
}

/**
 * Walks argv from the root to the leaf its words name (or the command whose help it asks). A flag before the
 * leaf's words is a usage error unless it is global; `help` as a word asks the help of the command the next
 * words name, as `--help` asks that of the words before it.
 */
export async function landOn(root: CommandNode, argv: string[]): Promise<Landing> {
  let node = root;
  let help = false;
  let helpWord = false;
  // After `--` every word is an operand: the command's words still, then all of them the leaf's arguments.
  let operands = false;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (node.leaf && !helpWord) {
      const rest = operands ? ["--", ...argv.slice(i)] : argv.slice(i);
      const end = rest.indexOf("--");
      return { node, rest, help: (end === -1 ? rest : rest.slice(0, end)).some(isHelpFlag) };
    }
    // The help of the command named so far: what comes after it is not read.
    if (!operands && HELP_FLAGS.has(word)) return { node, rest: [], help: true };
    if (word === "--" && !operands) {
      operands = true;
      continue;
    }
    if (!operands && word.startsWith("-")) {
      const name = word.split("=")[0];
      if (GLOBAL_SWITCHES.has(word)) continue;
      if (GLOBAL_VALUE_FLAGS.has(name)) {
        if (!word.includes("=") && ++i >= argv.length) throw globalMissing(name, nodePath(node));
        continue;
      }
      if (argv.slice(i).some(isHelpFlag)) continue;
      const path = await hintPath(root, node, argv.slice(i));
      const shown = [
        ...node.options.map((o) => flagsOf(o).long ?? ""),
        "--help",
        ...GLOBAL_FLAGS.map((f) => f.flag),
      ];
      throw usageError(`unknown option '${word}'${optionSuggestion(name, shown)}`, "unknownOption", {
        path,
        suggestions: [],
      });
    }
    if (!operands && word === "help" && !helpWord && !node.leaf && !(await childOf(node, "help"))) {
      helpWord = true;
      help = true;
      continue;
    }
    const next = await childOf(node, word);
    if (!next) throw await unknownCommand(node, word);
    node = next;
    if (helpWord && node.leaf) return { node, rest: [], help: true };
  }
  return { node, rest: [], help };
}

const isHelpFlag = (a: string) => HELP_FLAGS.has(a);

/** A global flag that takes a value, given last without one. */
function globalMissing(name: string, path: string[]): LarkitError {
  const flag = GLOBAL_FLAGS.find((f) => f.flag === name);
  return usageError(`option '${name} ${flag?.value}' argument missing`, "optionMissingArgument", {
    path,
    suggestions: [],
  });
}

function plural(n: number): string {
  return n === 1 ? "" : "s";
}

/** The declared option a flag word names (`--no-x` for a negatable switch), with whether it negates. */
function optionNamed(options: OptionDecl[], name: string): OptionDecl | undefined {
  return options.find((o) => {
    const f = flagsOf(o);
    return f.long === name || (f.short !== undefined && f.short === name);
  });
}

/** Reads the words after a leaf's own against its declaration. */
export function parseLine(node: CommandNode, rest: string[]): ParsedLine {
  const at = { path: nodePath(node), suggestions: [] };
  const fail = (message: string, reason: string): LarkitError => usageError(message, reason, at);
  const values: ParsedLine["values"] = {};
  const args: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--") {
      args.push(...rest.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      args.push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    // The command's own flag first: `doctor --offline` is doctor's, though the root has one of that name.
    const option = optionNamed(node.options, name);
    if (!option && GLOBAL_SWITCHES.has(arg)) continue;
    if (!option && GLOBAL_VALUE_FLAGS.has(name)) {
      if (eq === -1 && ++i >= rest.length) throw globalMissing(name, at.path);
      continue;
    }
    if (!option && node.passUnknownOptions) {
      args.push(arg);
      continue;
    }
    const takesValue = option ? flagsOf(option).takesValue : false;
    if (!option || (!takesValue && eq !== -1)) {
      const shown = node.options.filter((o) => !o.hidden).map((o) => flagsOf(o).long ?? "")
        .concat(["--help", ...GLOBAL_FLAGS.map((f) => f.flag)]);
      throw fail(`unknown option '${arg}'${optionSuggestion(name, shown)}`, "unknownOption");
    }
    const key = valueKey(option);
    if (!takesValue) {
      values[key] = !flagsOf(option).long?.startsWith("--no-");
      continue;
    }
    let value: string;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      if (i + 1 >= rest.length) {
        throw fail(`option '${option.flags}' argument missing`, "optionMissingArgument");
      }
      value = rest[++i];
    }
    values[key] = option.repeatable ? [...(values[key] as string[] | undefined) ?? [], value] : value;
  }
  for (const o of node.options) {
    const key = valueKey(o);
    if (o.default !== undefined && values[key] === undefined) values[key] = o.default;
  }
  const declared = node.args ?? [];
  const missing = declared.slice(args.length).find((a) => a.required);
  if (missing) throw fail(`missing required argument '${missing.name}'`, "missingArgument");
  if (!declared.at(-1)?.variadic && args.length > declared.length) {
    const n = declared.length;
    throw fail(
      `too many arguments for '${node.name}'. Expected ${n} argument${plural(n)} but got ` +
        `${args.length}: ${args.join(", ")}.`,
      "excessArguments",
    );
  }
  for (const [i, arg] of declared.entries()) {
    if (arg.variadic || args[i] === undefined || !arg.choices || arg.choices.includes(args[i])) continue;
    throw fail(
      `command-argument value '${args[i]}' is invalid for argument '${arg.name}'. Allowed choices are ` +
        `${arg.choices.join(", ")}.`,
      "invalidArgument",
    );
  }
  for (const [i, arg] of declared.entries()) {
    if (args[i] === undefined && arg.default !== undefined && !arg.variadic) args[i] = arg.default;
  }
  return { values, args };
}
