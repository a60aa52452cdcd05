/**
 * `vc +detail`: meetings by ID -- topic, times, host, the note behind it -- each with its recording (and the
 * minute token the recording's URL names) when there is one.
 */
import * as z from "zod";
import { LarkitError } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { minuteTokenOf, tokenList, vcPath } from "./common.ts";

const Meeting = z.object({ meeting: z.looseObject({ id: z.optional(z.string()) }) });
const Recording = z.object({
  recording: z.optional(z.looseObject({ url: z.optional(z.string()), duration: z.optional(z.string()) })),
});

/** The recording of a meeting, or null when the suite says it has none (not an error for a listing). */
export async function recordingOf<F extends FlagSpecs>(ctx: ShortcutContext<F>, meetingId: string) {
  try {
    const { recording } = await ctx.api({
      method: "GET",
      path: vcPath(`/meetings/${encodeURIComponent(meetingId)}/recording`),
      description: "the meeting's recording",
      response: Recording,
      planned: { recording: { url: "<recording_url>" } },
    });
    if (!recording) return null;
    return { ...recording, minute_token: minuteTokenOf(recording.url) };
  } catch (e) {
    if (e instanceof LarkitError && e.subtype === "not_found") return null;
    throw e;
  }
}

export const detail = defineShortcut({
  service: "vc",
  command: "+detail",
  description: "Get meetings by ID with their note ID and recording (minute token)",
  examples: [
    "larkit vc +detail --meeting-ids 6911188411934433028",
    "larkit vc +detail --meeting-ids 69111,69112",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["vc:meeting.meetingevent:read", "vc:record:readonly"],
    bot: ["vc:meeting.meetingevent:read", "vc:record:readonly"],
  },
  hasFormat: true,
  columns: ["topic", "start_time", "end_time", "recording.url", "meeting_id"],
  flags: { "meeting-ids": flag.requiredString("meeting IDs, comma-separated (at most 20)") },
  async run(ctx) {
    const out = [];
    for (const id of tokenList("meeting-ids", ctx.flags["meeting-ids"], 20)) {
      const { meeting } = await ctx.api({
        method: "GET",
        path: vcPath(`/meetings/${encodeURIComponent(id)}`),
        description: "once per meeting",
        response: Meeting,
        planned: { meeting: { id } },
      });
      out.push({ meeting_id: id, ...meeting, recording: await recordingOf(ctx, id) });
    }
    await ctx.outFormat(out, { count: out.length });
  },
});
