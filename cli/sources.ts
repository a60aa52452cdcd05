/**
 * The sources of service subtrees, in the seed's order: generated API commands from the registry, then
 * shortcuts from their declarations (a shortcut attaches to the service command the registry created).
 */
import type { ServiceSource } from "./tree.ts";

export const SERVICE_SOURCES: ServiceSource[] = [];
