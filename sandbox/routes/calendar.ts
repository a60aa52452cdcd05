/**
 * Calendar v4: calendars (primary, list), events (list, create, get, patch, delete, instance_view), freebusy,
 * attendees and RSVP replies. `primary` in a path means the caller's primary calendar (the bot's for tenant
 * tokens), which is how shortcuts address it.
 */
import * as z from "zod";
import type { Caller } from "../auth.ts";
import { all, newHex, one, run, tx } from "../db.ts";
import { createOnce } from "../dedup.ts";
import { pageOf, paginate } from "../paging.ts";
import { occurrences, parseRule } from "../recurrence.ts";
import { invalidParam, ok, raise } from "../reply.ts";
import { type CallerCtx, jsonBody, queryOf, type Route } from "../router.ts";
import { READ_CALENDAR, READ_FREEBUSY, REPLY_EVENT, WRITE_CALENDAR } from "../scopes.ts";
import type { EmulatorState } from "../state.ts";
import { localDate, rfc3339, startOfLocalDay } from "../zone.ts";

/** instance_view refuses ranges longer than this (193103) and more instances than MAX_INSTANCES (193104). */
const MAX_RANGE_S = 40 * 86_400;
const MAX_INSTANCES = 1000;

interface CalendarRow {
  calendar_id: string;
  owner: string;
  summary: string;
  description: string;
  type: string;
  is_primary: number;
  color: number;
}

interface EventRow {
  event_id: string;
  calendar_id: string;
  summary: string;
  description: string;
  start_ts: number;
  end_ts: number;
  all_day: number;
  timezone: string;
  recurrence: string;
  status: string;
  visibility: string;
  free_busy_status: string;
  location: string | null;
  organizer: string;
  create_time: number;
}

function calendarJson(c: CalendarRow, caller: Caller) {
  return {
    calendar_id: c.calendar_id,
    summary: c.summary,
    description: c.description,
    permissions: "private",
    color: c.color,
    type: c.type,
    summary_alias: "",
    is_deleted: false,
    is_third_party: false,
    role: c.owner === caller.openId ? "owner" : "reader",
  };
}

function primaryOf(st: EmulatorState, openId: string): CalendarRow | undefined {
  return one<CalendarRow>(st.db, "SELECT * FROM calendars WHERE owner = ? AND is_primary = 1", openId);
}

function calendarOf(ctx: CallerCtx): CalendarRow {
  const id = ctx.params.calendar_id;
  const row = id === "primary"
    ? primaryOf(ctx.st, ctx.caller.openId)
    : one<CalendarRow>(ctx.st.db, "SELECT * FROM calendars WHERE calendar_id = ?", id);
  return row ?? raise(400, 191001, `invalid calendar_id: ${id}`);
}

function eventOf(ctx: CallerCtx, cal: CalendarRow): EventRow {
  const row = one<EventRow>(
    ctx.st.db,
    "SELECT * FROM events WHERE event_id = ? AND calendar_id = ?",
    ctx.params.event_id,
    cal.calendar_id,
  );
  return row ?? raise(404, 193001, `event not found: ${ctx.params.event_id}`);
}

/** All-day events carry dates; their end date is exclusive (an event on the 23rd ends on the 24th). */
function timeJson(ms: number, allDay: boolean, zone: string) {
  if (allDay) return { date: localDate(ms, zone) };
  return { timestamp: String(Math.floor(ms / 1000)), timezone: zone };
}

