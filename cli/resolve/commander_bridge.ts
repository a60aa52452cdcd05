/**
 * WIP bridge: hangs declared fixed commands (`cli/resolve/declare.ts`) on the commander tree while the tree
 * still routes, renders help and completes. Commander only routes to the leaf; the leaf runs through
 * `runDeclared` on the resolver's own parse of the run's argv. This file goes with commander.
 */
import type { Command } from "commander";
import type { FlagSpec, FlagSpecs } from "../../shortcuts/declare.ts";
import { type FlagMeta, hide, setMeta } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { type CommandModule, type FixedCommand, flagUsage } from "./declare.ts";
import { landOn } from "./parse.ts";
import { runDeclared } from "./run.ts";

function described(spec: FlagSpec<unknown>): string {
  const notes = [
    spec.choices ? `(${spec.choices.join("|")})` : "",
    spec.required ? "(required)" : "",
    spec.defaultText !== undefined ? `(default: ${spec.defaultText})` : "",
  ].filter(Boolean);
  return [spec.description, ...notes].join(" ");
}

function flagMeta(spec: FlagSpec<unknown>): FlagMeta {
  return {
    type: spec.repeatable ? "string[]" : spec.kind,
    ...(spec.input ? { input: spec.input } : {}),
    ...(spec.required ? { required: true } : {}),
    ...(spec.defaultText !== undefined ? { default: spec.defaultText } : {}),
  };
}

function child(parent: Command, word: string): Command | undefined {
  return parent.commands.find((c) => c.name() === word);
}

function addCommand(program: Command, ctx: RunContext, modules: CommandModule[], decl: FixedCommand): void {
  let parent = program;
  for (const word of decl.words.slice(0, -1)) parent = child(parent, word) ?? parent.command(word);
  const cmd = parent.command(decl.words.at(-1) as string).description(decl.description);
  if (decl.aliases) cmd.aliases(decl.aliases);
  if (decl.passUnknownOptions) cmd.allowUnknownOption();
  if (decl.hidden) hide(cmd);
  if (decl.helpAfter) cmd.addHelpText("after", decl.helpAfter);
  const shorts = (decl.shorts ?? {}) as Record<string, string>;
  for (const [name, spec] of Object.entries(decl.flags as FlagSpecs)) {
    const usage = flagUsage(name, spec);
    cmd.option(shorts[name] ? `-${shorts[name]}, ${usage}` : usage, described(spec));
  }
  for (const arg of decl.args ?? []) {
    const shown = `${arg.name}${arg.variadic ? "..." : ""}`;
    const declared = cmd.createArgument(arg.required ? `<${shown}>` : `[${shown}]`, arg.description);
    if (arg.choices) declared.choices(arg.choices);
    if (arg.default !== undefined) declared.default(arg.default);
    cmd.addArgument(declared);
  }
  cmd.action(async () => {
    const at = landOn(modules, ctx.argv);
    if (at.kind !== "command" || at.command !== decl) throw new Error(`resolver disagrees on ${decl.words}`);
    await runDeclared(ctx, decl, at.rest);
  });
  setMeta(cmd, {
    layer: "builtin",
    turn: decl.turn,
    ...(decl.identities ? { identities: decl.identities } : {}),
    ...(decl.risk ? { risk: decl.risk } : {}),
    // Keyed as the catalogue reads them: by the long flag as typed (`no-daemon` for a negatable one).
    flags: Object.fromEntries(
      Object.entries(decl.flags as FlagSpecs).map((
        [n, s],
      ) => [flagUsage(n, s).split(" ")[0].slice(2), flagMeta(s)]),
    ),
  });
}

/** Registers a module's groups and commands on the tree, in declaration order. */
export function registerDeclared(program: Command, ctx: RunContext, module: CommandModule): void {
  for (const group of module.groups) {
    let parent = program;
    for (const word of group.words) parent = child(parent, word) ?? parent.command(word);
    parent.description(group.description);
    setMeta(parent, { layer: "builtin" });
  }
  for (const decl of module.commands) addCommand(program, ctx, [module], decl);
}
