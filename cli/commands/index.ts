/**
 * The fixed commands, registered before any service. One line per command module.
 */
import type { Command } from "commander";
import type { RunContext } from "../context.ts";
import { registerCatalogue } from "./catalogue.ts";
import { registerApi } from "./api.ts";
import { registerAppServer } from "./app_server.ts";
import { registerAuth } from "./auth.ts";
import { registerCompletion } from "./completion.ts";
import { registerConfig } from "./config.ts";
import { registerDoctor } from "./doctor.ts";
import { registerProfile } from "./profile.ts";
import { registerRegistry } from "./registry.ts";
import { registerRelayDev } from "./relay_dev.ts";
import { registerRemoteControl } from "./remote_control.ts";
import { registerSandbox } from "./sandbox.ts";
import { registerSchema } from "./schema.ts";
import { registerSkills } from "./skills.ts";

export type RegisterFixed = (program: Command, ctx: RunContext) => void;

export const FIXED_COMMANDS: RegisterFixed[] = [
  registerCompletion,
  registerCatalogue,
  registerConfig,
  registerAuth,
  registerProfile,
  registerApi,
  registerSchema,
  registerRegistry,
  registerDoctor,
  registerAppServer,
  registerRemoteControl,
  registerRelayDev,
  registerSandbox,
  registerSkills,
];