function eventJson(st: EmulatorState, e: EventRow, caller: Caller, instanceStart?: number) {
  const start = instanceStart ?? e.start_ts;
  const end = start + (e.end_ts - e.start_ts);
  const attendees = all<
    { attendee_id: string; type: string; open_id: string; display_name: string; rsvp_status: string }
  >(
    st.db,
    "SELECT attendee_id, type, open_id, display_name, rsvp_status FROM attendees WHERE event_id = ?",
    e.event_id,
  );
  const mine = attendees.find((a) => a.open_id === caller.openId);
  const organizer = one<{ name: string }>(st.db, "SELECT name FROM users WHERE open_id = ?", e.organizer);
  const isInstance = instanceStart !== undefined && e.recurrence !== "";
  return {
    event_id: isInstance ? `${e.event_id.replace(/_0$/, "")}_${Math.floor(start / 1000)}` : e.event_id,
    organizer_calendar_id: e.calendar_id,
    summary: e.summary,
    description: e.description,
    start_time: timeJson(start, e.all_day === 1, e.timezone),
    end_time: timeJson(end, e.all_day === 1, e.timezone),
    visibility: e.visibility,
    attendee_ability: "can_see_others",
    free_busy_status: e.free_busy_status,
    ...(e.location ? { location: { name: e.location } } : {}),
    color: -1,
    recurrence: e.recurrence,
    status: e.status,
    is_exception: false,
    ...(isInstance ? { recurring_event_id: e.event_id } : {}),
    app_link:
      `https://applink.feishu.cn/client/calendar/event/detail?calendarId=${
        encodeURIComponent(e.calendar_id)
      }` +
      `&key=${e.event_id}`,
    create_time: String(Math.floor(e.create_time / 1000)),
    event_organizer: { user_id: e.organizer, display_name: organizer?.name ?? "larkit sandbox" },
    self_rsvp_status: mine?.rsvp_status ?? (e.organizer === caller.openId ? "accept" : "needs_action"),
    attendees: attendees.map((a) => ({
      type: a.type,
      attendee_id: a.attendee_id,
      rsvp_status: a.rsvp_status,
      is_optional: false,
      is_organizer: a.open_id === e.organizer,
      is_external: false,
      display_name: a.display_name,
      user_id: a.open_id,
    })),
  };
}

/** Every (event, instance start) of a calendar meeting [from, to), recurring events expanded. */
function instancesIn(st: EmulatorState, calendarId: string, from: number, to: number): [EventRow, number][] {
  const rows = all<EventRow>(
    st.db,
    "SELECT * FROM events WHERE calendar_id = ? AND (recurrence != '' OR (start_ts < ? AND end_ts > ?))",
    calendarId,
    to,
    from,
  );
  const out: [EventRow, number][] = [];
  for (const e of rows) {
    const rule = e.recurrence ? parseRule(e.recurrence) : undefined;
    if (!rule) {
      if (e.start_ts < to && e.end_ts > from) out.push([e, e.start_ts]);
      continue;
    }
    for (
      const s of occurrences(e.start_ts, e.end_ts - e.start_ts, rule, e.timezone, from, to, MAX_INSTANCES)
    ) {
      out.push([e, s]);
    }
  }
  return out.sort((a, b) => a[1] - b[1]);
}

const Seconds = z.pipe(
  z.string().check(z.regex(/^\d+$/, "must be unix seconds")),
  z.transform((s) => Number(s) * 1000),
);

const TimeInfo = z.object({
  date: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))),
  timestamp: z.optional(z.string().check(z.regex(/^\d+$/))),
  timezone: z.optional(z.string()),
}).check(z.refine((t) => t.date !== undefined || t.timestamp !== undefined, "date or timestamp is required"));

const EventBody = z.object({
  summary: z.optional(z.string()),
  description: z.optional(z.string()),
  start_time: z.optional(TimeInfo),
  end_time: z.optional(TimeInfo),
  visibility: z.optional(z.enum(["default", "public", "private"])),
  free_busy_status: z.optional(z.enum(["busy", "free"])),
  location: z.optional(z.object({ name: z.optional(z.string()) })),
  recurrence: z.optional(z.string()),
});

function instantOf(
  st: EmulatorState,
  t: z.infer<typeof TimeInfo>,
): { ms: number; allDay: boolean; zone: string } {
  const zone = t.timezone ?? st.timeZone;
  if (t.timestamp !== undefined) return { ms: Number(t.timestamp) * 1000, allDay: false, zone };
  const utcMidnight = Date.parse(`${t.date}T00:00:00Z`);
  return { ms: startOfLocalDay(utcMidnight + 12 * 3_600_000, zone), allDay: true, zone };
}

function listEvents(ctx: CallerCtx) {
  const cal = calendarOf(ctx);
  const q = queryOf(
    ctx,
    z.looseObject({ start_time: z.optional(Seconds), end_time: z.optional(Seconds) }),
  );
  const page = pageOf(ctx.query, { size: 500, max: 1000 });
  const rows = all<EventRow>(
    ctx.st.db,
    "SELECT * FROM events WHERE calendar_id = ? AND start_ts < ? AND (end_ts > ? OR recurrence != '') ORDER BY start_ts, event_id",
    cal.calendar_id,
    q.end_time ?? Number.MAX_SAFE_INTEGER,
    q.start_time ?? 0,
  );
  const body = paginate(rows.map((e) => eventJson(ctx.st, e, ctx.caller)), page);
  return ok({ ...body, sync_token: `sync_${rows.length}` });
}

