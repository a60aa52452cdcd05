/**
 * `calendar +update`: changes an event's fields (only those given) and adds or removes attendees, each part a
 * request of its own in this order: fields, removals, additions.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { parseTime, unixSeconds } from "../common/time.ts";
import { defineShortcut, flag, type FlagValues } from "../declare.ts";
import { attendeesOf } from "./create.ts";
import { eventIdOf, eventPath } from "./get.ts";
import { resolveCalendarId } from "./primary_calendar.ts";

const flags = {
  "event-id": flag.requiredString("event ID"),
  "calendar-id": flag.string("calendar ID (default: primary)"),
  summary: flag.string("new title"),
  description: flag.string("new description", { input: ["file", "stdin"] }),
  start: flag.string("new start (ISO 8601; read in TZ when no offset); give --end with it"),
  end: flag.string("new end (ISO 8601); give --start with it"),
  rrule: flag.string("new recurrence rule (RFC 5545)"),
  "add-attendee-ids": flag.string("attendees to invite: ou_, oc_, omm_ IDs, comma-separated"),
  "remove-attendee-ids": flag.string("attendees to remove: ou_, oc_, omm_ IDs, comma-separated"),
  notify: flag.choice(["true", "false"] as const, "notify attendees of the change", { default: "true" }),
};

/** The PATCH body: only the fields given; start and end together. */
export function patchOf(f: FlagValues<typeof flags>, zone: string): Record<string, unknown> {
  if (!!f.start !== !!f.end) throw errors.validation("--start and --end go together");
  const body: Record<string, unknown> = {};
  if (f.summary !== undefined) body.summary = f.summary;
  if (f.description !== undefined) body.description = f.description;
  if (f.rrule !== undefined) body.recurrence = f.rrule;
  if (f.start && f.end) {
    const start = parseTime("start", f.start, zone);
    const end = parseTime("end", f.end, zone, true);
    if (end <= start) throw errors.validation("--end must be after --start");
    body.start_time = { timestamp: unixSeconds(start), timezone: zone };
    body.end_time = { timestamp: unixSeconds(end), timezone: zone };
  }
  return body;
}

export const update = defineShortcut({
  service: "calendar",
  command: "+update",
  description: "Update a calendar event's fields and add or remove attendees",
  examples: [
    'larkit calendar +update --event-id e_1 --summary "Design review (moved)" --start 2026-03-02T15:00 --end 2026-03-02T16:00',
    "larkit calendar +update --event-id e_1 --add-attendee-ids ou_123 --remove-attendee-ids ou_456",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["calendar:calendar.event:update"], bot: ["calendar:calendar.event:update"] },
  hasFormat: false,
  flags,
  async run(ctx) {
    const eventId = eventIdOf("event-id", ctx.flags["event-id"]);
    const patch = patchOf(ctx.flags, ctx.timeZone);
    const add = attendeesOf(ctx.flags["add-attendee-ids"]);
    const remove = attendeesOf(ctx.flags["remove-attendee-ids"]);
    if (Object.keys(patch).length === 0 && add.length === 0 && remove.length === 0) {
      throw errors.validation("nothing to update", {
        hint: "give a field (--summary, --start/--end, \u2026) or --add-attendee-ids/--remove-attendee-ids",
      });
    }
    const calendarId = await resolveCalendarId(ctx, ctx.flags["calendar-id"]);
    const notify = ctx.flags.notify === "true";
    let event: unknown = null;
    if (Object.keys(patch).length) {
      event = (await ctx.api({
        method: "PATCH",
        path: eventPath(calendarId, eventId),
        body: patch,
        response: z.object({ event: z.looseObject({}) }),
        planned: { event: { event_id: eventId } },
      })).event;
    }
    if (remove.length) {
      await ctx.api({
        method: "POST",
        path: eventPath(calendarId, eventId, "/attendees/batch_delete"),
        params: { user_id_type: "open_id" },
        body: { delete_ids: remove, need_notification: notify },
        description: "remove attendees",
        response: z.unknown(),
        planned: {},
      });
    }
    if (add.length) {
      await ctx.api({
        method: "POST",
        path: eventPath(calendarId, eventId, "/attendees"),
        params: { user_id_type: "open_id" },
        body: { attendees: add, need_notification: notify },
        description: "invite attendees",
        response: z.unknown(),
        planned: {},
      });
    }
    await ctx.out({
      calendar_id: calendarId,
      event_id: eventId,
      updated_fields: Object.keys(patch),
      added: add.length,
      removed: remove.length,
      ...(event ? { event } : {}),
    });
  },
});
