/** `calendar +meeting`: the video meeting, notes and minutes behind events (user identity only). */
import { defineShortcut, flag } from "../declare.ts";
import { tokenList } from "../vc/common.ts";
import { resolveCalendarId } from "./primary_calendar.ts";
import { relationInfoOf } from "./relation.ts";

export const meeting = defineShortcut({
  service: "calendar",
  command: "+meeting",
  description: "Get the meeting IDs, notes and minutes behind calendar events (user identity only)",
  examples: [
    "larkit calendar +meeting --event-ids e_1,e_2",
    "larkit calendar +meeting --event-ids e_1 --jq '.data[0].meeting_instance_ids'",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["calendar:calendar.event:read"] },
  hasFormat: true,
  columns: ["event_id", "meeting_instance_ids", "meeting_minute", "meeting_notes"],
  flags: {
    "event-ids": flag.requiredString("event IDs, comma-separated (at most 20)"),
    "calendar-id": flag.string("calendar ID (default: primary)"),
  },
  async run(ctx) {
    const ids = tokenList("event-ids", ctx.flags["event-ids"], 20);
    const calendarId = await resolveCalendarId(ctx, ctx.flags["calendar-id"]);
    const infos = await relationInfoOf(ctx, calendarId, ids);
    await ctx.outFormat(infos, { count: infos.length });
  },
});
