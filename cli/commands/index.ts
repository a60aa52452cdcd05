/**
 * The fixed commands, registered before any service. One entry per command module: the top-level names it
 * registers and how to load it. A run loads only the module its first word names (start-up: `app-server`
 * alone pulls in the agent server, `remote-control` the relay client); root help, completion at the root, the
 * catalogue and an unknown first word load them all. `cli/commands/index_test.ts` checks the names.
 */
import type { Command } from "commander";
import type { RunContext } from "../context.ts";
import { lazy } from "../lazy.ts";
import type { CommandModule } from "../resolve/declare.ts";

export type RegisterFixed = (program: Command, ctx: RunContext) => void;

export interface FixedCommand {
  /** The top-level commands the module registers, so a run can tell them from services without loading it. */
  names: string[];
  load(): Promise<RegisterFixed>;
}

/** A module of declared commands, hung on the tree through the WIP bridge until the tree goes. */
const declared = (load: () => Promise<CommandModule>) => async (): Promise<RegisterFixed> => {
  const [module, bridge] = await Promise.all([load(), lazy("cli/resolve/commander_bridge.ts")]);
  return (program, ctx) => bridge.registerDeclared(program, ctx, module);
};

export const FIXED_COMMANDS: FixedCommand[] = [
  {
    names: ["completion", "__complete"],
    load: async () => (await lazy("cli/commands/completion.ts")).registerCompletion,
  },
  {
    names: ["commands"],
    load: declared(async () => (await lazy("cli/commands/catalogue.ts")).catalogueCommands),
  },
  { names: ["config"], load: declared(async () => (await lazy("cli/commands/config.ts")).configCommands) },
  { names: ["auth"], load: declared(async () => (await lazy("cli/commands/auth.ts")).authCommands) },
  { names: ["profile"], load: declared(async () => (await lazy("cli/commands/profile.ts")).profileCommands) },
  { names: ["api"], load: async () => (await lazy("cli/commands/api.ts")).registerApi },
  { names: ["schema"], load: declared(async () => (await lazy("cli/commands/schema.ts")).schemaCommands) },
  {
    names: ["registry"],
    load: declared(async () => (await lazy("cli/commands/registry.ts")).registryCommands),
  },
  { names: ["doctor"], load: declared(async () => (await lazy("cli/commands/doctor.ts")).doctorCommands) },
  {
    names: ["app-server"],
    load: declared(async () => (await lazy("cli/commands/app_server.ts")).appServerCommands),
  },
  {
    names: ["remote-control"],
    load: declared(async () => (await lazy("cli/commands/remote_control.ts")).remoteControlCommands),
  },
  { names: ["relay"], load: declared(async () => (await lazy("cli/commands/relay_dev.ts")).relayCommands) },
  { names: ["sandbox"], load: declared(async () => (await lazy("cli/commands/sandbox.ts")).sandboxCommands) },
  { names: ["skills"], load: declared(async () => (await lazy("cli/commands/skills.ts")).skillsCommands) },
];

/** Every fixed top-level name (a service of the same name is not added: the fixed command wins). */
export const FIXED_NAMES: ReadonlySet<string> = new Set(FIXED_COMMANDS.flatMap((f) => f.names));

/** Loads the given modules at once and registers them in the list's order. */
export async function registerFixed(program: Command, ctx: RunContext, which: FixedCommand[]): Promise<void> {
  const registers = await Promise.all(which.map((f) => f.load()));
  for (const register of registers) register(program, ctx);
}
