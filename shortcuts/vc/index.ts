/**
 * The vc (video meetings) shortcuts: one line each in SHORTCUTS (see `shortcuts/README.md`). Loaded only when
 * a run builds the vc service.
 */
import type { FlagSpecs, Shortcut } from "../declare.ts";
import { meetingEvents, meetingJoin, meetingLeave, meetingListActive, meetingMessageSend } from "./bots.ts";
import { detail } from "./detail.ts";
import { notes } from "./notes.ts";
import { recording } from "./recording.ts";
import { search } from "./search.ts";

export const SHORTCUTS: Shortcut<FlagSpecs>[] = [
  search,
  detail,
  recording,
  notes,
  meetingJoin,
  meetingLeave,
  meetingListActive,
  meetingEvents,
  meetingMessageSend,
];
