/** The slides shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import * as s from "./slides.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  s.create,
  s.xmlGet,
  s.addSlideShortcut,
  s.deleteSlide,
  s.replaceSlide,
  s.updateSlide,
  s.historyList,
  s.historyRevert,
  s.historyRevertStatus,
  s.mediaUpload,
];
