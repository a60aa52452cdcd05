/**
 * `calendar +room-find`: meeting rooms free in every given slot, narrowed by place, name and capacity. Slots
 * are `start/end` pairs (ISO 8601, read in TZ when no offset), comma-separated.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { tableOr } from "../common/pretty.ts";
import { formatRfc3339, parseTime } from "../common/time.ts";
import { defineShortcut, flag } from "../declare.ts";
import { openIds } from "../vc/common.ts";

/** `a/b,c/d` -> the suite's slots, each checked (end after start), at most 10. */
export function slotsOf(text: string, zone: string): { start_time: string; end_time: string }[] {
  const parts = text.split(",").map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0 || parts.length > 10) throw errors.validation("--slot takes 1 to 10 slots");
  return parts.map((p) => {
    const [a, b, extra] = p.split("/");
    if (!a || !b || extra !== undefined) {
      throw errors.validation(`--slot: "${p}" is not start/end`, {
        hint: "e.g. --slot 2026-11-24T10:00/2026-11-24T11:00",
      });
    }
    const start = parseTime("slot", a, zone);
    const end = parseTime("slot", b, zone);
    if (end <= start) throw errors.validation(`--slot: "${p}" ends before it starts`);
    return { start_time: formatRfc3339(start, zone), end_time: formatRfc3339(end, zone) };
  });
}

const count = (name: string, v: string | undefined) => {
  if (v === undefined) return undefined;
  if (!/^\d{1,4}$/.test(v)) throw errors.validation(`--${name} must be a whole number, got "${v}"`);
  return Number(v);
};

export const roomFind = defineShortcut({
  service: "calendar",
  command: "+room-find",
  description: "Find meeting rooms free in every given time slot",
  examples: [
    "larkit calendar +room-find --slot 2026-11-24T10:00/2026-11-24T11:00 --min-capacity 6 --format table",
    "larkit calendar +room-find --slot 2026-11-24T10:00/2026-11-24T11:00,2026-11-25T10:00/2026-11-25T11:00 --building B1",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["calendar:calendar.free_busy:read"], bot: ["calendar:calendar.free_busy:read"] },
  hasFormat: true,
  columns: ["name", "capacity", "building", "floor", "room_id"],
  flags: {
    slot: flag.requiredString("slots as start/end, comma-separated (at most 10)"),
    city: flag.string("city"),
    building: flag.string("building"),
    floor: flag.string("floor"),
    "room-name": flag.string("part of the room's name"),
    "min-capacity": flag.string("at least this many seats"),
    "max-capacity": flag.string("at most this many seats"),
    "attendee-ids": flag.string("attendees' open_ids, comma-separated (rooms near them rank first)"),
    "event-rrule": flag.string("recurrence the room must be free for (RFC 5545)"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const min = count("min-capacity", f["min-capacity"]);
    const max = count("max-capacity", f["max-capacity"]);
    if (min !== undefined && max !== undefined && max < min) {
      throw errors.validation("--max-capacity is below --min-capacity");
    }
    const attendees = openIds("attendee-ids", f["attendee-ids"]);
    const { room_candidates } = await ctx.api({
      method: "POST",
      path: "/open-apis/calendar/v4/freebusy/room_find",
      body: {
        time_slots: slotsOf(f.slot, ctx.timeZone),
        timezone: ctx.timeZone,
        ...(f.city ? { city: f.city } : {}),
        ...(f.building ? { building: f.building } : {}),
        ...(f.floor ? { floor: f.floor } : {}),
        ...(f["room-name"] ? { room_name: f["room-name"] } : {}),
        ...(min !== undefined ? { min_capacity: min } : {}),
        ...(max !== undefined ? { max_capacity: max } : {}),
        ...(attendees?.length ? { attendee_user_ids: attendees } : {}),
        ...(f["event-rrule"] ? { event_rrule: f["event-rrule"] } : {}),
      },
      response: z.object({ room_candidates: z.nullish(z.array(z.looseObject({}))) }),
      planned: { room_candidates: [] },
    });
    const rooms = room_candidates ?? [];
    await ctx.outFormat(
      rooms,
      { count: rooms.length },
      tableOr("No free rooms found.\n", ["room_id", "name", "capacity", "building", "floor"]),
    );
  },
});
