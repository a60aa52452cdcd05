/** `calendar +search-event`: events of a calendar matching a keyword, optionally within a time range or with given attendees. */
import { timeColumn } from "../common/columns.ts";
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { tableOr } from "../common/pretty.ts";
import { defineShortcut, flag } from "../declare.ts";
import { itemsPage, listPages, pageFlags } from "../im/paging.ts";
import { openIds, optionalRange } from "../vc/common.ts";
import { calendarPath, resolveCalendarId } from "./primary_calendar.ts";

const Event = z.looseObject({ event_id: z.string() });

export const searchEvent = defineShortcut({
  service: "calendar",
  command: "+search-event",
  description: "Search a calendar's events by keyword, time range and attendees",
  examples: [
    'larkit calendar +search-event --query "review" --format table',
    "larkit calendar +search-event --query standup --start 2026-11-01 --end 2026-11-30 --attendee-ids ou_123",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["calendar:calendar.event:read"], bot: ["calendar:calendar.event:read"] },
  hasFormat: true,
  columns: ["summary", timeColumn("start", "start_time"), timeColumn("end", "end_time"), "event_id"],
  flags: {
    query: flag.requiredString("keyword in the title"),
    "calendar-id": flag.string("calendar ID (default: primary)"),
    start: flag.string("events from (ISO 8601, date or Unix seconds)"),
    end: flag.string("events until"),
    "attendee-ids": flag.string("attendees' open_ids, comma-separated"),
    ...pageFlags({ default: 20, max: 50, noun: "events" }),
  },
  async run(ctx) {
    const f = ctx.flags;
    if ([...f.query].length > 50) throw errors.validation("--query is at most 50 characters");
    const range = optionalRange(f.start, f.end, ctx.timeZone);
    const users = openIds("attendee-ids", f["attendee-ids"]);
    const filter = {
      ...(range.start_time ? { start_time: { timestamp: range.start_time } } : {}),
      ...(range.end_time ? { end_time: { timestamp: range.end_time } } : {}),
      ...(users?.length ? { user_ids: users } : {}),
    };
    const calendarId = await resolveCalendarId(ctx, f["calendar-id"]);
    const { pages, meta } = await listPages(ctx, f, {
      method: "POST",
      path: calendarPath(calendarId, "/events/search"),
      params: { user_id_type: "open_id" },
      body: { query: f.query, ...(Object.keys(filter).length ? { filter } : {}) },
      response: itemsPage(Event),
      planned: { items: [], has_more: false },
    });
    const items = pages.flatMap((p) => p.items ?? []);
    await ctx.outFormat(
      items,
      meta(items.length),
      tableOr("No events found.\n", ["event_id", "summary", "start_time", "end_time"]),
    );
  },
});
