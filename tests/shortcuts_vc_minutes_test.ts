/**
 * vc and minutes shortcuts end to end against the emulator (the generic handler serves their registry and
 * supplementary methods): per shortcut its main path (exit 0, the requests it names sent, a result), its dry
 * run (nothing sent, the plan fits the registry's request schemas) and one bad input (exit 2, nothing sent).
 */
import assert from "node:assert/strict";
import { type Emulator, fixtures, tenantToken, userToken } from "./helpers/emulator.ts";
import { type ShortcutCase, shortcutCaseTests } from "./helpers/shortcut_cases.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

const { USERS } = fixtures;
const MEETING = "6911188411934433028";
const MINUTE = "obcnq3b9jl72l83w4f149w9c";

const CASES: Record<string, ShortcutCase> = {
  "vc +search": {
    argv: ["--query", "sync", "--start", "2026-11-01", "--participant-ids", USERS.bob.open_id],
    asUser: true,
    sends: ["POST /vc/v1/meetings/search"],
    bad: [],
    says: /at least one filter/,
  },
  "vc +detail": {
    argv: ["--meeting-ids", `${MEETING},6911188411934433029`],
    sends: [
      `GET /vc/v1/meetings/${MEETING}`,
      `GET /vc/v1/meetings/${MEETING}/recording`,
      "GET /vc/v1/meetings/6911188411934433029",
      "GET /vc/v1/meetings/6911188411934433029/recording",
    ],
    bad: ["--meeting-ids", "../x"],
    says: /is not an ID/,
  },
  "vc +recording": {
    argv: ["--calendar-event-ids", "evt_1", "--calendar-id", fixtures.CALENDARS.alice],
    sends: [`POST /calendar/v4/calendars/${fixtures.CALENDARS.alice}/events/mget_instance_relation_info`],
    bad: ["--meeting-ids", MEETING, "--calendar-event-ids", "evt_1"],
    says: /exactly one of --meeting-ids and --calendar-event-ids/,
  },
  "vc +notes": {
    argv: ["--meeting-ids", MEETING],
    sends: [`GET /vc/v1/meetings/${MEETING}`],
    bad: [],
    says: /exactly one of/,
  },
  "vc +meeting-join": {
    argv: ["--meeting-number", "123456789", "--password", "0000"],
    sends: ["POST /vc/v1/bots/join"],
    bad: ["--meeting-number", "12-34"],
    says: /must be 9 digits/,
  },
  "vc +meeting-leave": {
    argv: ["--meeting-id", MEETING],
    sends: ["POST /vc/v1/bots/leave"],
    bad: ["--meeting-id", "a/b"],
    says: /is not an ID/,
  },
  "vc +meeting-list-active": {
    argv: ["--user-id", USERS.bob.open_id],
    sends: ["GET /vc/v1/bots/user_active_meeting"],
    bad: ["--user-id", "bob"],
    says: /open_id/,
  },
  "vc +meeting-events": {
    argv: ["--meeting-id", MEETING, "--start", "2026-11-23T09:00", "--page-all"],
    sends: ["GET /vc/v1/bots/events"],
    bad: ["--meeting-id", MEETING, "--page-all", "--page-token", "t"],
    says: /--page-all starts from the first page/,
  },
  "vc +meeting-message-send": {
    argv: ["--meeting-id", MEETING, "--text", "Starting soon", "--uuid", "k1"],
    sends: ["POST /vc/v1/bots/message"],
    bad: ["--meeting-id", MEETING, "--msg-type", "reaction"],
    says: /--emoji-type is required/,
  },
  "minutes +search": {
    argv: ["--query", "roadmap", "--owner-ids", USERS.alice.open_id],
    sends: ["POST /minutes/v1/minutes/search"],
    bad: ["--owner-ids", "alice"],
    says: /not an open_id/,
  },
  "minutes +detail": {
    argv: ["--minute-tokens", MINUTE, "--summary", "--todo"],
    sends: [`GET /minutes/v1/minutes/${MINUTE}`, `GET /minutes/v1/minutes/${MINUTE}/artifacts`],
    bad: ["--minute-tokens", ","],
    says: /at least one ID/,
  },
  "minutes +upload": {
    argv: ["--file-token", "boxcnSandboxMedia0001"],
    asUser: true,
    sends: ["POST /minutes/v1/minutes/upload"],
    bad: ["--file-token", "../etc"],
    says: /is not an ID/,
  },
  "minutes +update": {
    argv: ["--minute-token", MINUTE, "--topic", "Q4 planning"],
    asUser: true,
    sends: [`PATCH /minutes/v1/minutes/${MINUTE}`],
    bad: ["--minute-token", MINUTE],
    says: /topic/,
  },
  "minutes +apply-permission": {
    argv: ["--minute-token", MINUTE, "--perm", "view"],
    sends: [`POST /minutes/v1/minutes/${MINUTE}/permissions/apply`],
    bad: ["--minute-token", MINUTE, "--perm", "own"],
    says: /must be one of: view, edit/,
  },
  "minutes +summary": {
    argv: ["--minute-token", MINUTE, "--summary", "## Decisions\n- ship"],
    asUser: true,
    sends: [`PUT /minutes/v1/minutes/${MINUTE}/summary`],
    bad: ["--minute-token", "x y", "--summary", "s"],
    says: /is not an ID/,
  },
  "minutes +todo": {
    argv: [
      "--minute-token",
      MINUTE,
      "--todos",
      '[{"content":"Send deck"},{"content":"Book room","is_done":true}]',
    ],
    asUser: true,
    sends: [`POST /minutes/v1/minutes/${MINUTE}/todo`],
    bad: ["--minute-token", MINUTE, "--operation", "delete"],
    says: /needs the todo's ID/,
  },
  "minutes +speaker-replace": {
    argv: ["--minute-token", MINUTE, "--from-speaker-id", "spk_2", "--to-user-id", USERS.bob.open_id],
    asUser: true,
    sends: [`PUT /minutes/v1/minutes/${MINUTE}/transcript/speaker`],
    bad: ["--minute-token", MINUTE, "--from-speaker-id", "spk_2", "--to-user-id", "bob"],
    says: /open_id/,
  },
  "minutes +word-replace": {
    argv: ["--minute-token", MINUTE, "--replace-words", '{"Lark kit":"larkit"}'],
    asUser: true,
    sends: [`PUT /minutes/v1/minutes/${MINUTE}/transcript/word`],
    bad: ["--minute-token", MINUTE, "--replace-words", "[]"],
    says: /at least one word/,
  },
};

