/**
 * Expands a recurring event into instances, for `instance_view` and freebusy. The suite stores RFC 5545 RRULEs
 * (`FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10`); this covers DAILY and WEEKLY with INTERVAL, COUNT, UNTIL and BYDAY.
 * Days step in the event's own zone at the offset of its first occurrence (a DST change shifts later instances
 * by the hour, which fixtures avoid).
 */
import { zoneOffsetMs } from "./zone.ts";

export interface Rule {
  freq: "DAILY" | "WEEKLY";
  interval: number;
  count?: number;
  /** Last allowed start, ms. */
  until?: number;
  /** 0 = Sunday ... 6 = Saturday. */
  byDay?: number[];
}

const DAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];
const DAY_MS = 86_400_000;

export function parseRule(text: string): Rule | undefined {
  const body = text.replace(/^RRULE:/i, "").trim();
  if (!body) return undefined;
  const fields = Object.fromEntries(body.split(";").map((kv) => kv.split("=") as [string, string]));
  if (fields.FREQ !== "DAILY" && fields.FREQ !== "WEEKLY") return undefined;
  const rule: Rule = { freq: fields.FREQ, interval: Math.max(1, Number(fields.INTERVAL ?? 1) || 1) };
  if (fields.COUNT) rule.count = Number(fields.COUNT);
  if (fields.UNTIL) rule.until = parseUntil(fields.UNTIL);
  if (fields.BYDAY) {
    rule.byDay = fields.BYDAY.split(",").map((d) => DAYS.indexOf(d.slice(-2))).filter((d) => d >= 0);
  }
  return rule;
}

function parseUntil(v: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(v);
  if (!m) return undefined;
  const [, y, mo, d, h = "23", mi = "59", s = "59"] = m;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
}

/**
 * Start instants (ms) of the occurrences whose span [start, start + duration) meets [from, to), in order,
 * stopping after `limit` (the caller turns "more than limit" into the suite's 193104).
 */
export function occurrences(
  firstStart: number,
  durationMs: number,
  rule: Rule,
  zone: string,
  from: number,
  to: number,
  limit: number,
): number[] {
  const offset = zoneOffsetMs(firstStart, zone);
  const localFirst = firstStart + offset;
  const firstDay = Math.floor(localFirst / DAY_MS);
  const timeOfDay = localFirst - firstDay * DAY_MS;
  const out: number[] = [];
  let produced = 0;
  for (let day = firstDay;; day++) {
    const start = day * DAY_MS + timeOfDay - offset;
    if (start >= to || (rule.until !== undefined && start > rule.until)) break;
    if (!occursOn(day, firstDay, rule)) continue;
    produced++;
    if (rule.count !== undefined && produced > rule.count) break;
    if (start + durationMs > from) {
      out.push(start);
      if (out.length > limit) break;
    }
  }
  return out;
}

function occursOn(day: number, firstDay: number, rule: Rule): boolean {
  const elapsed = day - firstDay;
  if (rule.freq === "DAILY") return elapsed % rule.interval === 0;
  // Weeks start on Monday (RFC 5545 WKST default); day 0 of the epoch was a Thursday.
  const weekday = (day + 4) % 7;
  const mondayOf = (d: number) => d - ((d + 3) % 7);
  const weeks = (mondayOf(day) - mondayOf(firstDay)) / 7;
  if (weeks % rule.interval !== 0) return false;
  const days = rule.byDay?.length ? rule.byDay : [(firstDay + 4) % 7];
  return days.includes(weekday);
}
