import assert from "node:assert/strict";
import { startEmulator } from "./server.ts";
import { manualClock, tenantToken, userToken } from "../tests/helpers/emulator.ts";
import { call } from "./test_http.ts";
import { CALENDARS, USERS } from "./fixtures.ts";
import { startOfLocalDay } from "./zone.ts";

// 2026-11-23 08:00 UTC = 16:00 in Asia/Shanghai.
const NOW = Date.UTC(2026, 10, 23, 8, 0, 0);
const ZONE = "Asia/Shanghai";

interface Instance {
  event_id: string;
  summary: string;
  status: string;
  start_time: { timestamp?: string; date?: string; timezone?: string };
  end_time: { timestamp?: string; date?: string };
  recurring_event_id?: string;
  self_rsvp_status: string;
  attendees: { attendee_id: string; rsvp_status: string; display_name: string }[];
}

async function setup() {
  const emu = await startEmulator({ clock: manualClock(NOW), timeZone: ZONE });
  return { emu, token: await tenantToken(emu) };
}

function today() {
  const start = startOfLocalDay(NOW, ZONE);
  return { start: Math.floor(start / 1000), end: Math.floor(start / 1000) + 86_400 };
}

Deno.test("calendars/primary → data.calendars[].calendar {calendar_id, type: primary, role: owner}", async () => {
  const { emu, token } = await setup();
  try {
    const r = await call(emu.url, "POST", "/open-apis/calendar/v4/calendars/primary", { token });
    const cals = r.body.data?.calendars as {
      calendar: { calendar_id: string; type: string; role: string };
    }[];
    assert.equal(cals[0].calendar.calendar_id, CALENDARS.bot);
    assert.equal(cals[0].calendar.type, "primary");
    assert.equal(cals[0].calendar.role, "owner");
    assert.match(cals[0].calendar.calendar_id, /^feishu\.cn_.+@group\.calendar\.feishu\.cn$/);
  } finally {
    await emu.stop();
  }
});

Deno.test("calendars list paginates calendar_list with has_more/page_token", async () => {
  const { emu } = await setup();
  try {
    const user = await userToken(emu);
    const first = await call(emu.url, "GET", "/open-apis/calendar/v4/calendars?page_size=1", {
      token: user.access_token,
    });
    assert.equal((first.body.data?.calendar_list as unknown[]).length, 1);
    assert.equal(first.body.data?.has_more, true);
    const next = await call(
      emu.url,
      "GET",
      `/open-apis/calendar/v4/calendars?page_size=1&page_token=${first.body.data?.page_token}`,
      { token: user.access_token },
    );
    const ids = [
      ...(first.body.data?.calendar_list as { calendar_id: string }[]),
      ...(next.body.data?.calendar_list as { calendar_id: string }[]),
    ]
      .map((c) => c.calendar_id);
    assert.deepEqual(ids.sort(), [CALENDARS.alice, CALENDARS.team].sort());
    assert.equal(next.body.data?.has_more, false);
  } finally {
    await emu.stop();
  }
});

Deno.test("instance_view expands today's recurring events and keeps single, all-day and cancelled ones", async () => {
  const { emu, token } = await setup();
  try {
    const { start, end } = today();
    const r = await call(
      emu.url,
      "GET",
      `/open-apis/calendar/v4/calendars/primary/events/instance_view?start_time=${start}&end_time=${end}`,
      { token },
    );
    assert.equal(r.body.code, 0);
    const items = r.body.data?.items as Instance[];
    const summaries = items.map((i) => i.summary);
    assert.deepEqual(summaries, [
      "Team offsite",
      "Daily stand-up",
      "Cancelled sync",
      "Design review: larkit agent server",
      "1:1 Alice / Bob",
    ]);
    const standup = items[1];
    assert.equal(standup.start_time.timestamp, String(start + 9.5 * 3600));
    assert.equal(standup.start_time.timezone, ZONE);
    assert.ok(standup.recurring_event_id);
    assert.equal(standup.event_id, `${standup.recurring_event_id!.replace(/_0$/, "")}_${start + 9.5 * 3600}`);
    assert.deepEqual(items[0].start_time, { date: "2026-11-23" });
    assert.deepEqual(items[0].end_time, { date: "2026-11-24" });
    assert.equal(items[2].status, "cancelled");
  } finally {
    await emu.stop();
  }
});

