import assert from "node:assert/strict";
import { errors, LarkitError } from "../../cli/output/errors.ts";
import { loadCellWidths } from "../../cli/output/formats/cells.ts";
import { agendaText, instancesOf, MAX_WINDOW_MS, shapeAgenda, windowsOf } from "./agenda.ts";

// The pretty summary draws a table; its writer loads the width measure first, as this test does.
await loadCellWidths();

const ts = (iso: string) => String(Date.parse(iso) / 1000);

Deno.test("windowsOf cuts long ranges into 40-day windows that cover the range exactly", () => {
  const from = Date.parse("2026-01-01T00:00:00Z");
  const to = from + 100 * 86_400_000;
  const w = windowsOf(from, to);
  assert.equal(w.length, 3);
  assert.equal(w[0][1] - w[0][0], MAX_WINDOW_MS);
  assert.equal(w[0][1], w[1][0]);
  assert.equal(w[2][1], to);
  assert.deepEqual(windowsOf(from, from + 1000), [[from, from + 1000]]);
});

Deno.test("shapeAgenda: dedupes instances, sorts by start, drops cancelled, RFC 3339 in the zone", () => {
  const standup = {
    event_id: "e_1",
    summary: "Standup",
    status: "confirmed",
    attendees: [{ user_id: "ou_1" }],
    start_time: { timestamp: ts("2026-03-02T01:30:00Z"), timezone: "UTC" },
    end_time: { timestamp: ts("2026-03-02T01:45:00Z"), timezone: "UTC" },
  };
  const offsite = {
    event_id: "e_2",
    summary: "Offsite",
    start_time: { date: "2026-03-02" },
    end_time: { date: "2026-03-03" },
  };
  const cancelled = { ...standup, event_id: "e_3", status: "cancelled" };
  const shaped = shapeAgenda([standup, cancelled, offsite, standup], "Asia/Shanghai");
  assert.deepEqual(shaped, [
    {
      event_id: "e_2",
      summary: "Offsite",
      start_time: { date: "2026-03-02" },
      end_time: { date: "2026-03-02" },
    },
    {
      event_id: "e_1",
      summary: "Standup",
      start_time: { timezone: "UTC", datetime: "2026-03-02T09:30:00+08:00" },
      end_time: { timezone: "UTC", datetime: "2026-03-02T09:45:00+08:00" },
    },
  ]);
});

Deno.test("agendaText: a table of the day, or a sentence when it is empty", () => {
  assert.equal(agendaText([]), "No events in this time range.\n");
  const text = agendaText([{
    event_id: "e",
    summary: "",
    start_time: { date: "2026-03-02" },
    end_time: { date: "2026-03-02" },
  }]);
  assert.match(text, /^start\s+end\s+summary/);
  assert.match(text, /\(untitled\)/);
  assert.match(text, /\n1 event\(s\) total\n$/);
});

Deno.test("a range with more than 1000 instances is halved until each half fits; two hours is the floor", async () => {
  const HOUR = 3_600_000;
  const calls: [number, number][] = [];
  const fetch = (from: number, to: number) => {
    calls.push([from, to]);
    if (to - from > 6 * HOUR) return Promise.reject(errors.api("too many", { code: 193104 }));
    return Promise.resolve([]);
  };
  await instancesOf(fetch, 0, 24 * HOUR);
  const served = calls.filter(([a, b]) => b - a <= 6 * HOUR);
  assert.deepEqual(served, [[0, 6 * HOUR], [6 * HOUR, 12 * HOUR], [12 * HOUR, 18 * HOUR], [
    18 * HOUR,
    24 * HOUR,
  ]]);
  const never = () => Promise.reject(errors.api("too many", { code: 193104 }));
  await assert.rejects(
    instancesOf(never, 0, 24 * HOUR),
    (e) => e instanceof LarkitError && e.type === "validation",
  );
  const other = () => Promise.reject(errors.api("boom", { code: 1 }));
  await assert.rejects(
    instancesOf(other, 0, 24 * HOUR),
    (e) => e instanceof LarkitError && e.subtype === "api_error",
  );
});
