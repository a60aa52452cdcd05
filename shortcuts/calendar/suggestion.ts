/**
 * `calendar +suggestion`: time blocks free for every attendee within a range (today by default), of the
 * given length.
 */
import * as z from "zod";
import { tableOr } from "../common/pretty.ts";
import { formatRfc3339, timeRange } from "../common/time.ts";
import { defineShortcut, flag } from "../declare.ts";
import { openIds } from "../vc/common.ts";

export const suggestion = defineShortcut({
  service: "calendar",
  command: "+suggestion",
  description: "Suggest time blocks free for every attendee (defaults to today, 30 minutes)",
  examples: [
    "larkit calendar +suggestion --attendee-ids ou_123,ou_456 --duration-minutes 45",
    "larkit calendar +suggestion --start 2026-11-24 --end 2026-11-26 --attendee-ids ou_123 --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["calendar:calendar.free_busy:read"], bot: ["calendar:calendar.free_busy:read"] },
  hasFormat: true,
  columns: ["start_time", "end_time"],
  flags: {
    start: flag.string("range start (ISO 8601, date or Unix seconds; default: start of today)"),
    end: flag.string("range end (default: end of the start day)"),
    "attendee-ids": flag.string("attendees' open_ids, comma-separated (default: just you)"),
    "duration-minutes": flag.integer("length of the block", { default: 30, min: 5, max: 1440 }),
    "event-rrule": flag.string("recurrence the block must fit (RFC 5545)"),
    exclude: flag.string("event IDs to treat as free, comma-separated"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const { from, to } = timeRange(f.start, f.end, ctx.now(), ctx.timeZone);
    const attendees = openIds("attendee-ids", f["attendee-ids"]);
    const exclude = f.exclude?.split(",").map((s) => s.trim()).filter(Boolean);
    const { suggestions } = await ctx.api({
      method: "POST",
      path: "/open-apis/calendar/v4/freebusy/suggestion",
      body: {
        time_min: formatRfc3339(from, ctx.timeZone),
        time_max: formatRfc3339(to, ctx.timeZone),
        duration_minutes: f["duration-minutes"],
        timezone: ctx.timeZone,
        ...(attendees?.length ? { attendee_user_ids: attendees } : {}),
        ...(f["event-rrule"] ? { event_rrule: f["event-rrule"] } : {}),
        ...(exclude?.length ? { exclude_events: exclude } : {}),
      },
      response: z.object({ suggestions: z.nullish(z.array(z.looseObject({}))) }),
      planned: { suggestions: [] },
    });
    const list = suggestions ?? [];
    await ctx.outFormat(
      list,
      { count: list.length },
      tableOr("No common free time in this range.\n", ["start_time", "end_time"]),
    );
  },
});
