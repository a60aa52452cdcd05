/**
 * The one description of a command every part of the command line reads: the resolver's parse
 * (`parse.ts`), help (`help_format.ts`), completion, the catalogue, strict-mode pruning and the agent
 * server's turn gate. Fixed commands (`declare.ts`), generated methods and shortcuts (`services.ts`) are all
 * turned into nodes; a node's children may be found one by one (`find`) before they are listed (`expand`),
 * so a run builds only the path its words name (start-up).
 */
import type { FlagMeta, FlagValue, Layer, TurnPolicy } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import type { Identity } from "../output/envelope.ts";
import type { Risk } from "../provider.ts";
import type { RawFlagValue } from "../../shortcuts/inputs.ts";

/** A flag as a command declares it: `-o, --output <path>`, `--dry-run`, `--no-wait`. */
export interface OptionDecl {
  /** The spelling help shows and the parser reads: an optional `-x, `, `--name`, an optional `<value>`. */
  flags: string;
  description: string;
  /** The value it takes when absent, given to the command (help shows `(default: "10")`). */
  default?: string;
  /** Parsed but left out of help and completion (a deprecated alias). */
  hidden?: boolean;
  /** One value per occurrence, kept as a list. */
  repeatable?: boolean;
  /** The values it may take (completion offers them, the catalogue lists them). */
  choices?: readonly string[];
  /** What the catalogue says of it beyond the spelling: type, `@file`/stdin input, required, default. */
  meta?: FlagMeta;
}

/** A positional argument: `<domain>`, `[key...]`. */
export interface ArgSpec {
  name: string;
  description: string;
  required?: boolean;
  /** Takes every remaining word (only the last argument may). */
  variadic?: boolean;
  /** The values it may take; help lists them. */
  choices?: readonly string[];
  /** What it is when absent. */
  default?: string;
}

/** What the parse hands a command: flag values keyed by long name (`page-all`), and the positional words. */
export interface ParsedLine {
  values: Record<string, RawFlagValue>;
  args: string[];
}

export interface CommandNode {
  name: string;
  aliases: string[];
  description: string;
  /** Shown in the parent's list instead of the description when set. */
  summary?: string;
  options: OptionDecl[];
  /** The children listed so far: all of them once `expand` ran (or when the node has none to find). */
  commands: CommandNode[];
  parent?: CommandNode;
  /** Left out of its parent's help, completion and the catalogue. */
  hidden?: boolean;
  /** How its parent's help lists it, when not worked out from the node (a command with arguments). */
  term?: string;
  /** An entry of the root's list from the manifest: named and described, not built (`root.ts`). */
  listed?: boolean;
  /** Positional arguments of a leaf. */
  args?: ArgSpec[];
  /** Options it does not declare are kept among its arguments (`sandbox run <larkit argv...>`). */
  passUnknownOptions?: boolean;
  /** Has an action of its own: no implicit `help` subcommand then. */
  leaf: boolean;
  /** Text help shows after the flags. */
  after?: string;
  layer?: Layer;
  /** Whether it may run in an agent-server turn (suite layers imply it: `resolvedOf` in `run.ts`). */
  turn?: TurnPolicy;
  /** The identities it runs as; absent = identity-agnostic (config, schema, ...). */
  identities?: readonly Identity[];
  risk?: Risk;
  scopes?: Partial<Record<Identity, string[]>>;
  dryRun?: boolean;
  pagination?: boolean;
  /** A leaf strict mode forbids: hidden, and running it (or its help) is a `strict_mode` error. */
  forbidden?: boolean;
  /** The values completion offers for a flag (long name without dashes). */
  values?: (flag: string) => FlagValue[] | Promise<FlagValue[]>;
  /** Fills in what only help shows (a generated method's text), when the node was made without it. */
  describe?(): Promise<void>;
  /** Runs the leaf with its parsed line. */
  run?(ctx: RunContext, line: ParsedLine): Promise<void>;
  /** Finds the child a word names without listing every child (a service's one method, one shortcut). */
  find?(word: string): Promise<CommandNode | undefined>;
  /** Lists every child into `commands` (help, completion, suggestions, the catalogue). */
  expand?(): Promise<void>;
}

/** The parts of a flags string: `-o, --output <path>` -> `-o`, `--output`, takes a value. */
export function flagsOf(o: OptionDecl): { short?: string; long?: string; takesValue: boolean } {
  const words = o.flags.split(/[ |,]+/).filter((w) => w.startsWith("-"));
  return {
    short: words.find((w) => /^-[^-]$/.test(w)),
    long: words.find((w) => w.startsWith("--")),
    takesValue: /[<[]/.test(o.flags),
  };
}

/** The key a flag's value is kept under: its long name without dashes, `no-wait` under `wait`. */
export function valueKey(o: OptionDecl): string {
  const long = (flagsOf(o).long ?? "").slice(2);
  return long.startsWith("no-") && !flagsOf(o).takesValue ? long.slice(3) : long;
}

/** The attribute an options object keeps a flag under: `page-all` -> `pageAll`. */
export function attributeOf(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The parse's values as an options object (`pageAll`), the shape generated methods and shortcuts take. */
export function attributes(values: ParsedLine["values"]): Record<string, RawFlagValue> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [attributeOf(k), v]));
}

/** Whether a command runs as both identities: strict mode, whichever it is, never refuses it. */
export function runsAsBoth(node: CommandNode): boolean {
  const ids = node.identities;
  return ids === undefined || (ids.includes("user") && ids.includes("bot"));
}

/** A command that only groups others (`config`, a resource), with no flags of its own. */
export function groupNode(name: string, parent?: CommandNode, description = ""): CommandNode {
  return {
    name,
    aliases: [],
    description,
    options: [],
    commands: [],
    leaf: false,
    ...(parent ? { parent } : {}),
  };
}

/** The node's path from the root, without the program name: ["calendar", "+agenda"]. */
export function nodePath(cmd: CommandNode): string[] {
  const names: string[] = [];
  for (let c: CommandNode | undefined = cmd; c?.parent; c = c.parent) names.unshift(c.name);
  return names;
}

/** A node with every child listed, recursively down to `depth` levels. */
export async function expanded(cmd: CommandNode, depth = Infinity): Promise<CommandNode> {
  if (cmd.expand) {
    await cmd.expand();
    cmd.expand = undefined;
  }
  if (depth > 1) { for (const c of cmd.commands) await expanded(c, depth - 1); }
  return cmd;
}
