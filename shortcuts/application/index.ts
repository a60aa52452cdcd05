/**
 * The application shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the application service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import {
  slashCommandCreate,
  slashCommandDelete,
  slashCommandList,
  slashCommandUpdate,
} from "./slash_commands.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  slashCommandList,
  slashCommandCreate,
  slashCommandUpdate,
  slashCommandDelete,
];