/** The meetings (one with its minutes) these cases read. */
function seedMeetings(emu: Emulator): void {
  for (const id of [MEETING, "6911188411934433029"]) {
    fixtures.seedPath(emu.db, `/open-apis/vc/v1/meetings/${id}`, {
      id,
      meeting_id: id,
      topic: "Weekly sync",
    });
  }
  fixtures.seedPath(emu.db, `/open-apis/minutes/v1/minutes/${MINUTE}`, {
    token: MINUTE,
    minute_token: MINUTE,
    topic: "Roadmap review",
  });
}

shortcutCaseTests(CASES, {
  coverage: { title: "every vc and minutes shortcut has a case here", services: ["vc", "minutes"] },
  setup: seedMeetings,
});

Deno.test("user-only vc and minutes shortcuts refuse the bot without suggesting --as bot", async () => {
  await withSuite(async (emu, larkit) => {
    const r = await larkit(["minutes", "+update", "--minute-token", MINUTE, "--topic", "t", "--as", "bot"]);
    assert.equal(r.code, 2);
    assert.doesNotMatch(r.stderr, /--as bot/);
    const s = await larkit(["vc", "+search", "--query", "x", "--as", "bot"]);
    assert.equal(s.code, 2);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("vc +meeting-join, +meeting-message-send and +search send the bodies the suite takes", async () => {
  await withSuite(async (emu, larkit) => {
    const join = await larkit(["vc", "+meeting-join", "--meeting-number", "123456789", "--password", "0000"]);
    assert.equal(join.code, 0, join.stderr);
    const text = await larkit(["vc", "+meeting-message-send", "--meeting-id", MEETING, "--text", "Hi all"]);
    assert.equal(text.code, 0, text.stderr);
    const emoji = await larkit([
      "vc",
      "+meeting-message-send",
      "--meeting-id",
      MEETING,
      "--msg-type",
      "reaction",
      "--emoji-type",
      "THUMBSUP",
    ]);
    assert.equal(emoji.code, 0, emoji.stderr);
    const found = await larkit([
      "vc",
      "+search",
      "--query",
      "sync",
      "--start",
      "2026-11-01",
      "--end",
      "2026-11-02",
      "--participant-ids",
      USERS.bob.open_id,
      "--room-ids",
      "omm_1",
    ], { asUser: true });
    assert.equal(found.code, 0, found.stderr);
    const posts = suiteCalls(emu).filter((q) => q.method === "POST").map((q) => [q.path, q.body]);
    assert.deepEqual(posts, [
      ["/open-apis/vc/v1/bots/join", {
        join_type: 1,
        join_identify: { meeting_no: "123456789" },
        password: "0000",
      }],
      ["/open-apis/vc/v1/bots/message", { meeting_id: MEETING, msg_type: "text", content: "Hi all" }],
      ["/open-apis/vc/v1/bots/message", { meeting_id: MEETING, msg_type: "reaction", content: "THUMBSUP" }],
      ["/open-apis/vc/v1/meetings/search", {
        query: "sync",
        meeting_filter: {
          start_time: { start_time: "2026-11-01T00:00:00+00:00", end_time: "2026-11-02T23:59:59+00:00" },
          participant_ids: [USERS.bob.open_id],
          open_room_ids: ["omm_1"],
        },
      }],
    ]);
  });
});

Deno.test("the emulator refuses the old vc bodies, naming the fields", async () => {
  await withSuite(async (emu) => {
    const token = await tenantToken(emu);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${emu.url}/open-apis/vc/v1${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const json = await res.json();
      return [
        res.status,
        json.code,
        (json.error?.field_violations ?? []).map((v: { field: string }) => v.field),
      ];
    };
    const join = await post("/bots/join", { meeting_number: "123456789" });
    assert.deepEqual(join.slice(0, 2), [400, 99992402]);
    assert.ok((join[2] as string[]).includes("join_type"), String(join[2]));
    const msg = await post("/bots/message", { meeting_id: MEETING, msg_type: "text", text: "x" });
    assert.deepEqual(msg.slice(0, 2), [400, 99992402]);
    assert.ok((msg[2] as string[]).includes("content"), String(msg[2]));
    const uat = (await userToken(emu)).access_token;
    const res = await fetch(`${emu.url}/open-apis/vc/v1/meetings/search`, {
      method: "POST",
      headers: { authorization: `Bearer ${uat}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "sync", participant_ids: [USERS.bob.open_id] }),
    });
    const search = await res.json();
    assert.equal(res.status, 400);
    assert.deepEqual(search.error.field_violations.map((v: { field: string }) => v.field), [
      "participant_ids",
    ]);
  });
});