function instanceView(ctx: CallerCtx) {
  const cal = calendarOf(ctx);
  const q = queryOf(ctx, z.looseObject({ start_time: Seconds, end_time: Seconds }));
  if (q.end_time <= q.start_time) invalidParam("end_time must be after start_time");
  if ((q.end_time - q.start_time) / 1000 > MAX_RANGE_S) {
    raise(400, 193103, "the time range of instance_view cannot exceed 40 days");
  }
  const found = instancesIn(ctx.st, cal.calendar_id, q.start_time, q.end_time);
  if (found.length > MAX_INSTANCES) raise(400, 193104, "more than 1000 instances in the time range");
  return ok({ items: found.map(([e, s]) => eventJson(ctx.st, e, ctx.caller, s)) });
}

function createEvent(ctx: CallerCtx) {
  const cal = calendarOf(ctx);
  const body = jsonBody(ctx, EventBody);
  if (!body.start_time || !body.end_time) invalidParam("start_time and end_time are required");
  const start = instantOf(ctx.st, body.start_time);
  const end = instantOf(ctx.st, body.end_time);
  // An all-day end date is exclusive; its midnight is the event's end instant.
  if (end.ms <= start.ms) invalidParam("end_time must be after start_time");
  if (body.recurrence && !parseRule(body.recurrence)) invalidParam("recurrence is not a supported RRULE");
  const key = ctx.query.get("idempotency_key") ?? undefined;
  const scope = `event ${ctx.caller.openId} ${cal.calendar_id}`;
  const id = createOnce(ctx.st, scope, key, () =>
    tx(ctx.st.db, () => {
      const uuid = newHex(ctx.st.db, "event", 32);
      const eventId = `${uuid.slice(0, 8)}-${uuid.slice(8, 12)}-${uuid.slice(12, 16)}-${uuid.slice(16, 20)}-${
        uuid.slice(20)
      }_0`;
      run(
        ctx.st.db,
        `INSERT INTO events (event_id, calendar_id, summary, description, start_ts, end_ts, all_day, timezone,
         recurrence, status, visibility, free_busy_status, location, organizer, create_time)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'confirmed', ?, ?, ?, ?, ?)`,
        eventId,
        cal.calendar_id,
        body.summary ?? "",
        body.description ?? "",
        start.ms,
        end.ms,
        start.allDay ? 1 : 0,
        start.zone,
        body.recurrence ?? "",
        body.visibility ?? "default",
        body.free_busy_status ?? "busy",
        body.location?.name ?? null,
        ctx.caller.openId,
        ctx.st.clock.now(),
      );
      return eventId;
    }));
  const row = one<EventRow>(ctx.st.db, "SELECT * FROM events WHERE event_id = ?", id) as EventRow;
  return ok({ event: eventJson(ctx.st, row, ctx.caller) });
}

function patchEvent(ctx: CallerCtx) {
  const cal = calendarOf(ctx);
  const e = eventOf(ctx, cal);
  const body = jsonBody(ctx, EventBody);
  const start = body.start_time ? instantOf(ctx.st, body.start_time) : undefined;
  const end = body.end_time ? instantOf(ctx.st, body.end_time) : undefined;
  const next: EventRow = {
    ...e,
    summary: body.summary ?? e.summary,
    description: body.description ?? e.description,
    start_ts: start?.ms ?? e.start_ts,
    end_ts: end?.ms ?? e.end_ts,
    all_day: start ? (start.allDay ? 1 : 0) : e.all_day,
    timezone: start?.zone ?? e.timezone,
    recurrence: body.recurrence ?? e.recurrence,
    visibility: body.visibility ?? e.visibility,
    free_busy_status: body.free_busy_status ?? e.free_busy_status,
    location: body.location ? body.location.name ?? null : e.location,
  };
  if (next.end_ts <= next.start_ts) invalidParam("end_time must be after start_time");
  run(
    ctx.st.db,
    `UPDATE events SET summary = ?, description = ?, start_ts = ?, end_ts = ?, all_day = ?, timezone = ?,
       recurrence = ?, visibility = ?, free_busy_status = ?, location = ? WHERE event_id = ?`,
    next.summary,
    next.description,
    next.start_ts,
    next.end_ts,
    next.all_day,
    next.timezone,
    next.recurrence,
    next.visibility,
    next.free_busy_status,
    next.location,
    e.event_id,
  );
  return ok({ event: eventJson(ctx.st, next, ctx.caller) });
}

