/**
 * Time as shortcuts take it from people: ISO 8601 with or without an offset, a bare date, or Unix seconds,
 * read in the user's time zone (`TZ`, else the system zone); and instants printed back as RFC 3339 in that
 * zone. Pure functions over epoch milliseconds: the clock is passed in.
 */
import { errors } from "../../cli/output/errors.ts";
import type { Env } from "../../cli/provider.ts";

/**
 * The user's IANA zone: `TZ` when set, else the system's. Read through `Temporal` where it knows the zone:
 * the first `Intl.DateTimeFormat` of a process starts ICU's formatting (15-80 ms, issue 17), and `Temporal`
 * answers the same in under a millisecond. A zone only `Intl` takes (`Factory`, `+0545`), or a `TZ` that
 * `Temporal` reads as another name (an ISO string with a `[zone]` annotation, which `Intl` refuses), is
 * checked by `Intl` as before.
 */
export function timeZoneOf(env: Env): string {
  const zone = env.get("TZ") || Temporal.Now.timeZoneId();
  if (temporalZone(zone)?.toLowerCase() === zone.toLowerCase()) return zone;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
  } catch {
    throw errors.validation(`TZ is not a valid time zone: ${zone}`, {
      hint: "use an IANA name such as Asia/Shanghai",
    });
  }
  return zone;
}

/** The zone as `Temporal` names it, or undefined when it does not take it. */
function temporalZone(zone: string): string | undefined {
  try {
    return Temporal.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(zone).timeZoneId;
  } catch {
    return undefined;
  }
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * The zone's wall clock at an instant, through `Temporal` (no ICU start-up; the same answers as `Intl` for
 * every zone both know, 1900-2060, every DST change included). What `Temporal` refuses -- a zone only `Intl`
 * knows, an instant out of range -- is left to `Intl`, which answers or throws as it always did.
 */
function wallClockAt(ms: number, zone: string): WallClock {
  let at: Temporal.ZonedDateTime;
  try {
    at = Temporal.Instant.fromEpochMilliseconds(Math.trunc(ms)).toZonedDateTimeISO(zone);
  } catch {
    return intlWallClockAt(ms, zone);
  }
  return { year: at.year, month: at.month, day: at.day, hour: at.hour, minute: at.minute, second: at.second };
}

/** The wall clock at `ms` as `Intl.DateTimeFormat` shows it in `zone` (for zones only Intl knows). */
export function intlWallClockAt(ms: number, zone: string): WallClock {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(ms);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: get("year"),
    month: get("month"),
    day: get("day"),
    hour: get("hour"),
    minute: get("minute"),
    second: get("second"),
  };
}

/** The zone's offset from UTC at an instant, in milliseconds (east positive). */
export function offsetAt(ms: number, zone: string): number {
  const w = wallClockAt(ms, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant at which the zone's wall clock shows the given local time. */
export function instantOf(w: WallClock, zone: string): number {
  const guess = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  // Two passes settle the offset across a DST change.
  const first = guess - offsetAt(guess, zone);
  return guess - offsetAt(first, zone);
}

/** Midnight (local) of the day containing `ms` in the zone. */
export function startOfDay(ms: number, zone: string): number {
  const w = wallClockAt(ms, zone);
  return instantOf({ ...w, hour: 0, minute: 0, second: 0 }, zone);
}

/** 23:59:59 (local) of the day containing `ms` in the zone. */
export function endOfDay(ms: number, zone: string): number {
  const w = wallClockAt(ms, zone);
  return instantOf({ ...w, hour: 23, minute: 59, second: 59 }, zone);
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATETIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;
const WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * The wall clock as written, refused when that day or time does not exist (2026-02-30, 24:30, 25:61): date
 * arithmetic would roll it over into another day without a word, a scheduled send or a due date on the wrong
 * day. `Temporal` with `overflow: "reject"` knows every month's length and leap year.
 */
function existing(flagName: string, text: string, w: WallClock): WallClock {
  try {
    Temporal.PlainDateTime.from(w, { overflow: "reject" });
  } catch {
    throw errors.validation(`invalid time for --${flagName}: "${text}" is not a date and time that exists`, {
      hint: "check the month's length and the time of day (00:00-23:59)",
    });
  }
  return w;
}

/**
 * Parses a time flag. A bare date means the start of that day, or its last second when `endOfDayForDate`;
 * a date-time without an offset is read in the zone; digits alone are Unix seconds. Every flag that takes a
 * time from people parses it here, so a date that does not exist is refused the same way everywhere.
 */
export function parseTime(flagName: string, text: string, zone: string, endOfDayForDate = false): number {
  const date = DATE_ONLY.exec(text);
  if (date) {
    const [year, month, day] = date.slice(1).map(Number);
    const time = endOfDayForDate ? { hour: 23, minute: 59, second: 59 } : { hour: 0, minute: 0, second: 0 };
    return instantOf(existing(flagName, text, { year, month, day, ...time }), zone);
  }
  const local = LOCAL_DATETIME.exec(text);
  if (local) {
    const [year, month, day, hour, minute, second] = local.slice(1).map((v) => Number(v ?? 0));
    return instantOf(existing(flagName, text, { year, month, day, hour, minute, second }), zone);
  }
  const offset = WITH_OFFSET.exec(text);
  if (offset) {
    const [year, month, day, hour, minute, second] = offset.slice(1).map((v) => Number(v ?? 0));
    existing(flagName, text, { year, month, day, hour, minute, second });
    const ms = Date.parse(text.replace(" ", "T"));
    if (!Number.isNaN(ms)) return ms;
  }
  if (/^\d{9,11}$/.test(text)) return Number(text) * 1000;
  throw errors.validation(`invalid time for --${flagName}: "${text}"`, {
    hint: "use ISO 8601 (2026-03-02T10:00, 2026-03-02T10:00+08:00), a date (2026-03-02) or Unix seconds",
  });
}

function pad(n: number, width = 2): string {
  return String(Math.abs(n)).padStart(width, "0");
}

/** RFC 3339 with the zone's offset at that instant, seconds precision: 2026-03-02T10:00:00+08:00. */
export function formatRfc3339(ms: number, zone: string): string {
  const w = wallClockAt(ms, zone);
  const offset = Math.round(offsetAt(ms, zone) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}` +
    `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

/** Unix seconds as the suite's APIs take them (a decimal string). */
export function unixSeconds(ms: number): string {
  return String(Math.floor(ms / 1000));
}

/** `--start`/`--end` with their natural defaults: the start of today, and the end of the start's day. */
export function timeRange(
  start: string | undefined,
  end: string | undefined,
  now: number,
  zone: string,
): { from: number; to: number } {
  const from = start ? parseTime("start", start, zone) : startOfDay(now, zone);
  const to = end ? parseTime("end", end, zone, true) : endOfDay(from, zone);
  if (to <= from) {
    throw errors.validation("--end must be after --start", {
      hint: "e.g. --start 2026-03-02 --end 2026-03-06",
    });
  }
  return { from, to };
}
