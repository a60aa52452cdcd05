/**
 * The minutes shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the minutes service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { detail } from "./detail.ts";
import { applyPermission, speakerReplace, summary, todo, update, upload, wordReplace } from "./edits.ts";
import { search } from "./search.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  search,
  detail,
  upload,
  update,
  applyPermission,
  summary,
  todo,
  speakerReplace,
  wordReplace,
];
