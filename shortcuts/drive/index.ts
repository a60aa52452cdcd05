/**
 * The drive shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the drive service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { download } from "./download.ts";
import { upload } from "./upload.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  upload,
  download,
];
