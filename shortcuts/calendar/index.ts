/**
 * The calendar shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the calendar service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { agenda } from "./agenda.ts";
import { create } from "./create.ts";
import { freebusy } from "./freebusy.ts";
import { rsvp } from "./rsvp.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  agenda,
  create,
  freebusy,
  rsvp,
];
