/**
 * The sources of service subtrees, in the seed's order: generated API commands from the registry, the event
 * commands (`event list|schema|consume|status|stop`), then shortcuts from their declarations (a shortcut
 * attaches to the service command the registry created).
 */
import { registrySource } from "./api_commands/source.ts";
import { eventSource } from "./commands/event.ts";
import type { ServiceSource } from "./service_source.ts";
import { shortcutSource } from "../shortcuts/source.ts";

export const SERVICE_SOURCES: ServiceSource[] = [registrySource, eventSource, shortcutSource];
