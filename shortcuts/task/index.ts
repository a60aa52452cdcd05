/**
 * The task shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the task service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { complete } from "./complete.ts";
import { create } from "./create.ts";
import { myTasks } from "./my_tasks.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  create,
  myTasks,
  complete,
];
