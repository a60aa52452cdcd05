import assert from "node:assert/strict";
import { occurrences, parseRule } from "./recurrence.ts";
import { localDate, rfc3339, startOfLocalDay, zoneOffsetMs } from "./zone.ts";

const H = 3_600_000;
const D = 24 * H;
// Monday 2026-11-23 00:00 UTC.
const MON = Date.UTC(2026, 10, 23);

Deno.test("parseRule reads FREQ, INTERVAL, COUNT, UNTIL, BYDAY; unsupported rules are undefined", () => {
  assert.deepEqual(parseRule("RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=4"), {
    freq: "WEEKLY",
    interval: 2,
    count: 4,
    byDay: [1, 3],
  });
  assert.equal(parseRule("FREQ=DAILY;UNTIL=20261125")?.until, Date.UTC(2026, 10, 25, 23, 59, 59));
  assert.equal(parseRule("FREQ=MONTHLY"), undefined);
  assert.equal(parseRule(""), undefined);
});

Deno.test("daily rule: one instance per day in the window, COUNT stops the series", () => {
  const rule = parseRule("FREQ=DAILY")!;
  assert.deepEqual(occurrences(MON + 9 * H, H, rule, "UTC", MON + D, MON + 3 * D, 100), [
    MON + D + 9 * H,
    MON + 2 * D + 9 * H,
  ]);
  const counted = parseRule("FREQ=DAILY;COUNT=2")!;
  assert.deepEqual(occurrences(MON + 9 * H, H, counted, "UTC", MON, MON + 5 * D, 100), [
    MON + 9 * H,
    MON + D + 9 * H,
  ]);
});

Deno.test("weekly BYDAY with INTERVAL=2 skips odd weeks; an instance overlapping the window start counts", () => {
  const rule = parseRule("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE")!;
  const got = occurrences(MON + 10 * H, H, rule, "UTC", MON, MON + 21 * D, 100).map((t) =>
    (t - MON - 10 * H) / D
  );
  assert.deepEqual(got, [0, 2, 14, 16]);
  const overlapping = occurrences(
    MON + 10 * H,
    2 * H,
    parseRule("FREQ=DAILY")!,
    "UTC",
    MON + 11 * H,
    MON + 12 * H,
    10,
  );
  assert.deepEqual(overlapping, [MON + 10 * H]);
});

Deno.test("the limit caps expansion at limit + 1 so callers can report 'too many'", () => {
  assert.equal(occurrences(MON, H, parseRule("FREQ=DAILY")!, "UTC", MON, MON + 40 * D, 5).length, 6);
});

Deno.test("zone helpers: offsets, local midnight, dates and RFC 3339", () => {
  assert.equal(zoneOffsetMs(MON, "Asia/Shanghai"), 8 * H);
  assert.equal(startOfLocalDay(MON + 20 * H, "Asia/Shanghai"), MON + 16 * H);
  assert.equal(localDate(MON + 20 * H, "Asia/Shanghai"), "2026-11-24");
  assert.equal(rfc3339(MON + 90 * 60_000, "America/New_York"), "2026-11-22T20:30:00-05:00");
});
