/**
 * `vc +notes`: the meeting notes of meetings (by meeting ID or calendar event ID): each meeting's `note_id`,
 * then the note's documents. A meeting without a note is listed with `note: null`.
 */
import * as z from "zod";
import { defineShortcut } from "../declare.ts";
import { vcPath } from "./common.ts";
import { meetingFlags, meetingsOf } from "./recording.ts";

const Meeting = z.object({ meeting: z.looseObject({ note_id: z.nullish(z.string()) }) });
const Note = z.object({ note: z.looseObject({}) });

export const notes = defineShortcut({
  service: "vc",
  command: "+notes",
  description: "Get the meeting notes of meetings (by meeting ID or calendar event ID)",
  examples: [
    "larkit vc +notes --meeting-ids 6911188411934433028",
    "larkit vc +notes --calendar-event-ids 9f1c_0 --jq '.data[].note.doc_token'",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["vc:note:read", "vc:meeting.meetingevent:read"],
    bot: ["vc:note:read", "vc:meeting.meetingevent:read"],
  },
  hasFormat: true,
  columns: ["meeting_id", "note_id", "note.title"],
  flags: meetingFlags,
  async run(ctx) {
    const out = [];
    for (const m of await meetingsOf(ctx, ctx.flags)) {
      const { meeting } = await ctx.api({
        method: "GET",
        path: vcPath(`/meetings/${encodeURIComponent(m.meeting_id)}`),
        description: "the meeting's note ID",
        response: Meeting,
        planned: { meeting: { note_id: "<note_id>" } },
      });
      const noteId = meeting.note_id;
      const note = noteId
        ? (await ctx.api({
          method: "GET",
          path: vcPath(`/notes/${encodeURIComponent(noteId)}`),
          description: "the note",
          response: Note,
          planned: { note: { note_id: noteId } },
        })).note
        : null;
      out.push({ ...m, note_id: noteId ?? null, note });
    }
    await ctx.outFormat(out, { count: out.length });
  },
});
