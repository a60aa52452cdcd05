/**
 * Calendar shortcuts end to end: larkit in-process against the suite emulator, whose clock is fixed
 * at 2026-11-23 08:00 UTC with fixtures seeded for that day. For each shortcut: a happy path, a dry-run that
 * sends nothing (the emulator's request log proves it), and a bad input.
 */
import assert from "node:assert/strict";
import { fixtures } from "./helpers/emulator.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

const DAY = ["--start", "2026-11-23", "--end", "2026-11-23"];

Deno.test("calendar +agenda: today's events with recurring instances, cancelled dropped, count in meta", async () => {
  await withSuite(async (emu, larkit) => {
    const r = await larkit(["calendar", "+agenda", "--as", "bot", ...DAY]);
    assert.equal(r.code, 0, r.stderr);
    const doc = r.json<
      { identity: string; data: { summary: string; start_time: unknown }[]; meta: unknown }
    >();
    assert.equal(doc.identity, "bot");
    assert.deepEqual(doc.data.map((e) => e.summary), [
      "Team offsite",
      "Daily stand-up",
      "Design review: larkit agent server",
      "1:1 Alice / Bob",
    ]);
    assert.deepEqual(doc.data[1].start_time, { timezone: "UTC", datetime: "2026-11-23T09:30:00+00:00" });
    assert.deepEqual(doc.meta, { count: 4 });
    const views = suiteCalls(emu).filter((c) => c.path.endsWith("/events/instance_view"));
    assert.deepEqual(views.map((v) => v.query), [{ start_time: "1795392000", end_time: "1795478399" }]);
  });
});

Deno.test("calendar +agenda --format table and --format csv match the seeded fixture literally", async () => {
  await withSuite(async (_emu, larkit) => {
    const table = await larkit(["calendar", "+agenda", "--as", "bot", ...DAY, "--format", "table"]);
    assert.equal(table.code, 0, table.stderr);
    const expectedTable = await Deno.readTextFile(
      new URL("./fixtures/shortcuts/agenda_2026-11-23.txt", import.meta.url),
    );
    assert.equal(table.stdout, expectedTable);
    const csv = await larkit(["calendar", "+agenda", "--as", "bot", ...DAY, "--format", "csv"]);
    assert.equal(csv.code, 0, csv.stderr);
    const expectedCsv = await Deno.readTextFile(
      new URL("./fixtures/shortcuts/agenda_2026-11-23.csv", import.meta.url),
    );
    assert.equal(csv.stdout, expectedCsv);
    // The declared columns, most important first (issue 23.1); --columns picks others.
    assert.match(csv.stdout, /^start–end,summary,organizer,location,my_rsvp\r\n/);
    assert.match(
      csv.stdout,
      /,Design review: larkit agent server,larkit sandbox,Room 3F-Hangzhou,accept\r\n/,
    );
    assert.equal(csv.stdout.split("\r\n").length, 6, "header + 4 rows, CRLF-terminated");
  });
});

