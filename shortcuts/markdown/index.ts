/** The markdown shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { diff, overwrite, patch } from "./edit.ts";
import { create, fetchFile } from "./files.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [create, fetchFile, overwrite, patch, diff];
