/**
 * `vc +recording`: the recording and minute token of meetings, named by meeting ID or by the calendar events
 * they belong to (resolved through the calendar's relation info).
 */
import { errors } from "../../cli/output/errors.ts";
import { resolveCalendarId } from "../calendar/primary_calendar.ts";
import { relationInfoOf } from "../calendar/relation.ts";
import { defineShortcut, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { recordingOf } from "./detail.ts";
import { tokenList } from "./common.ts";

/** `--meeting-ids` or `--calendar-event-ids` (exactly one) -> [meeting ID, the event it came from]. */
export async function meetingsOf<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  f: { "meeting-ids"?: string; "calendar-event-ids"?: string; "calendar-id"?: string },
): Promise<{ meeting_id: string; event_id?: string }[]> {
  if (!!f["meeting-ids"] === !!f["calendar-event-ids"]) {
    throw errors.validation("give exactly one of --meeting-ids and --calendar-event-ids");
  }
  if (f["meeting-ids"]) {
    return tokenList("meeting-ids", f["meeting-ids"], 20).map((meeting_id) => ({ meeting_id }));
  }
  const events = tokenList("calendar-event-ids", f["calendar-event-ids"], 20);
  const calendarId = await resolveCalendarId(ctx, f["calendar-id"]);
  const infos = await relationInfoOf(ctx, calendarId, events);
  return infos.flatMap((i) =>
    (i.meeting_instance_ids ?? []).map((meeting_id) => ({ meeting_id, event_id: i.event_id }))
  );
}

export const meetingFlags = {
  "meeting-ids": flag.string("meeting IDs, comma-separated (at most 20)"),
  "calendar-event-ids": flag.string("calendar event IDs, comma-separated, instead of --meeting-ids"),
  "calendar-id": flag.string("calendar of --calendar-event-ids (default: primary)"),
};

export const recording = defineShortcut({
  service: "vc",
  command: "+recording",
  description: "Get the recording and minute token of meetings (by meeting ID or calendar event ID)",
  examples: [
    "larkit vc +recording --meeting-ids 6911188411934433028",
    "larkit vc +recording --calendar-event-ids 9f1c_0 --jq '.data[].minute_token'",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["vc:record:readonly"], bot: ["vc:record:readonly"] },
  hasFormat: true,
  columns: ["meeting_id", "minute_token", "recording.url", "recording.duration"],
  flags: meetingFlags,
  async run(ctx) {
    const out = [];
    for (const m of await meetingsOf(ctx, ctx.flags)) {
      const rec = await recordingOf(ctx, m.meeting_id);
      out.push({ ...m, minute_token: rec?.minute_token ?? null, recording: rec });
    }
    await ctx.outFormat(out, { count: out.length });
  },
});
