/** `calendar +get`: one event, with RFC 3339 times in the user's zone beside the suite's timestamps. */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { formatRfc3339 } from "../common/time.ts";
import { defineShortcut, flag } from "../declare.ts";
import { calendarPath, resolveCalendarId } from "./primary_calendar.ts";

const Time = z.looseObject({ timestamp: z.optional(z.string()), date: z.optional(z.string()) });
const Event = z.looseObject({
  event_id: z.string(),
  start_time: z.optional(Time),
  end_time: z.optional(Time),
});

/** An event ID as the path takes it; refused when it could change the path. */
export function eventIdOf(flagName: string, id: string): string {
  if (!/^[A-Za-z0-9_.@-]+$/.test(id)) throw errors.validation(`--${flagName}: "${id}" is not an event ID`);
  return id;
}

export function eventPath(calendarId: string, eventId: string, rest = ""): string {
  return calendarPath(calendarId, `/events/${encodeURIComponent(eventId)}${rest}`);
}

function withDatetime(t: z.infer<typeof Time> | undefined, zone: string) {
  return t?.timestamp ? { ...t, datetime: formatRfc3339(Number(t.timestamp) * 1000, zone) } : t;
}

export const get = defineShortcut({
  service: "calendar",
  command: "+get",
  description: "Get one calendar event by its ID",
  examples: [
    "larkit calendar +get --event-id 9f1c0e2a-5b6d-4e8f-9a0b-1c2d3e4f5a6b_0",
    "larkit calendar +get --calendar-id feishu.cn_abc@group.calendar.feishu.cn --event-id e_1 --jq '.data.summary'",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["calendar:calendar.event:read"], bot: ["calendar:calendar.event:read"] },
  hasFormat: true,
  flags: {
    "calendar-id": flag.string("calendar ID (default: primary)"),
    "event-id": flag.requiredString("event ID"),
  },
  async run(ctx) {
    const eventId = eventIdOf("event-id", ctx.flags["event-id"]);
    const calendarId = await resolveCalendarId(ctx, ctx.flags["calendar-id"]);
    const { event } = await ctx.api({
      method: "GET",
      path: eventPath(calendarId, eventId),
      response: z.object({ event: Event }),
      planned: { event: { event_id: eventId } },
    });
    await ctx.outFormat({
      ...event,
      start_time: withDatetime(event.start_time, ctx.timeZone),
      end_time: withDatetime(event.end_time, ctx.timeZone),
    });
  },
});
