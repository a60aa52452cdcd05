/**
 * The sources of service subtrees, in the seed's order: generated API commands from the registry, the event
 * commands (`event list|schema|consume|status|stop`), then shortcuts from their declarations (a shortcut
 * attaches to the service command the registry created).
 */
import { registrySource } from "./api_commands/source.ts";
import type { ServiceSource } from "./service_source.ts";
import { lazy } from "./lazy.ts";
import { shortcutSource } from "../shortcuts/source.ts";

/**
 * The event commands' module (with the hub client and event catalogue behind it) loads only for a run that
 * builds the `event` service; listing the service needs nothing of it.
 */
const eventSource: ServiceSource = {
  list: () => [{
    name: "event",
    description: "Events: receive the suite's events over the app's long connection",
    identities: ["bot"],
  }],
  async register(serviceCmd, service, ctx) {
    if (service === "event") {
      const [{ eventCommands }, { registerDeclared }] = await Promise.all([
        lazy("cli/commands/event.ts"),
        lazy("cli/resolve/commander_bridge.ts"),
      ]);
      registerDeclared(serviceCmd.parent!, ctx, eventCommands);
    }
  },
};

export const SERVICE_SOURCES: ServiceSource[] = [registrySource, eventSource, shortcutSource];
