/**
 * A fixed command (`config set`, `doctor`, `skills show <domain>`) declared in the shape shortcuts use: its
 * words, flags built with the shortcut flag builders (`shortcuts/declare.ts`), positional arguments, identities,
 * risk, turn policy and ONE `action(ctx, opts)`. The resolver (`cli/resolve/parse.ts`) parses argv against
 * these declarations, so help, usage errors, completion, strict-mode pruning, turn gating and the catalogue
 * all read the same data.
 */
import type { FlagSpec, FlagSpecs, FlagValues } from "../../shortcuts/declare.ts";
import type { TurnPolicy } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import type { Identity } from "../output/envelope.ts";
import type { Risk } from "../provider.ts";

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

/** A group of commands (`config`, `skills`): a word with a description and no action of its own. */
export interface CommandGroup {
  words: string[];
  description: string;
}

/** What an action receives: the typed flag values and the positional words, in declaration order. */
export interface ActionOptions<F extends FlagSpecs> {
  flags: FlagValues<F>;
  args: string[];
}

export interface FixedCommand<F extends FlagSpecs = FlagSpecs> {
  /** From the root: ["skills", "show"]. */
  words: string[];
  description: string;
  flags: F;
  args?: ArgSpec[];
  /** Other names for the last word. */
  aliases?: string[];
  /** Short flag letters: `{ jq: "q" }` makes `-q` mean `--jq`. */
  shorts?: Partial<Record<keyof F & string, string>>;
  /** Left out of help, completion and the catalogue (`event hub`, which `consume` starts). */
  hidden?: boolean;
  /** Text help shows after the flags. */
  helpAfter?: string;
  /** Options it does not declare are kept among its arguments (`sandbox run <larkit argv...>`). */
  passUnknownOptions?: boolean;
  identities?: Identity[];
  risk?: Risk;
  turn: TurnPolicy;
  action(ctx: RunContext, opts: ActionOptions<F>): Promise<void>;
}

/** Declares a fixed command; the identity function that gives `action` its typed flags. */
export function defineCommand<F extends FlagSpecs>(cmd: FixedCommand<F>): FixedCommand<F> {
  return cmd;
}

/** A module's declarations: the groups and the commands under them. */
export interface CommandModule {
  groups: CommandGroup[];
  commands: FixedCommand[];
}

/** The attribute a flag's value is stored under: `--page-all` -> `pageAll`, as the options objects spell it. */
export function attributeOf(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The flag as help and usage errors spell it: `--format <format>`, `--offline`, `--no-wait`. */
export function flagUsage(name: string, spec: FlagSpec<unknown>): string {
  if (spec.kind === "boolean") return spec.negatable ? `--no-${name}` : `--${name}`;
  return `--${name} <${spec.placeholder ?? "value"}>`;
}
