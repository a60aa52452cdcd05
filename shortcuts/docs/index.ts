/**
 * The docs shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the docs service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { createDoc } from "./create.ts";
import { fetchDoc } from "./fetch.ts";
import { updateDoc } from "./update.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  createDoc,
  fetchDoc,
  updateDoc,
];
