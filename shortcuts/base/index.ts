/**
 * The base shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the base service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { recordUpsert } from "./record_upsert.ts";
import { recordsList } from "./records_list.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  recordsList,
  recordUpsert,
];
