import assert from "node:assert/strict";
import { LarkitError } from "../../cli/output/errors.ts";
import {
  endOfDay,
  formatRfc3339,
  intlWallClockAt,
  parseTime,
  startOfDay,
  timeRange,
  timeZoneOf,
} from "./time.ts";

const SH = "Asia/Shanghai";
const NY = "America/New_York";

Deno.test("parseTime: dates, local date-times in the zone, explicit offsets, Unix seconds", () => {
  assert.equal(parseTime("start", "2026-03-02", SH), Date.parse("2026-03-02T00:00:00+08:00"));
  assert.equal(parseTime("end", "2026-03-02", SH, true), Date.parse("2026-03-02T23:59:59+08:00"));
  assert.equal(parseTime("start", "2026-03-02T10:30", SH), Date.parse("2026-03-02T10:30:00+08:00"));
  assert.equal(parseTime("start", "2026-03-02T10:30:00Z", SH), Date.parse("2026-03-02T10:30:00Z"));
  assert.equal(parseTime("start", "2026-03-02T10:30:00-05:00", SH), Date.parse("2026-03-02T15:30:00Z"));
  assert.equal(parseTime("start", "1772416800", SH), 1772416800_000);
  assert.throws(() => parseTime("start", "tomorrow", SH), (e: unknown) => {
    assert.ok(e instanceof LarkitError && e.type === "validation");
    assert.match(e.message, /--start/);
    return true;
  });
});

Deno.test("day boundaries and offsets follow the zone, across a DST change", () => {
  const noon = Date.parse("2026-03-08T17:00:00Z"); // New York switches to DST at 02:00 that day
  assert.equal(startOfDay(noon, NY), Date.parse("2026-03-08T00:00:00-05:00"));
  assert.equal(endOfDay(noon, NY), Date.parse("2026-03-08T23:59:59-04:00"));
  assert.equal(formatRfc3339(noon, NY), "2026-03-08T13:00:00-04:00");
  assert.equal(formatRfc3339(Date.parse("2026-03-02T02:00:00Z"), SH), "2026-03-02T10:00:00+08:00");
  assert.equal(formatRfc3339(0, "UTC"), "1970-01-01T00:00:00+00:00");
});

Deno.test("timeRange defaults to today in the zone, end to the end of the start day", () => {
  const now = Date.parse("2026-03-02T20:00:00Z"); // already the 3rd in Shanghai
  assert.deepEqual(timeRange(undefined, undefined, now, SH), {
    from: Date.parse("2026-03-03T00:00:00+08:00"),
    to: Date.parse("2026-03-03T23:59:59+08:00"),
  });
  assert.deepEqual(
    timeRange("2026-03-02T09:00", undefined, now, SH).to,
    Date.parse("2026-03-02T23:59:59+08:00"),
  );
  assert.throws(() => timeRange("2026-03-05", "2026-03-02", now, SH), /--end must be after --start/);
});

Deno.test("the day DST ends: a 25-hour day, and the repeated hour told apart by its offset", () => {
  const noon = Date.parse("2026-11-01T17:00:00Z"); // New York falls back at 02:00 that day
  assert.equal(startOfDay(noon, NY), Date.parse("2026-11-01T00:00:00-04:00"));
  assert.equal(endOfDay(noon, NY), Date.parse("2026-11-01T23:59:59-05:00"));
  assert.equal(formatRfc3339(Date.parse("2026-11-01T05:30:00Z"), NY), "2026-11-01T01:30:00-04:00");
  assert.equal(formatRfc3339(Date.parse("2026-11-01T06:30:00Z"), NY), "2026-11-01T01:30:00-05:00");
  assert.equal(parseTime("start", "2026-11-01T01:30", NY), Date.parse("2026-11-01T01:30:00-04:00"));
  // Lord Howe moves its clocks by half an hour.
  const LH = "Australia/Lord_Howe";
  assert.equal(formatRfc3339(Date.parse("2026-10-03T15:29:59Z"), LH), "2026-10-04T01:59:59+10:30");
  assert.equal(formatRfc3339(Date.parse("2026-10-03T15:30:00Z"), LH), "2026-10-04T02:30:00+11:00");
  assert.deepEqual(timeRange(undefined, undefined, Date.parse("2026-10-04T03:00:00Z"), LH), {
    from: Date.parse("2026-10-04T00:00:00+10:30"),
    to: Date.parse("2026-10-04T23:59:59+11:00"),
  });
});

/**
 * The time as Intl.DateTimeFormat shows it (what the zone's times were read with before Temporal): its wall
 * clock, and the offset that wall clock is from the instant.
 */
function intlRfc3339(ms: number, zone: string): string {
  const w = intlWallClockAt(ms, zone);
  const offsetMin = Math.round(
    (Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - ms) / 60_000,
  );
  const two = (n: number) => String(n).padStart(2, "0");
  const sign = offsetMin < 0 ? "-" : "+";
  const abs = Math.abs(offsetMin);
  return `${String(w.year).padStart(4, "0")}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}:${
    two(w.second)
  }${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

Deno.test("times read through Temporal are the ones Intl shows, at every DST change of 2020–2030", () => {
  const zones = [
    NY,
    SH,
    "Europe/London",
    "Australia/Lord_Howe",
    "America/Havana",
    "America/Santiago",
    "Asia/Tehran",
  ];
  for (const zone of zones) {
    let at: Temporal.ZonedDateTime = Temporal.Instant.fromEpochMilliseconds(Date.UTC(2020, 0, 1))
      .toZonedDateTimeISO(zone);
    for (;;) {
      const next: Temporal.ZonedDateTime | null = at.getTimeZoneTransition("next");
      if (!next || next.epochMilliseconds > Date.UTC(2030, 0, 1)) break;
      for (const delta of [-3_600_000, -1000, 0, 1000, 3_600_000]) {
        const ms: number = next.epochMilliseconds + delta;
        assert.equal(
          formatRfc3339(ms, zone),
          intlRfc3339(ms, zone),
          `${zone} at ${new Date(ms).toISOString()}`,
        );
        assert.equal(
          formatRfc3339(startOfDay(ms, zone), zone),
          intlRfc3339(startOfDay(ms, zone), zone),
          `${zone}: start of the day of ${new Date(ms).toISOString()}`,
        );
      }
      at = next;
    }
  }
});

Deno.test("timeZoneOf: TZ as given when valid, the system zone without it, a validation error when unknown", () => {
  const env = (tz?: string) => ({ get: (name: string) => name === "TZ" ? tz : undefined });
  assert.equal(timeZoneOf(env(SH)), SH);
  assert.equal(timeZoneOf(env("asia/shanghai")), "asia/shanghai");
  assert.equal(timeZoneOf(env("+0545")), "+0545"); // Temporal calls it +05:45: Intl decides, as before
  assert.equal(timeZoneOf(env()), Intl.DateTimeFormat().resolvedOptions().timeZone);
  for (const bad of ["Mars/Olympus", ":Asia/Tokyo", "2026-01-01T00:00[Asia/Tokyo]"]) {
    assert.throws(() => timeZoneOf(env(bad)), (e: unknown) => {
      assert.ok(e instanceof LarkitError && e.type === "validation");
      assert.match(e.message, /TZ is not a valid time zone/);
      return true;
    }, bad);
  }
});
