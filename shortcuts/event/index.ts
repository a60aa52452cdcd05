/**
 * The event shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the event service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { subscribe } from "./subscribe.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  subscribe,
];