/** A query's `time_min`..`time_max` as epoch milliseconds: both RFC 3339, the window not empty. */
function windowOf(body: { time_min: string; time_max: string }): { from: number; to: number } {
  const from = Date.parse(body.time_min);
  const to = Date.parse(body.time_max);
  if (Number.isNaN(from) || Number.isNaN(to) || to <= from) {
    invalidParam("time_min/time_max must be RFC 3339, min < max");
  }
  return { from, to };
}

const FreebusyBody = z.object({
  time_min: z.string(),
  time_max: z.string(),
  user_id: z.optional(z.string()),
  room_id: z.optional(z.string()),
});

function freebusy(ctx: CallerCtx) {
  const body = jsonBody(ctx, FreebusyBody);
  const { from, to } = windowOf(body);
  if (!body.user_id && !body.room_id) invalidParam("user_id or room_id is required");
  const cal = body.user_id ? primaryOf(ctx.st, body.user_id) : undefined;
  if (!cal) return ok({ freebusy_list: [] });
  const busy = instancesIn(ctx.st, cal.calendar_id, from, to)
    .filter(([e]) => e.status !== "cancelled" && e.free_busy_status === "busy");
  return ok({
    freebusy_list: busy.map(([e, s]) => ({
      start_time: rfc3339(s, ctx.st.timeZone),
      end_time: rfc3339(s + e.end_ts - e.start_ts, ctx.st.timeZone),
    })),
  });
}

const SearchBody = z.object({
  query: z.string(),
  filter: z.optional(z.object({
    start_time: z.optional(z.object({ timestamp: z.string() })),
    end_time: z.optional(z.object({ timestamp: z.string() })),
    user_ids: z.optional(z.array(z.string())),
  })),
});

/**
 * Events of the calendar whose title or description holds the query (case-insensitive), optionally within a
 * time range and with all the given attendees. No relevance ranking: in the order they start.
 */
function searchEvents(ctx: CallerCtx) {
  const cal = calendarOf(ctx);
  const body = jsonBody(ctx, SearchBody);
  const q = body.query.toLowerCase();
  const from = body.filter?.start_time ? Number(body.filter.start_time.timestamp) * 1000 : 0;
  const to = body.filter?.end_time ? Number(body.filter.end_time.timestamp) * 1000 : Number.MAX_SAFE_INTEGER;
  const rows = all<EventRow>(
    ctx.st.db,
    "SELECT * FROM events WHERE calendar_id = ? AND start_ts < ? AND (end_ts > ? OR recurrence != '') ORDER BY start_ts, event_id",
    cal.calendar_id,
    to,
    from,
  ).filter((e) => `${e.summary}\n${e.description}`.toLowerCase().includes(q))
    .filter((e) =>
      (body.filter?.user_ids ?? []).every((u) =>
        e.organizer === u ||
        one(ctx.st.db, "SELECT 1 AS x FROM attendees WHERE event_id = ? AND open_id = ?", e.event_id, u)
      )
    );
  const page = paginate(
    rows.map((e) => eventJson(ctx.st, e, ctx.caller)),
    pageOf(ctx.query, { size: 20, max: 50 }),
  );
  return ok(page);
}

const SuggestionBody = z.object({
  time_min: z.string(),
  time_max: z.string(),
  duration_minutes: z._default(z.number(), 30),
  timezone: z.optional(z.string()),
  attendee_user_ids: z.optional(z.array(z.string())),
  event_rrule: z.optional(z.string()),
  exclude_events: z.optional(z.array(z.string())),
});

/**
 * Free blocks common to the attendees (the caller by default), from their primary calendars' busy time: the
 * start of every gap long enough for the block, at most ten.
 */
