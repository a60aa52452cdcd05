/**
 * `calendar +agenda`: the events of a time range (today by default, in the user's zone), recurring events
 * expanded into their instances by the suite's `instance_view`. Ranges longer than the 40 days one
 * instance_view call accepts are split into windows; the result is deduplicated, sorted, and shown with
 * RFC 3339 times in the user's zone.
 */
import * as z from "zod";
import { errors, LarkitError } from "../../cli/output/errors.ts";
import { renderTable } from "../../cli/output/formats/table.ts";
import { formatRfc3339, parseTime, timeRange, unixSeconds } from "../common/time.ts";
import { defineShortcut, flag } from "../declare.ts";
import { calendarPath, resolveCalendarId } from "./primary_calendar.ts";

const DAY_MS = 86_400_000;
/** instance_view refuses longer ranges (suite code 193103). */
export const MAX_WINDOW_MS = 40 * DAY_MS;

/** instance_view refuses a range holding more than 1000 instances (suite code 193104): halve it down to this. */
export const MIN_SPLIT_MS = 2 * 3_600_000;
const TOO_MANY_INSTANCES = 193104;

/**
 * The instances of [from, to): one instance_view call, or -- when the suite says the range holds too many
 * instances -- the two halves, recursively, until a half is shorter than two hours. Overlaps across halves are
 * removed by `shapeAgenda`.
 */
export async function instancesOf(
  fetch: (from: number, to: number) => Promise<EventItem[]>,
  from: number,
  to: number,
): Promise<EventItem[]> {
  try {
    return await fetch(from, to);
  } catch (e) {
    if (!(e instanceof LarkitError && e.body.code === TOO_MANY_INSTANCES)) throw e;
    if (to - from <= MIN_SPLIT_MS) {
      throw errors.validation("more than 1000 instances in a two-hour range", {
        hint: "narrow --start/--end, or query a calendar with fewer recurring events",
        code: TOO_MANY_INSTANCES,
      });
    }
    const mid = from + Math.floor((to - from) / 2);
    return [...await instancesOf(fetch, from, mid), ...await instancesOf(fetch, mid, to)];
  }
}

/** [from, to) cut into consecutive windows of at most 40 days. */
export function windowsOf(from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  for (let at = from; at < to; at += MAX_WINDOW_MS) out.push([at, Math.min(to, at + MAX_WINDOW_MS)]);
  return out;
}

const TimeInfo = z.looseObject({ timestamp: z.optional(z.string()), date: z.optional(z.string()) });
const EventItem = z.looseObject({
  event_id: z.string(),
  summary: z.optional(z.string()),
  status: z.optional(z.string()),
  start_time: TimeInfo,
  end_time: TimeInfo,
});
type EventItem = z.infer<typeof EventItem>;
const InstanceView = z.object({ items: z._default(z.array(EventItem), []) });

function instantOfTime(t: z.infer<typeof TimeInfo>, zone: string): number {
  if (t.timestamp) return Number(t.timestamp) * 1000;
  return t.date ? parseTime("date", t.date, zone) : 0;
}

