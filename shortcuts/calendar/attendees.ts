/**
 * `calendar +list-attendees` (who is invited, with RSVP status) and `calendar +join-event` (add yourself to
 * an event you can see, user identity only).
 */
import * as z from "zod";
import { renderTable } from "../../cli/output/formats/table.ts";
import { defineShortcut, flag } from "../declare.ts";
import { itemsPage, listPages, pageFlags } from "../im/paging.ts";
import { eventIdOf, eventPath } from "./get.ts";
import { resolveCalendarId } from "./primary_calendar.ts";

const Attendee = z.looseObject({ type: z.optional(z.string()) });

export const listAttendees = defineShortcut({
  service: "calendar",
  command: "+list-attendees",
  description: "List an event's attendees with their RSVP status",
  examples: [
    "larkit calendar +list-attendees --event-id e_1 --format table",
    "larkit calendar +list-attendees --event-id e_1 --page-all",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["calendar:calendar.event:read"], bot: ["calendar:calendar.event:read"] },
  hasFormat: true,
  columns: [
    "display_name",
    {
      name: "id",
      value: (a) => {
        const x = a as Record<string, unknown>;
        return x.user_id ?? x.chat_id ?? x.room_id ?? x.third_party_email;
      },
    },
    "rsvp_status",
    "type",
    "is_organizer",
  ],
  flags: {
    "event-id": flag.requiredString("event ID"),
    "calendar-id": flag.string("calendar ID (default: primary)"),
    ...pageFlags({ default: 20, max: 100, noun: "attendees" }),
  },
  async run(ctx) {
    const eventId = eventIdOf("event-id", ctx.flags["event-id"]);
    const calendarId = await resolveCalendarId(ctx, ctx.flags["calendar-id"]);
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: eventPath(calendarId, eventId, "/attendees"),
      params: { user_id_type: "open_id" },
      response: itemsPage(Attendee),
      planned: { items: [], has_more: false },
    });
    const items = pages.flatMap((p) => p.items ?? []);
    await ctx.outFormat(items, meta(items.length), (d, c) => {
      const rows = (d as Record<string, unknown>[]).map((a) => ({
        type: a.type,
        id: a.user_id ?? a.chat_id ?? a.room_id ?? a.third_party_email,
        display_name: a.display_name,
        rsvp_status: a.rsvp_status,
        is_organizer: a.is_organizer,
      }));
      return rows.length ? renderTable(rows, c) : "No attendees.\n";
    });
  },
});

const UserInfo = z.object({ open_id: z.string() });

export const joinEvent = defineShortcut({
  service: "calendar",
  command: "+join-event",
  description: "Add yourself to an event as an attendee (user identity only)",
  examples: [
    "larkit calendar +join-event --calendar-id feishu.cn_team@group.calendar.feishu.cn --event-id e_1",
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ["calendar:calendar.event:update"] },
  hasFormat: false,
  flags: {
    "event-id": flag.requiredString("event ID"),
    "calendar-id": flag.string("the calendar holding the event (default: your primary)"),
  },
  async run(ctx) {
    const eventId = eventIdOf("event-id", ctx.flags["event-id"]);
    const calendarId = await resolveCalendarId(ctx, ctx.flags["calendar-id"]);
    const me = ctx.userOpenId ?? (await ctx.api({
      method: "GET",
      path: "/open-apis/authen/v1/user_info",
      description: "resolve the current user",
      response: UserInfo,
      planned: { open_id: "<current user>" },
    })).open_id;
    const added = await ctx.api({
      method: "POST",
      path: eventPath(calendarId, eventId, "/attendees"),
      params: { user_id_type: "open_id" },
      body: { attendees: [{ type: "user", user_id: me }], need_notification: false },
      response: z.object({ attendees: z.nullish(z.array(z.unknown())) }),
      planned: { attendees: [] },
    });
    await ctx.out({
      calendar_id: calendarId,
      event_id: eventId,
      user_id: me,
      attendees: added.attendees ?? [],
    });
  },
});
