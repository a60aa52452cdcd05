/**
 * Runs one command line through the resolver: the words land on a node (`parse.ts`), a leaf's line is parsed,
 * put to the host's gate (the agent server's turn rules) and run; help, a group named alone and a strict-mode
 * refusal are answered here. Nothing else reads argv.
 */
import { admit, apiOperand, type CommandGate, type ResolvedCommand } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { emitRendered } from "../output/emit.ts";
import { lazy } from "../lazy.ts";
import { type CommandNode, expanded, nodePath, type ParsedLine, runsAsBoth } from "./node.ts";
import { landOn, parseLine } from "./parse.ts";
import { rootNode } from "./root.ts";

/** What a host's gate is shown for a leaf about to run. */
export function resolvedOf(node: CommandNode, line: ParsedLine): ResolvedCommand {
  const path = nodePath(node);
  const layer = node.layer ?? "builtin";
  // Raw `api` addresses the service its path operand names (and the host, if it names one).
  const target = path[0] === "api" && layer === "api"
    ? apiOperand(line.args[1] ?? "")
    : { service: layer === "builtin" ? undefined : path[0] };
  return { path, layer, ...target, ...(node.turn ? { turn: node.turn } : {}) };
}

/** Prints the help of a node, its children listed and pruned for strict mode. */
async function showHelp(ctx: RunContext, node: CommandNode): Promise<number> {
  const { forbids, prune, strictModeOf, strictRefusal } = await lazy("cli/resolve/strict.ts");
  const mode = await strictModeOf(ctx);
  // A leaf strict mode forbids refuses to run, help included.
  if (node.leaf && !node.listed && forbids(mode, node.identities)) throw strictRefusal(mode);
  await node.describe?.();
  if (!node.leaf) {
    // The root's children are listed, not built: a service's methods are not read for the root's help.
    await expanded(node, node.parent ? 2 : 1);
    prune(node, mode);
  }
  const stdout = ctx.p.stdout;
  const { formatHelp } = await lazy("cli/resolve/help_format.ts");
  await emitRendered(ctx, formatHelp(node, (stdout.isTTY ? stdout.columns : undefined) ?? 80));
  return 0;
}

export async function runLine(argv: string[], ctx: RunContext, gate?: CommandGate): Promise<number> {
  const { node, rest, help } = await landOn(rootNode(ctx), argv);
  if (help || !node.leaf || !node.run) return await showHelp(ctx, node);
  // Strict mode's module loads only for a leaf it could refuse (one that runs as one identity only).
  if (!runsAsBoth(node)) {
    const { refusesLeaf, strictRefusal } = await lazy("cli/resolve/strict.ts");
    const refused = await refusesLeaf(ctx, node);
    if (refused) throw strictRefusal(refused);
  }
  const line = parseLine(node, rest);
  // Decided on the leaf the words resolved, after parsing: argv tricks (`--`, quoting) cannot hide it.
  admit(gate, resolvedOf(node, line));
  await node.run(ctx, line);
  return ctx.state.exitCode ?? 0;
}
