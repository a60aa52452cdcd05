/**
 * The note shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the note service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { noteDetail, noteTranscript } from "./notes.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  noteDetail,
  noteTranscript,
];
