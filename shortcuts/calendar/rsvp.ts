/** `calendar +rsvp`: answers an event invitation (accept, decline, tentative) as the resolved identity. */
import * as z from "zod";
import { defineShortcut, flag } from "../declare.ts";
import { calendarPath, resolveCalendarId } from "./primary_calendar.ts";

const STATUSES = ["accept", "decline", "tentative"] as const;

export const rsvp = defineShortcut({
  service: "calendar",
  command: "+rsvp",
  description: "Reply to a calendar event (accept/decline/tentative)",
  examples: ["larkit calendar +rsvp --event-id 9f1c\u2026_0 --rsvp-status accept"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["calendar:calendar.event:reply"], bot: ["calendar:calendar.event:reply"] },
  hasFormat: false,
  flags: {
    "calendar-id": flag.string("calendar ID (default: primary)"),
    "event-id": flag.requiredString("event ID"),
    "rsvp-status": flag.requiredChoice(STATUSES, "reply status"),
  },
  async run(ctx) {
    const calendarId = await resolveCalendarId(ctx, ctx.flags["calendar-id"]);
    const eventId = ctx.flags["event-id"];
    await ctx.api({
      method: "POST",
      path: calendarPath(calendarId, `/events/${encodeURIComponent(eventId)}/reply`),
      body: { rsvp_status: ctx.flags["rsvp-status"] },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ calendar_id: calendarId, event_id: eventId, rsvp_status: ctx.flags["rsvp-status"] });
  },
});