Deno.test("instance_view: range over 40 days → 193103; bad params → 99992402", async () => {
  const { emu, token } = await setup();
  try {
    const { start } = today();
    const path = "/open-apis/calendar/v4/calendars/primary/events/instance_view";
    const long = await call(emu.url, "GET", `${path}?start_time=${start}&end_time=${start + 41 * 86_400}`, {
      token,
    });
    assert.equal(long.body.code, 193103);
    const bad = await call(emu.url, "GET", `${path}?start_time=soon&end_time=${start}`, { token });
    assert.equal(bad.body.code, 99992402);
  } finally {
    await emu.stop();
  }
});

Deno.test("events create/get/patch/delete and list with items/has_more", async () => {
  const { emu, token } = await setup();
  try {
    const { start } = today();
    const base = `/open-apis/calendar/v4/calendars/${encodeURIComponent(CALENDARS.bot)}/events`;
    const created = await call(emu.url, "POST", base, {
      token,
      body: {
        summary: "Launch party",
        start_time: { timestamp: String(start + 18 * 3600), timezone: ZONE },
        end_time: { timestamp: String(start + 20 * 3600), timezone: ZONE },
        location: { name: "Rooftop" },
      },
    });
    const event = created.body.data?.event as {
      event_id: string;
      summary: string;
      location: { name: string };
    };
    assert.match(event.event_id, /^[0-9a-f-]{36}_0$/);
    assert.equal(event.location.name, "Rooftop");

    const patched = await call(emu.url, "PATCH", `${base}/${event.event_id}`, {
      token,
      body: { summary: "Launch party!" },
    });
    assert.equal((patched.body.data?.event as { summary: string }).summary, "Launch party!");
    const got = await call(emu.url, "GET", `${base}/${event.event_id}`, { token });
    assert.equal((got.body.data?.event as { summary: string }).summary, "Launch party!");

    const list = await call(emu.url, "GET", `${base}?page_size=50`, { token });
    assert.ok((list.body.data?.items as { event_id: string }[]).some((e) => e.event_id === event.event_id));
    assert.equal(list.body.data?.has_more, false);

    assert.equal((await call(emu.url, "DELETE", `${base}/${event.event_id}`, { token })).body.code, 0);
    assert.equal((await call(emu.url, "GET", `${base}/${event.event_id}`, { token })).body.code, 193001);
  } finally {
    await emu.stop();
  }
});

Deno.test("freebusy/list returns busy spans of the user's primary calendar, cancelled ones excluded", async () => {
  const { emu, token } = await setup();
  try {
    const { start } = today();
    const r = await call(emu.url, "POST", "/open-apis/calendar/v4/freebusy/list", {
      token,
      body: {
        time_min: new Date((start + 9 * 3600) * 1000).toISOString(),
        time_max: new Date((start + 12 * 3600) * 1000).toISOString(),
        user_id: USERS.bob.open_id,
      },
    });
    const list = r.body.data?.freebusy_list as { start_time: string; end_time: string }[];
    assert.deepEqual(list, [{
      start_time: "2026-11-23T09:30:00+08:00",
      end_time: "2026-11-23T09:45:00+08:00",
    }]);
  } finally {
    await emu.stop();
  }
});

Deno.test("attendees create and reply set rsvp_status as self_rsvp_status", async () => {
  const { emu } = await setup();
  try {
    const user = await userToken(emu);
    const { start, end } = today();
    const view = await call(
      emu.url,
      "GET",
      `/open-apis/calendar/v4/calendars/primary/events/instance_view?start_time=${start}&end_time=${end}`,
      { token: user.access_token },
    );
    const review = (view.body.data?.items as Instance[]).find((i) => i.summary.startsWith("Design review"))!;
    const base = `/open-apis/calendar/v4/calendars/primary/events/${review.event_id}`;
    const replied = await call(emu.url, "POST", `${base}/reply`, {
      token: user.access_token,
      body: { rsvp_status: "decline" },
    });
    assert.equal(replied.body.code, 0);
    const got = await call(emu.url, "GET", base, { token: user.access_token });
    assert.equal((got.body.data?.event as Instance).self_rsvp_status, "decline");

    const added = await call(emu.url, "POST", `${base}/attendees`, {
      token: user.access_token,
      body: { attendees: [{ type: "user", user_id: USERS.bob.open_id }] },
    });
    const attendees = added.body.data?.attendees as Instance["attendees"];
    assert.ok(attendees.some((a) => a.display_name === USERS.bob.name && a.rsvp_status === "needs_action"));
  } finally {
    await emu.stop();
  }
});
