/**
 * The mail shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the mail service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { messages } from "./messages.ts";
import { send } from "./send.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  send,
  messages,
];