function shapeTime(t: z.infer<typeof TimeInfo>, zone: string, isEnd: boolean) {
  const { timestamp, ...rest } = t;
  if (timestamp) return { ...rest, datetime: formatRfc3339(Number(timestamp) * 1000, zone) };
  if (isEnd && t.date) {
    // The suite's all-day end date is exclusive; people read the last day of the event.
    const last = new Date(Date.parse(`${t.date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
    return { ...rest, date: last };
  }
  return rest;
}

/**
 * The agenda from raw instances: one entry per (event, start, end), sorted by start, cancelled ones dropped,
 * `status` and `attendees` removed, timestamps replaced by RFC 3339 `datetime` in the zone.
 */
export function shapeAgenda(items: EventItem[], zone: string): Record<string, unknown>[] {
  const seen = new Set<string>();
  const unique = items.filter((e) => {
    const key = `${e.event_id}|${e.start_time.timestamp ?? e.start_time.date}|${
      e.end_time.timestamp ?? e.end_time.date
    }`;
    if (seen.has(key)) return false;
    seen.add(key);
    return e.status !== "cancelled";
  });
  unique.sort((a, b) => instantOfTime(a.start_time, zone) - instantOfTime(b.start_time, zone));
  return unique.map(({ status: _status, attendees: _attendees, ...e }) => ({
    ...e,
    start_time: shapeTime(e.start_time, zone, false),
    end_time: shapeTime(e.end_time, zone, true),
  }));
}

const SUMMARY_MAX = 40;

/** `--format pretty`: the day at a glance. */
export function agendaText(data: unknown, columns?: number): string {
  const events = data as Record<string, unknown>[];
  if (events.length === 0) return "No events in this time range.\n";
  const when = (t: unknown) => {
    const time = t as { datetime?: string; date?: string } | undefined;
    return time?.datetime ?? time?.date ?? "";
  };
  const rows = events.map((e) => {
    const summary = String(e.summary ?? "") || "(untitled)";
    return {
      start: when(e.start_time),
      end: when(e.end_time),
      summary: [...summary].length > SUMMARY_MAX
        ? [...summary].slice(0, SUMMARY_MAX - 1).join("") + "…"
        : summary,
      event_id: e.event_id,
      free_busy_status: e.free_busy_status,
      self_rsvp_status: e.self_rsvp_status,
    };
  });
  const order = ["start", "end", "summary", "free_busy_status", "self_rsvp_status", "event_id"];
  return renderTable(rows, columns, order) + `\n${events.length} event(s) total\n`;
}

/** "2026-03-02 09:30-10:00" (the end's date only when it differs): the table's first column. */
function timeSpan(item: unknown): string {
  const e = item as { start_time?: { datetime?: string; date?: string }; end_time?: typeof e.start_time };
  const short = (t?: { datetime?: string; date?: string }) =>
    (t?.datetime ?? t?.date ?? "").replace(/^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}).*$/, "$1 $2");
  const [from, to] = [short(e.start_time), short(e.end_time)];
  if (!to || to === from) return from;
  return from.length > 10 && from.slice(0, 10) === to.slice(0, 10)
    ? `${from}–${to.slice(11)}`
    : `${from}–${to}`;
}

export const agenda = defineShortcut({
  service: "calendar",
  command: "+agenda",
  description: "View the calendar agenda (defaults to today), recurring events expanded",
  examples: [
    "larkit calendar +agenda",
    "larkit calendar +agenda --start 2026-03-02 --end 2026-03-06 --format table",
    "larkit calendar +agenda --jq '.data[].summary'",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["calendar:calendar.event:read"], bot: ["calendar:calendar.event:read"] },
  hasFormat: true,
  columns: [
    { name: "start–end", value: timeSpan },
    "summary",
    {
      name: "organizer",
      value: (e) => (e as { event_organizer?: { display_name?: string } }).event_organizer?.display_name,
    },
    { name: "location", value: (e) => (e as { location?: { name?: string } }).location?.name },
    { name: "my_rsvp", value: (e) => (e as { self_rsvp_status?: string }).self_rsvp_status },
  ],
  flags: {
    start: flag.string("start time (ISO 8601, date, or Unix seconds; default: start of today)"),
    end: flag.string("end time (ISO 8601, date, or Unix seconds; default: end of the start day)"),
    "calendar-id": flag.string("calendar ID (default: primary)"),
  },
  async run(ctx) {
    const { from, to } = timeRange(ctx.flags.start, ctx.flags.end, ctx.now(), ctx.timeZone);
    const calendarId = await resolveCalendarId(ctx, ctx.flags["calendar-id"]);
    const path = calendarPath(calendarId, "/events/instance_view");
    const view = async (a: number, b: number) =>
      (await ctx.api({
        method: "GET",
        path,
        params: { start_time: unixSeconds(a), end_time: unixSeconds(b) },
        response: InstanceView,
        planned: { items: [] },
      })).items;
    const items: EventItem[] = [];
    for (const [a, b] of windowsOf(from, to)) items.push(...await instancesOf(view, a, b));
    const events = shapeAgenda(items, ctx.timeZone);
    ctx.note({ calendar_id: calendarId, time_zone: ctx.timeZone });
    await ctx.outFormat(events, { count: events.length }, agendaText);
  },
});
