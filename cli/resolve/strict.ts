/**
 * Strict mode (`config strict-mode user|bot`) as the resolver applies it: a command whose identities leave
 * out the one allowed is hidden from help, completion and the catalogue, and refused when called directly.
 */
import type { StrictMode } from "../auth/types.ts";
import type { RunContext } from "../context.ts";
import { errors, type LarkitError } from "../output/errors.ts";
import { type CommandNode, runsAsBoth } from "./node.ts";

export type { StrictMode };

/** The run's strict mode: "off" when nothing is configured yet (the command itself reports that). */
export async function strictModeOf(ctx: RunContext): Promise<StrictMode> {
  try {
    return (await ctx.credentials().account()).strictMode;
  } catch {
    return "off";
  }
}

/** Whether the mode forbids a command with these identities (none declared: identity-agnostic, allowed). */
export function forbids(mode: StrictMode, identities: readonly string[] | undefined): boolean {
  return mode !== "off" && identities !== undefined && !identities.includes(mode);
}

/**
 * Whether strict mode refuses this leaf. A leaf that runs as both identities is allowed whatever the mode,
 * so the account is not even read for it (an unknown option's envelope then loads no credential chain).
 */
export async function refusesLeaf(ctx: RunContext, node: CommandNode): Promise<StrictMode | undefined> {
  if (runsAsBoth(node)) return undefined;
  const mode = await strictModeOf(ctx);
  return forbids(mode, node.identities) ? mode : undefined;
}

export function strictRefusal(mode: StrictMode): LarkitError {
  return errors.strictMode(`strict mode is "${mode}": only the ${mode} identity is allowed`, {
    hint:
      "this setting is managed by the administrator (larkit config strict-mode); do not change it as an agent",
  });
}

/** Hides what the mode forbids among a listed node's children (and a group whose children are all hidden). */
export function prune(node: CommandNode, mode: StrictMode): void {
  if (mode === "off") return;
  for (const child of node.commands) {
    if (child.commands.length > 0) {
      prune(child, mode);
      if (child.commands.every((c) => c.hidden)) child.hidden = true;
    } else if (forbids(mode, child.identities)) child.hidden = true;
  }
}