function suggestion(ctx: CallerCtx) {
  const body = jsonBody(ctx, SuggestionBody);
  const { from, to } = windowOf(body);
  const people = body.attendee_user_ids?.length ? body.attendee_user_ids : [ctx.caller.openId];
  const exclude = new Set(body.exclude_events ?? []);
  const busy: [number, number][] = [];
  for (const person of people) {
    const cal = primaryOf(ctx.st, person);
    if (!cal) continue;
    for (const [e, s] of instancesIn(ctx.st, cal.calendar_id, from, to)) {
      if (e.status === "cancelled" || e.free_busy_status !== "busy" || exclude.has(e.event_id)) continue;
      busy.push([s, s + e.end_ts - e.start_ts]);
    }
  }
  busy.sort((a, b) => a[0] - b[0]);
  const length = body.duration_minutes * 60_000;
  const zone = body.timezone ?? ctx.st.timeZone;
  const suggestions: { start_time: string; end_time: string }[] = [];
  let cursor = from;
  for (const [s, e] of [...busy, [to, to] as [number, number]]) {
    if (s - cursor >= length && suggestions.length < 10) {
      suggestions.push({ start_time: rfc3339(cursor, zone), end_time: rfc3339(cursor + length, zone) });
    }
    cursor = Math.max(cursor, e);
  }
  return ok({ suggestions });
}

const AttendeesBody = z.object({
  attendees: z.array(z.object({
    type: z._default(z.enum(["user", "chat", "resource", "third_party"]), "user"),
    user_id: z.optional(z.string()),
    is_optional: z.optional(z.boolean()),
  })).check(z.minLength(1)),
  need_notification: z.optional(z.boolean()),
});

function addAttendees(ctx: CallerCtx) {
  const cal = calendarOf(ctx);
  const e = eventOf(ctx, cal);
  const body = jsonBody(ctx, AttendeesBody);
  tx(ctx.st.db, () => {
    for (const a of body.attendees) {
      const user = a.user_id
        ? one<{ open_id: string; name: string }>(
          ctx.st.db,
          "SELECT open_id, name FROM users WHERE open_id = ?",
          a.user_id,
        )
        : undefined;
      if (!user) invalidParam(`unknown attendee user_id: ${a.user_id ?? "(missing)"}`);
      run(
        ctx.st.db,
        `INSERT OR IGNORE INTO attendees (event_id, attendee_id, type, open_id, display_name, rsvp_status)
         VALUES (?, ?, 'user', ?, ?, 'needs_action')`,
        e.event_id,
        `user_${user.open_id.slice(3)}`,
        user.open_id,
        user.name,
      );
    }
  });
  return ok({ attendees: eventJson(ctx.st, e, ctx.caller).attendees });
}

function listAttendees(ctx: CallerCtx) {
  const e = eventOf(ctx, calendarOf(ctx));
  return ok(paginate(eventJson(ctx.st, e, ctx.caller).attendees, pageOf(ctx.query, { size: 20, max: 100 })));
}

const DeleteAttendees = z.object({
  attendee_ids: z._default(z.array(z.string()), []),
  delete_ids: z._default(
    z.array(z.object({ type: z.optional(z.string()), user_id: z.optional(z.string()) })),
    [],
  ),
  need_notification: z.optional(z.boolean()),
});

/** Removes attendees named by attendee_id or, in delete_ids, by user open_id. */
function deleteAttendees(ctx: CallerCtx) {
  const e = eventOf(ctx, calendarOf(ctx));
  const body = jsonBody(ctx, DeleteAttendees);
  const users = body.delete_ids.flatMap((d) => d.user_id ? [d.user_id] : []);
  if (body.attendee_ids.length + users.length === 0) invalidParam("attendee_ids or delete_ids is required");
  tx(ctx.st.db, () => {
    for (const id of body.attendee_ids) {
      run(ctx.st.db, "DELETE FROM attendees WHERE event_id = ? AND attendee_id = ?", e.event_id, id);
    }
    for (const id of users) {
      run(ctx.st.db, "DELETE FROM attendees WHERE event_id = ? AND open_id = ?", e.event_id, id);
    }
  });
  return ok({});
}

function reply(ctx: CallerCtx) {
  const cal = calendarOf(ctx);
  const e = eventOf(ctx, cal);
  const { rsvp_status } = jsonBody(
    ctx,
    z.object({ rsvp_status: z.enum(["accept", "decline", "tentative"]) }),
  );
  const name = one<{ name: string }>(
    ctx.st.db,
    "SELECT name FROM users WHERE open_id = ?",
    ctx.caller.openId,
  );
  run(
    ctx.st.db,
    `INSERT INTO attendees (event_id, attendee_id, type, open_id, display_name, rsvp_status)
     VALUES (?, ?, 'user', ?, ?, ?) ON CONFLICT(event_id, attendee_id) DO UPDATE SET rsvp_status = excluded.rsvp_status`,
    e.event_id,
    `user_${ctx.caller.openId.slice(3)}`,
    ctx.caller.openId,
    name?.name ?? "larkit sandbox",
    rsvp_status,
  );
  return ok({});
}

