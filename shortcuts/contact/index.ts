/**
 * The contact shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the contact service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { getUser } from "./get_user.ts";
import { searchBot } from "./search_bot.ts";
import { searchUser } from "./search_user.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  searchUser,
  searchBot,
  getUser,
];
