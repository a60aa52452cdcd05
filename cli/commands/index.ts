/**
 * The fixed commands, registered before any service. One line per command module.
 */
import type { Command } from "commander";
import type { RunContext } from "../context.ts";
import { registerCompletion } from "./completion.ts";

export type RegisterFixed = (program: Command, ctx: RunContext) => void;

export const FIXED_COMMANDS: RegisterFixed[] = [
  registerCompletion,
];
