/**
 * The resolver's parse of one fixed command's argv: the words reach a declaration (`cli/resolve/declare.ts`),
 * the rest become raw flag values and positional arguments. Flags are taken as the command line has always
 * taken them: `--name value`, `--name=value`, `-q value`, `--no-<name>` for a negatable boolean, a repeatable
 * flag once per value, `--` ending the flags. Global flags are passed over: the
 * prescan (`cli/globals.ts`) reads them. Every failure is a `usage` error with did-you-mean and a hint naming
 * the deepest command that exists.
 */
import type { FlagSpecs } from "../../shortcuts/declare.ts";
import type { RawFlagValue } from "../../shortcuts/inputs.ts";
import { GLOBAL_FLAGS } from "../globals.ts";
import type { LarkitError } from "../output/errors.ts";
import { optionSuggestion, suggest, usageError } from "./usage.ts";
import { attributeOf, type CommandModule, type FixedCommand, flagUsage } from "./declare.ts";

const GLOBAL_VALUE = new Set(GLOBAL_FLAGS.filter((f) => f.value).map((f) => f.flag));
const GLOBAL_SWITCH = new Set(GLOBAL_FLAGS.filter((f) => !f.value).map((f) => f.flag));

/** Where the words of a command line led: a command to run, or a group (whose help answers). */
export type Landing =
  | { kind: "command"; command: FixedCommand; path: string[]; rest: string[] }
  | { kind: "group"; path: string[] };

function named(cmd: { words: string[]; aliases?: string[] }, depth: number, word: string): boolean {
  if (cmd.words[depth] === word) return true;
  return depth === cmd.words.length - 1 && !!(cmd as FixedCommand).aliases?.includes(word);
}

function startsWith(words: string[], path: string[]): boolean {
  return path.every((w, i) => words[i] === w);
}

/**
 * Walks argv's words down the declarations, passing over global flags and their values. Flags of the leaf
 * before its words (`larkit config --x set`) are kept for the leaf, as commander kept them.
 */
export function landOn(modules: CommandModule[], argv: string[]): Landing {
  const commands = modules.flatMap((m) => m.commands);
  const groups = modules.flatMap((m) => m.groups);
  const path: string[] = [];
  const rest: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const word = argv[i];
    if (word === "--") break;
    if (word.startsWith("-")) {
      rest.push(word);
      if (GLOBAL_VALUE.has(word)) rest.push(argv[++i]);
      continue;
    }
    const leaf = commands.find((c) =>
      c.words.length === path.length + 1 && startsWith(c.words, path) &&
      named(c, path.length, word)
    );
    if (leaf) {
      return { kind: "command", command: leaf, path: leaf.words, rest: [...rest, ...argv.slice(i + 1)] };
    }
    // A group is declared, or implied by the commands under it (`event list` joins the `event` service).
    const under = [...groups, ...commands].some((c) =>
      c.words.length > path.length + 1 && startsWith(c.words, path) && c.words[path.length] === word
    );
    if (
      under || groups.some((g) =>
        g.words.length === path.length + 1 && startsWith(g.words, path) &&
        g.words[path.length] === word
      )
    ) {
      path.push(word);
      continue;
    }
    const names = [
      ...new Set(
        [...groups, ...commands]
          .filter((c) => c.words.length > path.length && startsWith(c.words, path))
          .flatMap((
            c,
          ) => [
            c.words[path.length],
            ...(c.words.length === path.length + 1 ? (c as FixedCommand).aliases ?? [] : []),
          ]),
      ),
    ];
    throw usageError(`unknown command '${word}'`, "unknownCommand", {
      path,
      unknown: word,
      suggestions: suggest(word, names),
    });
  }
  return { kind: "group", path };
}

export interface ParsedArgs {
  /** Raw values keyed by flag name, as `resolveFlags` takes them. */
  raw: Record<string, RawFlagValue>;
  /** The same values under their attribute names (`pageAll`): what an options object holds. */
  attributes: Record<string, RawFlagValue>;
  args: string[];
}

function plural(n: number): string {
  return n === 1 ? "" : "s";
}

/** Parses the words after a command's own words against its declaration. */
export function parseCommand(cmd: FixedCommand<FlagSpecs>, rest: string[]): ParsedArgs {
  const at = { path: cmd.words, suggestions: [] };
  const fail = (message: string, reason: string): LarkitError => usageError(message, reason, at);
  const specs = Object.entries(cmd.flags);
  const shortOf = cmd.shorts as Record<string, string> | undefined;
  const byName = (flag: string) => {
    const long = flag.startsWith("--") ? flag.slice(2) : undefined;
    const hit = specs.find(([name, spec]) =>
      long !== undefined
        ? (spec.negatable ? long === `no-${name}` : long === name)
        : shortOf?.[name] !== undefined && flag === `-${shortOf[name]}`
    );
    return hit;
  };
  const raw: Record<string, RawFlagValue> = {};
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
    const hit = byName(name);
    if (!hit && GLOBAL_SWITCH.has(arg)) continue;
    if (!hit && GLOBAL_VALUE.has(name)) {
      if (eq === -1) i++;
      continue;
    }
    if (!hit && cmd.passUnknownOptions) {
      args.push(arg);
      continue;
    }
    if (!hit || (hit[1].kind === "boolean" && eq !== -1)) {
      const longs = specs.map(([n, s]) => flagUsage(n, s).split(" ")[0]);
      const shown = [...longs, "--help", ...GLOBAL_FLAGS.map((f) => f.flag)];
      throw fail(`unknown option '${arg}'${optionSuggestion(name, shown)}`, "unknownOption");
    }
    const [flagName, spec] = hit;
    if (spec.kind === "boolean") {
      raw[flagName] = !spec.negatable;
      continue;
    }
    const usage = flagUsage(flagName, spec);
    let value: string;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      if (i + 1 >= rest.length) throw fail(`option '${usage}' argument missing`, "optionMissingArgument");
      value = rest[++i];
    }
    raw[flagName] = spec.repeatable ? [...(raw[flagName] as string[] | undefined) ?? [], value] : value;
  }
  const declared = cmd.args ?? [];
  const missing = declared.slice(args.length).find((a) => a.required);
  if (missing) throw fail(`missing required argument '${missing.name}'`, "missingArgument");
  if (!declared.at(-1)?.variadic && args.length > declared.length) {
    const n = declared.length;
    throw fail(
      `too many arguments for '${cmd.words.at(-1)}'. Expected ${n} argument${plural(n)} but got ` +
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
  const attributes = Object.fromEntries(Object.entries(raw).map(([k, v]) => [attributeOf(k), v]));
  return { raw, attributes, args };
}
