/** `calendar +delete`: deletes an event (for every attendee when the caller organizes it). Asks first. */
import * as z from "zod";
import { defineShortcut, flag } from "../declare.ts";
import { eventIdOf, eventPath } from "./get.ts";
import { resolveCalendarId } from "./primary_calendar.ts";

export const remove = defineShortcut({
  service: "calendar",
  command: "+delete",
  description: "Delete a calendar event (asks for confirmation; --yes skips it)",
  examples: [
    "larkit calendar +delete --event-id e_1 --dry-run",
    "larkit calendar +delete --event-id e_1 --notify false --yes",
  ],
  risk: "high-risk-write",
  authTypes: ["user", "bot"],
  scopes: { user: ["calendar:calendar.event:delete"], bot: ["calendar:calendar.event:delete"] },
  hasFormat: false,
  flags: {
    "event-id": flag.requiredString("event ID"),
    "calendar-id": flag.string("calendar ID (default: primary)"),
    notify: flag.choice(["true", "false"] as const, "tell the attendees", { default: "true" }),
  },
  async run(ctx) {
    const eventId = eventIdOf("event-id", ctx.flags["event-id"]);
    const calendarId = await resolveCalendarId(ctx, ctx.flags["calendar-id"]);
    await ctx.api({
      method: "DELETE",
      path: eventPath(calendarId, eventId),
      params: { need_notification: ctx.flags.notify },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ calendar_id: calendarId, event_id: eventId, deleted: true });
  },
});
