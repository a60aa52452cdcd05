import assert from "node:assert/strict";
import { LarkitError } from "../../cli/output/errors.ts";
import { endOfDay, formatRfc3339, parseTime, startOfDay, timeRange } from "./time.ts";

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
