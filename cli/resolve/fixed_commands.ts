/**
 * The fixed commands, listed before any service. One entry per command module: the top-level names it
 * declares and how to load its declarations. A run loads only the module its first word names (start-up:
 * `app-server` alone pulls in the agent server, `remote-control` the relay client); the root's live list and
 * the catalogue load them all. `cli/commands/index_test.ts` checks the names.
 */
import { lazy } from "../lazy.ts";
import type { CommandModule } from "./declare.ts";

export interface FixedCommand {
  /** The top-level commands the module declares, so a run can tell them from services without loading it. */
  names: string[];
  load(): Promise<CommandModule>;
}

export const FIXED_COMMANDS: FixedCommand[] = [
  {
    names: ["completion", "__complete"],
    load: async () => (await lazy("cli/commands/completion.ts")).completionCommands,
  },
  { names: ["commands"], load: async () => (await lazy("cli/commands/catalogue.ts")).catalogueCommands },
  { names: ["config"], load: async () => (await lazy("cli/commands/config.ts")).configCommands },
  { names: ["auth"], load: async () => (await lazy("cli/commands/auth.ts")).authCommands },
  { names: ["profile"], load: async () => (await lazy("cli/commands/profile.ts")).profileCommands },
  { names: ["api"], load: async () => (await lazy("cli/commands/api.ts")).apiCommands },
  { names: ["schema"], load: async () => (await lazy("cli/commands/schema.ts")).schemaCommands },
  { names: ["registry"], load: async () => (await lazy("cli/commands/registry.ts")).registryCommands },
  { names: ["doctor"], load: async () => (await lazy("cli/commands/doctor.ts")).doctorCommands },
  { names: ["app-server"], load: async () => (await lazy("cli/commands/app_server.ts")).appServerCommands },
  {
    names: ["remote-control"],
    load: async () => (await lazy("cli/commands/remote_control.ts")).remoteControlCommands,
  },
  { names: ["relay"], load: async () => (await lazy("cli/commands/relay_dev.ts")).relayCommands },
  { names: ["sandbox"], load: async () => (await lazy("cli/commands/sandbox.ts")).sandboxCommands },
  { names: ["skills"], load: async () => (await lazy("cli/commands/skills.ts")).skillsCommands },
];

/** Every fixed top-level name (a service of the same name is not added: the fixed command wins). */
export const FIXED_NAMES: ReadonlySet<string> = new Set(FIXED_COMMANDS.flatMap((f) => f.names));
