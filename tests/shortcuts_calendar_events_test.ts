/**
 * The calendar event shortcuts beyond +agenda/+create/+freebusy/+rsvp, end to end against the emulator: an
 * event's life (create → get → update → attendees → join → delete), then per shortcut a dry run that sends
 * nothing and fits the registry's request schemas, and one bad input refused before anything is sent.
 */
import assert from "node:assert/strict";
import { fixtures } from "./helpers/emulator.ts";
import { dryRunProblems, type Planned } from "./helpers/plan_fit.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

const { CALENDARS, USERS } = fixtures;
const CAL = ["--calendar-id", CALENDARS.bot];

Deno.test("calendar: an event's life through +get, +update, +list-attendees, +join-event and +delete", async () => {
  await withSuite(async (emu, larkit) => {
    const made = await larkit([
      "calendar",
      "+create",
      ...CAL,
      "--summary",
      "Design review",
      "--start",
      "2026-11-24T10:00",
      "--end",
      "2026-11-24T11:00",
    ]);
    assert.equal(made.code, 0, made.stderr);
    const id = made.json<{ data: { event: { event_id: string } } }>().data.event.event_id;

    const got = await larkit(["calendar", "+get", ...CAL, "--event-id", id]);
    assert.equal(got.code, 0, got.stderr);
    const event = got.json<{ data: { summary: string; start_time: { datetime: string } } }>().data;
    assert.equal(event.summary, "Design review");
    assert.equal(event.start_time.datetime, "2026-11-24T10:00:00+00:00");

    const upd = await larkit([
      "calendar",
      "+update",
      ...CAL,
      "--event-id",
      id,
      "--summary",
      "Design review (moved)",
      "--start",
      "2026-11-24T15:00",
      "--end",
      "2026-11-24T16:00",
      "--add-attendee-ids",
      USERS.bob.open_id,
    ]);
    assert.equal(upd.code, 0, upd.stderr);
    assert.deepEqual(upd.json<{ data: { updated_fields: string[]; added: number } }>().data.added, 1);
    const again = await larkit(["calendar", "+get", ...CAL, "--event-id", id]);
    const moved = again.json<{ data: { summary: string; start_time: { datetime: string } } }>().data;
    assert.deepEqual([moved.summary, moved.start_time.datetime], [
      "Design review (moved)",
      "2026-11-24T15:00:00+00:00",
    ]);

    const list = await larkit(["calendar", "+list-attendees", ...CAL, "--event-id", id, "--page-all"]);
    assert.equal(list.code, 0, list.stderr);
    const people = list.json<{ data: { user_id?: string }[] }>().data.map((a) => a.user_id);
    assert.ok(people.includes(USERS.bob.open_id), JSON.stringify(people));

    const joined = await larkit(["calendar", "+join-event", ...CAL, "--event-id", id], { asUser: true });
    assert.equal(joined.code, 0, joined.stderr);
    const after = await larkit(["calendar", "+list-attendees", ...CAL, "--event-id", id]);
    assert.ok(
      after.json<{ data: { user_id?: string }[] }>().data.some((a) => a.user_id === USERS.alice.open_id),
    );

    const rm = await larkit([
      "calendar",
      "+update",
      ...CAL,
      "--event-id",
      id,
      "--remove-attendee-ids",
      USERS.bob.open_id,
    ]);
    assert.equal(rm.code, 0, rm.stderr);
    const left = await larkit(["calendar", "+list-attendees", ...CAL, "--event-id", id]);
    assert.ok(
      !left.json<{ data: { user_id?: string }[] }>().data.some((a) => a.user_id === USERS.bob.open_id),
    );

    const refused = await larkit(["calendar", "+delete", ...CAL, "--event-id", id]);
    assert.notEqual(refused.code, 0, "a high-risk write without --yes is not run");
    const del = await larkit(["calendar", "+delete", ...CAL, "--event-id", id, "--yes"]);
    assert.equal(del.code, 0, del.stderr);
    const gone = await larkit(["calendar", "+get", ...CAL, "--event-id", id]);
    assert.notEqual(gone.code, 0);
    assert.ok(suiteCalls(emu).some((c) => c.method === "DELETE"));
  });
});

const CASES: Record<string, { argv: string[]; asUser?: boolean; bad: string[]; says: RegExp }> = {
  "+get": { argv: [...CAL, "--event-id", "e_1"], bad: ["--event-id", "../x"], says: /not an event ID/ },
  "+update": {
    argv: [...CAL, "--event-id", "e_1", "--summary", "s", "--remove-attendee-ids", USERS.bob.open_id],
    bad: ["--event-id", "e_1"],
    says: /nothing to update/,
  },
  "+delete": {
    argv: [...CAL, "--event-id", "e_1"],
    bad: [...CAL, "--event-id", "e_1", "--notify", "no"],
    says: /must be one of/,
  },
  "+search-event": {
    argv: [...CAL, "--query", "review", "--start", "2026-11-01", "--attendee-ids", USERS.bob.open_id],
    bad: ["--query", "review", "--attendee-ids", "bob"],
    says: /not an open_id/,
  },
  "+list-attendees": {
    argv: [...CAL, "--event-id", "e_1"],
    bad: [...CAL, "--event-id", "e_1", "--page-size", "0"],
    says: /page-size/,
  },
  "+join-event": {
    argv: [...CAL, "--event-id", "e_1"],
    asUser: true,
    bad: ["--event-id", "a b"],
    says: /not an event ID/,
  },
  "+meeting": {
    argv: [...CAL, "--event-ids", "e_1,e_2"],
    asUser: true,
    bad: ["--event-ids", ","],
    says: /at least one ID/,
  },
  "+room-find": {
    argv: ["--slot", "2026-11-24T10:00/2026-11-24T11:00", "--min-capacity", "6", "--building", "B1"],
    bad: ["--slot", "2026-11-24T11:00/2026-11-24T10:00"],
    says: /ends before it starts/,
  },
  "+suggestion": {
    argv: ["--attendee-ids", USERS.bob.open_id, "--duration-minutes", "45"],
    bad: ["--duration-minutes", "2"],
    says: /duration-minutes/,
  },
};

for (const [cmd, c] of Object.entries(CASES)) {
  Deno.test(`calendar ${cmd}: runs, its dry run sends nothing and fits the registry, a bad input is refused`, async () => {
    await withSuite(async (emu, larkit) => {
      const r = await larkit(["calendar", cmd, ...c.argv, ...(cmd === "+delete" ? ["--yes"] : [])], {
        asUser: c.asUser,
      });
      if (
        cmd !== "+get" && cmd !== "+update" && cmd !== "+delete" && cmd !== "+list-attendees" &&
        cmd !== "+join-event"
      ) {
        assert.equal(r.code, 0, r.stderr);
      }
      emu.clearRequests();
      const dry = await larkit(["calendar", cmd, ...c.argv, "--dry-run"], { asUser: c.asUser });
      assert.equal(dry.code, 0, dry.stderr);
      assert.deepEqual(emu.requests(), []);
      assert.deepEqual(await dryRunProblems(dry.json<{ data: { api: Planned[] } }>().data.api), []);
      const bad = await larkit(["calendar", cmd, ...c.bad], { asUser: c.asUser });
      assert.equal(bad.code, 2, bad.stderr);
      assert.match(bad.errorJson().error.message, c.says);
      assert.deepEqual(suiteCalls(emu), []);
    });
  });
}
