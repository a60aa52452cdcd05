/**
 * The fixed commands, registered before any service. One entry per command module: the top-level names it
 * registers and how to load it. A run loads only the module its first word names (start-up: `app-server`
 * alone pulls in the agent server, `remote-control` the relay client); root help, completion at the root, the
 * catalogue and an unknown first word load them all. `cli/commands/index_test.ts` checks the names.
 */
import type { Command } from "commander";
import type { RunContext } from "../context.ts";
import type * as Completion from "./completion.ts";
import type * as Catalogue from "./catalogue.ts";
import type * as Config from "./config.ts";
import type * as Auth from "./auth.ts";
import type * as Profile from "./profile.ts";
import type * as Api from "./api.ts";
import type * as Schema from "./schema.ts";
import type * as Registry from "./registry.ts";
import type * as Doctor from "./doctor.ts";
import type * as AppServer from "./app_server.ts";
import type * as RemoteControl from "./remote_control.ts";
import type * as RelayDev from "./relay_dev.ts";
import type * as Sandbox from "./sandbox.ts";
import type * as Skills from "./skills.ts";

/**
 * Imports through a specifier Deno cannot resolve ahead of time: a literal specifier would put every
 * command's module graph (the agent server, the relay client, the emulator) into every run's start-up. The type
 * imports above keep them type-checked; `deno task compile` lists them for `--include`.
 */
const later = <T>(path: string): Promise<T> => import(path);

export type RegisterFixed = (program: Command, ctx: RunContext) => void;

export interface FixedCommand {
  /** The top-level commands the module registers, so a run can tell them from services without loading it. */
  names: string[];
  load(): Promise<RegisterFixed>;
}

export const FIXED_COMMANDS: FixedCommand[] = [
  {
    names: ["completion", "__complete"],
    load: async () => (await later<typeof Completion>("./completion.ts")).registerCompletion,
  },
  {
    names: ["commands"],
    load: async () => (await later<typeof Catalogue>("./catalogue.ts")).registerCatalogue,
  },
  { names: ["config"], load: async () => (await later<typeof Config>("./config.ts")).registerConfig },
  { names: ["auth"], load: async () => (await later<typeof Auth>("./auth.ts")).registerAuth },
  { names: ["profile"], load: async () => (await later<typeof Profile>("./profile.ts")).registerProfile },
  { names: ["api"], load: async () => (await later<typeof Api>("./api.ts")).registerApi },
  { names: ["schema"], load: async () => (await later<typeof Schema>("./schema.ts")).registerSchema },
  { names: ["registry"], load: async () => (await later<typeof Registry>("./registry.ts")).registerRegistry },
  { names: ["doctor"], load: async () => (await later<typeof Doctor>("./doctor.ts")).registerDoctor },
  {
    names: ["app-server"],
    load: async () => (await later<typeof AppServer>("./app_server.ts")).registerAppServer,
  },
  {
    names: ["remote-control"],
    load: async () => (await later<typeof RemoteControl>("./remote_control.ts")).registerRemoteControl,
  },
  { names: ["relay"], load: async () => (await later<typeof RelayDev>("./relay_dev.ts")).registerRelayDev },
  { names: ["sandbox"], load: async () => (await later<typeof Sandbox>("./sandbox.ts")).registerSandbox },
  { names: ["skills"], load: async () => (await later<typeof Skills>("./skills.ts")).registerSkills },
];

/** Every fixed top-level name (a service of the same name is not added: the fixed command wins). */
export const FIXED_NAMES: ReadonlySet<string> = new Set(FIXED_COMMANDS.flatMap((f) => f.names));

/** Loads the given modules at once and registers them in the list's order. */
export async function registerFixed(program: Command, ctx: RunContext, which: FixedCommand[]): Promise<void> {
  const registers = await Promise.all(which.map((f) => f.load()));
  for (const register of registers) register(program, ctx);
}
