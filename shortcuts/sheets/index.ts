/**
 * The sheets shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the sheets service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { append } from "./append.ts";
import { read } from "./read.ts";
import { write } from "./write.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  read,
  write,
  append,
];
