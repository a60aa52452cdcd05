/**
 * What the tree knows about each command beyond commander's own fields: its layer, the identities it supports,
 * its risk and scopes. Strict-mode pruning, the `commands` catalogue and approvals all read it from here, so
 * they cannot disagree with the declarations that built the tree.
 */
import type { Command } from "commander";
import type { Identity } from "./output/envelope.ts";
import type { Risk } from "./provider.ts";

export type Layer = "shortcut" | "api" | "builtin";

export interface FlagMeta {
  type: "string" | "boolean" | "integer" | "string[]" | "json";
  /** Where the value may come from besides the command line: `@file`, `-` (stdin). */
  input?: ("file" | "stdin")[];
}

export interface CommandMeta {
  layer: Layer;
  /** Identities the command can run as; absent = identity-agnostic (config, schema, …). */
  identities?: Identity[];
  risk?: Risk;
  scopes?: Partial<Record<Identity, string[]>>;
  dryRun?: boolean;
  pagination?: boolean;
  /** Per long flag name without dashes, e.g. `{ "text": { type: "string", input: ["file", "stdin"] } }`. */
  flags?: Record<string, FlagMeta>;
}

const META = new WeakMap<Command, CommandMeta>();

export function setMeta(cmd: Command, meta: CommandMeta): Command {
  META.set(cmd, meta);
  return cmd;
}

export function metaOf(cmd: Command): CommandMeta | undefined {
  return META.get(cmd);
}

/** Commander keeps `hidden` private; help, completion and the catalogue all skip hidden commands. */
export function isHidden(cmd: Command): boolean {
  return Boolean((cmd as unknown as { _hidden?: boolean })._hidden);
}

export function hide(cmd: Command): Command {
  (cmd as unknown as { _hidden: boolean })._hidden = true;
  return cmd;
}

/** The command's path from the root, without the program name: ["calendar", "+agenda"]. */
export function commandPath(cmd: Command): string[] {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names;
}