const EVENTS = "/open-apis/calendar/v4/calendars/:calendar_id/events";

export const calendarRoutes: Route[] = [
  {
    method: "POST",
    path: "/open-apis/calendar/v4/calendars/primary",
    auth: "token",
    scopes: READ_CALENDAR,
    handle(ctx) {
      const cal = primaryOf(ctx.st, ctx.caller.openId);
      return ok({
        calendars: cal ? [{ calendar: calendarJson(cal, ctx.caller), user_id: ctx.caller.openId }] : [],
      });
    },
  },
  {
    method: "GET",
    path: "/open-apis/calendar/v4/calendars",
    auth: "token",
    scopes: READ_CALENDAR,
    handle(ctx) {
      const page = pageOf(ctx.query, { size: 500, max: 1000 });
      const rows = all<CalendarRow>(
        ctx.st.db,
        "SELECT * FROM calendars WHERE owner = ? OR type = 'shared' ORDER BY is_primary DESC, calendar_id",
        ctx.caller.openId,
      );
      const { items, ...rest } = paginate(rows.map((c) => calendarJson(c, ctx.caller)), page);
      return ok({ ...rest, sync_token: `sync_${rows.length}`, calendar_list: items });
    },
  },
  {
    method: "GET",
    path: "/open-apis/calendar/v4/calendars/:calendar_id",
    auth: "token",
    scopes: READ_CALENDAR,
    handle: (ctx) => ok(calendarJson(calendarOf(ctx), ctx.caller)),
  },
  {
    method: "GET",
    path: `${EVENTS}/instance_view`,
    auth: "token",
    scopes: READ_CALENDAR,
    handle: instanceView,
  },
  { method: "GET", path: EVENTS, auth: "token", scopes: READ_CALENDAR, handle: listEvents },
  { method: "POST", path: EVENTS, auth: "token", scopes: WRITE_CALENDAR, handle: createEvent },
  {
    method: "GET",
    path: `${EVENTS}/:event_id`,
    auth: "token",
    scopes: READ_CALENDAR,
    handle(ctx) {
      const e = eventOf(ctx, calendarOf(ctx));
      return ok({ event: eventJson(ctx.st, e, ctx.caller) });
    },
  },
  { method: "PATCH", path: `${EVENTS}/:event_id`, auth: "token", scopes: WRITE_CALENDAR, handle: patchEvent },
  {
    method: "DELETE",
    path: `${EVENTS}/:event_id`,
    auth: "token",
    scopes: WRITE_CALENDAR,
    handle(ctx) {
      const e = eventOf(ctx, calendarOf(ctx));
      tx(ctx.st.db, () => {
        run(ctx.st.db, "DELETE FROM attendees WHERE event_id = ?", e.event_id);
        run(ctx.st.db, "DELETE FROM events WHERE event_id = ?", e.event_id);
      });
      return ok({});
    },
  },
  {
    method: "POST",
    path: `${EVENTS}/:event_id/attendees`,
    auth: "token",
    scopes: WRITE_CALENDAR,
    handle: addAttendees,
  },
  {
    method: "GET",
    path: `${EVENTS}/:event_id/attendees`,
    auth: "token",
    scopes: READ_CALENDAR,
    handle: listAttendees,
  },
  {
    method: "POST",
    path: `${EVENTS}/:event_id/attendees/batch_delete`,
    auth: "token",
    scopes: WRITE_CALENDAR,
    handle: deleteAttendees,
  },
  { method: "POST", path: `${EVENTS}/:event_id/reply`, auth: "token", scopes: REPLY_EVENT, handle: reply },
  { method: "POST", path: `${EVENTS}/search`, auth: "token", scopes: READ_CALENDAR, handle: searchEvents },
  {
    method: "POST",
    path: "/open-apis/calendar/v4/freebusy/suggestion",
    auth: "token",
    scopes: READ_FREEBUSY,
    handle: suggestion,
  },
  {
    method: "POST",
    path: "/open-apis/calendar/v4/freebusy/list",
    auth: "token",
    scopes: READ_FREEBUSY,
    handle: freebusy,
  },
];
