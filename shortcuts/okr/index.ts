/**
 * The okr shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run builds
 * the okr service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { batchCreate, create, indicatorUpdate, patch, reorder, weight } from "./content.ts";
import { cycleDetail, cycleList } from "./cycles.ts";
import { progressCreate, progressDelete, progressGet, progressList, progressUpdate } from "./progress.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  cycleList,
  cycleDetail,
  create,
  patch,
  batchCreate,
  reorder,
  weight,
  indicatorUpdate,
  progressList,
  progressGet,
  progressCreate,
  progressUpdate,
  progressDelete,
];
