/**
 * The calendar shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when a run
 * builds the calendar service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { agenda } from "./agenda.ts";
import { joinEvent, listAttendees } from "./attendees.ts";
import { create } from "./create.ts";
import { remove } from "./delete.ts";
import { freebusy } from "./freebusy.ts";
import { get } from "./get.ts";
import { meeting } from "./meeting.ts";
import { roomFind } from "./room_find.ts";
import { rsvp } from "./rsvp.ts";
import { searchEvent } from "./search_event.ts";
import { suggestion } from "./suggestion.ts";
import { update } from "./update.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  agenda,
  create,
  freebusy,
  rsvp,
  get,
  update,
  remove,
  searchEvent,
  listAttendees,
  joinEvent,
  meeting,
  suggestion,
  roomFind,
];
