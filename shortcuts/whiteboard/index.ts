/** The whiteboard shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { exportBoard, query, update } from "./board.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [query, exportBoard, update];