Deno.test("calendar +agenda: --jq over the envelope, pretty summary, dry-run sends nothing, bad --start", async () => {
  await withSuite(async (emu, larkit) => {
    const jq = await larkit(["calendar", "+agenda", "--as", "bot", ...DAY, "--jq", ".data[].summary"]);
    assert.equal(
      jq.stdout,
      "Team offsite\nDaily stand-up\nDesign review: larkit agent server\n1:1 Alice / Bob\n",
    );
    const pretty = await larkit(["calendar", "+agenda", "--as", "bot", ...DAY, "--format", "pretty"]);
    assert.match(pretty.stdout, /^start\s+end\s+summary\s+free_busy_status\s+self_rsvp_status\s+event_id\n/);
    assert.match(pretty.stdout, /\n4 event\(s\) total\n$/);

    emu.clearRequests();
    const dry = await larkit(["calendar", "+agenda", "--as", "bot", ...DAY, "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    const plan = dry.json<{ data: { api: { method: string; url: string }[] } }>().data.api;
    assert.deepEqual(plan.map((a) => a.method), ["POST", "GET"]);
    assert.equal(plan[1].url, `${emu.url}/open-apis/calendar/v4/calendars/<primary>/events/instance_view`);
    assert.deepEqual(emu.requests(), []);

    const bad = await larkit(["calendar", "+agenda", "--as", "bot", "--start", "next tuesday"]);
    assert.equal(bad.code, 2);
    assert.equal(bad.errorJson().error.type, "validation");
    assert.match(bad.errorJson().error.message, /--start/);
    assert.equal(bad.stdout, "");
    assert.deepEqual(suiteCalls(emu), []);

    const badJq = await larkit(["calendar", "+agenda", "--as", "bot", "--jq", ".data["]);
    assert.equal(badJq.errorJson().error.type, "validation");
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("calendar +create: creates the event, invites attendees; dry-run sends nothing; bad attendee id", async () => {
  await withSuite(async (emu, larkit) => {
    const bob = fixtures.USERS.bob.open_id;
    const args = [
      "calendar",
      "+create",
      "--as",
      "bot",
      "--summary",
      "Launch retro",
      "--start",
      "2026-11-24T10:00",
      "--end",
      "2026-11-24T11:00",
      "--attendee-ids",
      bob,
    ];
    emu.clearRequests();
    const dry = await larkit([...args, "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    const plan = dry.json<{ data: { api: { url: string; body: Record<string, unknown> }[] } }>().data.api;
    assert.equal(plan.length, 3, "primary lookup, create, invite");
    assert.deepEqual(plan[1].body.start_time, { timestamp: "1795514400", timezone: "UTC" });
    assert.match(plan[2].url, /\/events\/<event_id>\/attendees$/);
    assert.deepEqual(emu.requests(), []);

    const r = await larkit(args);
    assert.equal(r.code, 0, r.stderr);
    const data =
      r.json<{ data: { event: { event_id: string; summary: string }; attendees: { user_id: string }[] } }>()
        .data;
    assert.equal(data.event.summary, "Launch retro");
    assert.ok(data.attendees.some((a) => a.user_id === bob));
    const agenda = await larkit([
      "calendar",
      "+agenda",
      "--as",
      "bot",
      "--start",
      "2026-11-24",
      "--jq",
      ".data[].summary",
    ]);
    assert.match(agenda.stdout, /^Launch retro$/m);

    const bad = await larkit([...args.slice(0, -1), "xx_123"]);
    assert.equal(bad.code, 2);
    assert.match(bad.errorJson().error.message, /--attendee-ids: "xx_123"/);
  });
});

Deno.test("calendar +freebusy: the user's busy slots; bot needs --user-id; dry-run sends nothing", async () => {
  await withSuite(async (emu, larkit) => {
    const alice = fixtures.USERS.alice.open_id;
    const r = await larkit(["calendar", "+freebusy", "--as", "bot", "--user-id", alice, ...DAY]);
    assert.equal(r.code, 0, r.stderr);
    const doc = r.json<{ data: { start_time: string; end_time: string }[]; meta: { count: number } }>();
    assert.deepEqual(doc.data[0], {
      start_time: "2026-11-23T09:30:00+00:00",
      end_time: "2026-11-23T09:45:00+00:00",
    });
    assert.equal(doc.meta.count, doc.data.length);

    const me = await larkit(["calendar", "+freebusy", "--as", "user", ...DAY, "--format", "pretty"], {
      asUser: true,
    });
    assert.equal(me.code, 0, me.stderr);
    assert.match(me.stdout, /^busy_from\s+busy_until\n/);

    emu.clearRequests();
    const dry = await larkit(["calendar", "+freebusy", "--as", "user", ...DAY, "--dry-run"], {
      asUser: true,
    });
    assert.equal(dry.code, 0, dry.stderr);
    const plan = dry.json<{ data: { api: { url: string; body?: { user_id: string } }[] } }>().data.api;
    assert.match(plan[0].url, /\/authen\/v1\/user_info$/);
    assert.equal(plan[1].body?.user_id, "<current user>");
    assert.deepEqual(emu.requests(), []);

    const bad = await larkit(["calendar", "+freebusy", "--as", "bot", ...DAY]);
    assert.equal(bad.code, 2);
    assert.match(bad.errorJson().error.message, /--user-id is required when running as bot/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("calendar +rsvp: replies as the user; dry-run sends nothing; an unknown status is refused", async () => {
  await withSuite(async (emu, larkit) => {
    const eventId = fixtures.seedIdOfEvent("alice", "design_review");
    const args = ["calendar", "+rsvp", "--as", "user", "--event-id", eventId, "--rsvp-status", "tentative"];
    emu.clearRequests();
    const dry = await larkit([...args, "--dry-run"], { asUser: true });
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(dry.json<{ data: { api: { body?: unknown }[] } }>().data.api[1].body, {
      rsvp_status: "tentative",
    });
    assert.deepEqual(emu.requests(), []);

    const r = await larkit(args, { asUser: true });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json<{ data: { rsvp_status: string } }>().data.rsvp_status, "tentative");
    const row = emu.db.prepare("SELECT rsvp_status FROM attendees WHERE event_id = ? AND open_id = ?")
      .get(eventId, fixtures.USERS.alice.open_id) as { rsvp_status: string };
    assert.equal(row.rsvp_status, "tentative");

    const bad = await larkit([...args.slice(0, -1), "maybe"], { asUser: true });
    assert.equal(bad.code, 2);
    assert.match(bad.errorJson().error.message, /invalid value "maybe" for --rsvp-status/);
  });
});
