/**
 * The interface of a source of service subtrees (the registry's generated API commands, the shortcut
 * declarations). Kept apart from `cli/tree.ts` so the sources can implement it without importing the tree.
 */
import type { Command } from "commander";
import type { RunContext } from "./context.ts";
import type { Identity } from "./output/envelope.ts";

export interface ServiceSummary {
  name: string;
  description: string;
  /** Union of the identities its commands support (for strict-mode pruning of unbuilt services). */
  identities: Identity[];
}

/** A provider of service subtrees: the registry's generated API commands, the shortcut declarations. */
export interface ServiceSource {
  list(ctx: RunContext): ServiceSummary[] | Promise<ServiceSummary[]>;
  register(serviceCmd: Command, service: string, ctx: RunContext): void | Promise<void>;
}
