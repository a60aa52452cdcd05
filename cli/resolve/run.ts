/**
 * Runs a declared fixed command on the words after its own: the resolver's parse, then the flag builders'
 * schemas (`@file`/stdin sources included), then its one `action`. The tree's bridge and the lean `app-server`
 * line both come here, so a command's values never depend on which door the run came in by.
 */
import type { FlagSpecs } from "../../shortcuts/declare.ts";
import { resolveFlags } from "../../shortcuts/inputs.ts";
import type { RunContext } from "../context.ts";
import { lazy } from "../lazy.ts";
import type { ActionOptions, FixedCommand } from "./declare.ts";
import { parseCommand } from "./parse.ts";

/** A declared command's typed flag values and arguments from the words after its own. */
export async function resolveDeclared<F extends FlagSpecs>(
  ctx: RunContext,
  cmd: FixedCommand<F>,
  rest: string[],
): Promise<ActionOptions<F>> {
  const parsed = parseCommand(cmd as FixedCommand<FlagSpecs>, rest);
  const flags = await resolveFlags(ctx.p, cmd.flags, parsed.raw, `larkit ${cmd.words.join(" ")} --help`);
  // A `--jq` filter that does not compile is refused before the command acts (a done action keeps its result).
  const jq = (flags as { jq?: unknown }).jq;
  if (typeof jq === "string") await (await lazy("cli/output/formats/jq.ts")).checkJq(jq);
  return { flags, args: parsed.args };
}

export async function runDeclared(
  ctx: RunContext,
  cmd: FixedCommand<FlagSpecs>,
  rest: string[],
): Promise<void> {
  await cmd.action(ctx, await resolveDeclared(ctx, cmd, rest));
}
