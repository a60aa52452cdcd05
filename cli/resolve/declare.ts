/**
 * A fixed command (`config set`, `doctor`, `skills show <domain>`) declared in the shape shortcuts use: its
 * words, flags built with the shortcut flag builders (`shortcuts/declare.ts`), positional arguments, identities,
 * risk, turn policy and ONE `action(ctx, opts)`. The resolver (`cli/resolve/parse.ts`) parses argv against
 * these declarations, so help, usage errors, completion, strict-mode pruning, turn gating and the catalogue
 * all read the same data.
 */
import {
  flagHelp,
  type FlagSpec,
  type FlagSpecs,
  flagUsage,
  type FlagValues,
} from "../../shortcuts/declare.ts";
import type { FlagMeta, TurnPolicy } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { lazy } from "../lazy.ts";
import type { Identity } from "../output/envelope.ts";
import type { Risk } from "../provider.ts";
import { type ArgSpec, type CommandNode, groupNode, type OptionDecl } from "./node.ts";

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
  /** Commands declared as nodes directly (`api`, whose flags are the generated methods'). */
  nodes?: ((parent: CommandNode) => CommandNode)[];
}

/** What the catalogue says of a flag, from the same declaration. */
function flagMeta(spec: FlagSpec<unknown>): FlagMeta {
  return {
    type: spec.repeatable ? "string[]" : spec.kind,
    ...(spec.input ? { input: spec.input } : {}),
    ...(spec.required ? { required: true } : {}),
    ...(spec.defaultText !== undefined ? { default: spec.defaultText } : {}),
  };
}

/** A declared flag as the resolver reads it. Its default is the builders' to apply (`resolveFlags`), not the parse's. */
export function optionOf(name: string, spec: FlagSpec<unknown>): OptionDecl {
  const usage = flagUsage(name, spec);
  return {
    flags: spec.short ? `-${spec.short}, ${usage}` : usage,
    description: flagHelp(spec),
    ...(spec.repeatable ? { repeatable: true } : {}),
    ...(spec.choices ? { choices: spec.choices } : {}),
    ...(spec.deprecated ? { hidden: true } : {}),
    meta: flagMeta(spec),
  };
}

/** A declared command as a node: parsed by the resolver, its values through the flag builders, then its action. */
export function declaredNode(decl: FixedCommand, parent: CommandNode): CommandNode {
  const options = Object.entries(decl.flags as FlagSpecs).map(([name, spec]) => optionOf(name, spec));
  return {
    name: decl.words.at(-1) as string,
    aliases: decl.aliases ?? [],
    description: decl.description,
    options,
    commands: [],
    parent,
    leaf: true,
    ...(decl.hidden ? { hidden: true } : {}),
    ...(decl.args ? { args: decl.args } : {}),
    ...(decl.passUnknownOptions ? { passUnknownOptions: true } : {}),
    ...(decl.helpAfter ? { after: decl.helpAfter } : {}),
    layer: "builtin",
    turn: decl.turn,
    ...(decl.identities ? { identities: decl.identities } : {}),
    ...(decl.risk ? { risk: decl.risk } : {}),
    async run(ctx, line) {
      const { resolveFlags } = await lazy("shortcuts/inputs.ts");
      const flags = await resolveFlags(
        ctx.p,
        decl.flags,
        line.values,
        `larkit ${decl.words.join(" ")} --help`,
      );
      // A `--jq` filter that does not compile is refused before the command acts (a done action keeps its result).
      const jq = (flags as { jq?: unknown }).jq;
      if (typeof jq === "string") await (await lazy("cli/output/formats/jq.ts")).checkJq(jq);
      await decl.action(ctx, { flags, args: line.args });
    },
  };
}

/** The node a path of words names under `root`, made as a group where it is missing. */
function groupAt(root: CommandNode, words: string[]): CommandNode {
  let at = root;
  for (const word of words) {
    let next = at.commands.find((c) => c.name === word);
    if (!next) {
      next = { ...groupNode(word, at), layer: "builtin" };
      at.commands.push(next);
    }
    at = next;
  }
  return at;
}

/**
 * Hangs a module's groups and commands under `root`, in declaration order; `skip` words of each path are
 * `root`'s own (the event commands under the `event` service's node).
 */
export function addDeclared(root: CommandNode, module: CommandModule, skip = 0): void {
  for (const group of module.groups) {
    const node = groupAt(root, group.words.slice(skip));
    node.description = group.description;
  }
  for (const decl of module.commands) {
    const parent = groupAt(root, decl.words.slice(skip, -1));
    parent.commands.push(declaredNode(decl, parent));
  }
  for (const node of module.nodes ?? []) root.commands.push(node(root));
}
