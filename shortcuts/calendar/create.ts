/**
 * `calendar +create`: creates an event, then invites attendees (users `ou_`, chats `oc_`, rooms `omm_`) in a
 * second request when any are given.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { parseTime, unixSeconds } from "../common/time.ts";
import { defineShortcut, flag, type FlagValues } from "../declare.ts";
import { calendarPath, resolveCalendarId } from "./primary_calendar.ts";

export type Attendee =
  | { type: "user"; user_id: string }
  | { type: "chat"; chat_id: string }
  | { type: "resource"; room_id: string };

/** `--attendee-ids ou_a,oc_b,omm_c` -> the suite's attendee objects, by id prefix. */
export function attendeesOf(text: string | undefined): Attendee[] {
  if (!text) return [];
  return text.split(",").map((s) => s.trim()).filter(Boolean).map((id): Attendee => {
    if (id.startsWith("ou_")) return { type: "user", user_id: id };
    if (id.startsWith("oc_")) return { type: "chat", chat_id: id };
    if (id.startsWith("omm_")) return { type: "resource", room_id: id };
    throw errors.validation(`--attendee-ids: "${id}" is not a user (ou_), chat (oc_) or room (omm_) id`);
  });
}

const flags = {
  summary: flag.string("event title"),
  start: flag.requiredString("start time (ISO 8601, e.g. 2026-03-02T10:00; read in TZ when no offset)"),
  end: flag.requiredString("end time (ISO 8601)"),
  description: flag.string("event description", { input: ["file", "stdin"] }),
  "attendee-ids": flag.string("attendee IDs, comma-separated (user ou_, chat oc_, room omm_)"),
  "calendar-id": flag.string("calendar ID (default: primary)"),
  rrule: flag.string("recurrence rule (RFC 5545), e.g. FREQ=WEEKLY;BYDAY=MO"),
};

function eventBody(f: FlagValues<typeof flags>, zone: string) {
  const start = parseTime("start", f.start, zone);
  const end = parseTime("end", f.end, zone, true);
  if (end <= start) throw errors.validation("--end must be after --start");
  return {
    summary: f.summary ?? "",
    ...(f.description ? { description: f.description } : {}),
    start_time: { timestamp: unixSeconds(start), timezone: zone },
    end_time: { timestamp: unixSeconds(end), timezone: zone },
    ...(f.rrule ? { recurrence: f.rrule } : {}),
  };
}

const Created = z.object({ event: z.looseObject({ event_id: z.string() }) });
const Invited = z.object({ attendees: z._default(z.array(z.unknown()), []) });

export const create = defineShortcut({
  service: "calendar",
  command: "+create",
  description: "Create a calendar event and optionally invite attendees",
  examples: [
    'larkit calendar +create --summary "Design review" --start 2026-03-02T14:00 --end 2026-03-02T15:00',
    "larkit calendar +create --summary Standup --start 2026-03-02T09:30 --end 2026-03-02T09:45 \\\n" +
    "    --rrule 'FREQ=DAILY' --attendee-ids ou_123,ou_456",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["calendar:calendar.event:create", "calendar:calendar.event:update"],
    bot: ["calendar:calendar.event:create", "calendar:calendar.event:update"],
  },
  hasFormat: false,
  idempotencyKey: true,
  flags,
  async run(ctx) {
    const body = eventBody(ctx.flags, ctx.timeZone);
    const attendees = attendeesOf(ctx.flags["attendee-ids"]);
    const calendarId = await resolveCalendarId(ctx, ctx.flags["calendar-id"]);
    const { event } = await ctx.api({
      method: "POST",
      path: calendarPath(calendarId, "/events"),
      body,
      dedup: { field: "idempotency_key", in: "query" },
      response: Created,
      planned: { event: { event_id: "<event_id>" } },
    });
    if (attendees.length === 0) return await ctx.out({ event });
    const invited = await ctx.api({
      method: "POST",
      path: calendarPath(calendarId, `/events/${encodeURIComponent(event.event_id)}/attendees`),
      params: { user_id_type: "open_id" },
      body: { attendees, need_notification: true },
      description: "invite attendees",
      response: Invited,
      planned: { attendees: [] },
    });
    await ctx.out({ event, attendees: invited.attendees });
  },
});
