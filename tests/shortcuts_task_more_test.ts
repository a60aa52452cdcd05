/**
 * The task shortcuts beyond create/list/complete, end to end against the emulator (hand-written task routes
 * plus the generic handler for members, reminders, comments, tasklists and the searches): per shortcut its
 * main path, a dry run that sends nothing and fits the registry, and one bad input.
 */
import assert from "node:assert/strict";
import { fixtures } from "./helpers/emulator.ts";
import { type ShortcutCase, shortcutCaseTests } from "./helpers/shortcut_cases.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

const { USERS } = fixtures;
const TASK = "6f1b2c3d-0001-4e5f-8a9b-0c1d2e3f4a5b";
const LIST = "5f1a2b3c-0001-4e5f-8a9b-0c1d2e3f4a5b";

const CASES: Record<string, ShortcutCase> = {
  "task +update": {
    argv: ["--task-id", TASK, "--summary", "Review the PR today", "--due", "2026-11-24T10:00"],
    sends: [`PATCH /task/v2/tasks/${TASK}`],
    bad: ["--task-id", TASK],
    says: /nothing to update/,
  },
  "task +reopen": {
    argv: ["--task-id", TASK],
    sends: [`PATCH /task/v2/tasks/${TASK}`],
    bad: ["--task-id", ""],
    says: /must not be empty/,
  },
  "task +comment": {
    argv: ["--task-id", TASK, "--content", "Draft is ready"],
    sends: ["POST /task/v2/comments"],
    bad: ["--task-id", TASK, "--content", "x".repeat(3001)],
    says: /3000 characters/,
  },
  "task +assign": {
    argv: ["--task-id", TASK, "--add", USERS.bob.open_id, "--remove", USERS.alice.open_id],
    sends: [`POST /task/v2/tasks/${TASK}/add_members`, `POST /task/v2/tasks/${TASK}/remove_members`],
    bad: ["--task-id", TASK, "--add", "bob@example.com"],
    says: /not an open_id/,
  },
  "task +followers": {
    argv: ["--task-id", TASK, "--add", USERS.bob.open_id],
    sends: [`POST /task/v2/tasks/${TASK}/add_members`],
    bad: ["--task-id", TASK],
    says: /give --add or --remove/,
  },
  "task +reminder": {
    argv: ["--task-id", TASK, "--set", "30"],
    sends: [`GET /task/v2/tasks/${TASK}`, `POST /task/v2/tasks/${TASK}/add_reminders`],
    bad: ["--task-id", TASK, "--set", "30", "--remove"],
    says: /exactly one of --set and --remove/,
  },
  "task +set-ancestor": {
    argv: ["--task-id", TASK, "--ancestor-id", "0b1f7d2c-1a9e-4c3d-8e5f-6a7b8c9d0e1f"],
    sends: [`POST /task/v2/tasks/${TASK}/set_ancestor_task`],
    bad: ["--task-id", TASK, "--ancestor-id", TASK],
    says: /its own ancestor/,
  },
  "task +search": {
    argv: ["--query", "review", "--completed", "false", "--page-all"],
    asUser: true,
    sends: ["POST /task/v2/tasks/search"],
    bad: ["--query", "review", "--completed", "maybe"],
    says: /true or false/,
  },
  "task +get-related-tasks": {
    argv: ["--followed-by-me"],
    asUser: true,
    sends: ["GET /task/v2/task_v2/list_related_task"],
    bad: ["--followed-by-me", "--created-by-me"],
    says: /at most one/,
  },
  "task +tasklist-create": {
    argv: ["--name", "Q4 launch", "--member", USERS.bob.open_id],
    sends: ["POST /task/v2/tasklists"],
    bad: ["--name", "Q4", "--member", "bob"],
    says: /not an open_id/,
  },
  "task +tasklist-task-add": {
    argv: ["--tasklist-id", LIST, "--task-id", `${TASK},6f1b2c3d-0002-4e5f-8a9b-0c1d2e3f4a5b`],
    sends: [
      `POST /task/v2/tasks/${TASK}/add_tasklist`,
      "POST /task/v2/tasks/6f1b2c3d-0002-4e5f-8a9b-0c1d2e3f4a5b/add_tasklist",
    ],
    bad: ["--tasklist-id", LIST],
    says: /--task-id/,
  },
  "task +tasklist-members": {
    argv: ["--tasklist-id", LIST, "--add", USERS.bob.open_id, "--role", "viewer"],
    sends: [`POST /task/v2/tasklists/${LIST}/add_members`],
    bad: ["--tasklist-id", LIST, "--add", USERS.bob.open_id, "--role", "owner"],
    says: /must be one of: editor, viewer/,
  },
  "task +tasklist-search": {
    argv: ["--query", "launch"],
    asUser: true,
    sends: ["POST /task/v2/tasklists/search"],
    bad: ["--query", "launch", "--page-all", "--page-token", "x"],
    says: /drop --page-token/,
  },
};

shortcutCaseTests(CASES, {
  asUser: true,
  // The tasklist the cases add to.
  setup: (emu) =>
    fixtures.seedPath(emu.db, `/open-apis/task/v2/tasklists/${LIST}`, { guid: LIST, name: "Launch" }),
});

Deno.test("task +update then +reopen change the stored task; +get-my-tasks pages with --page-all", async () => {
  await withSuite(async (_emu, larkit) => {
    const u = await larkit(["task", "+update", "--task-id", TASK, "--summary", "Renamed"], { asUser: true });
    assert.equal(u.code, 0, u.stderr);
    assert.equal(u.json<{ data: { summary: string } }>().data.summary, "Renamed");
    const done = await larkit(["task", "+complete", "--task-id", TASK], { asUser: true });
    assert.equal(done.code, 0, done.stderr);
    const again = await larkit(["task", "+reopen", "--task-id", TASK], { asUser: true });
    assert.equal(again.json<{ data: { completed_at: string | null } }>().data.completed_at, null);
    const all = await larkit(["task", "+get-my-tasks", "--page-all", "--page-size", "1"], { asUser: true });
    assert.equal(all.code, 0, all.stderr);
    const doc = all.json<{ data: { summary: string }[]; meta: { count: number; has_more: boolean } }>();
    assert.deepEqual(doc.data.map((t) => t.summary), ["Renamed", "Book the offsite venue"]);
    assert.deepEqual(doc.meta, { count: 2, has_more: false });
  });
});

Deno.test("user-only task searches refuse the bot without suggesting --as bot", async () => {
  await withSuite(async (emu, larkit) => {
    for (
      const argv of [["+search", "--query", "x"], ["+tasklist-search", "--query", "x"], [
        "+get-related-tasks",
      ]]
    ) {
      const r = await larkit(["task", ...argv, "--as", "bot"]);
      assert.equal(r.code, 2, r.stderr);
      assert.doesNotMatch(r.stderr, /--as bot/);
    }
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("task +get-related-tasks sends only the method's query and filters created/followed tasks itself", async () => {
  await withSuite(async (emu, larkit) => {
    const me = USERS.alice.open_id;
    const collection = "/open-apis/task/v2/task_v2/list_related_task";
    const tasks = [
      { guid: "t-mine", summary: "Mine", creator: { id: me, type: "user" }, members: [] },
      {
        guid: "t-followed",
        summary: "Followed",
        creator: { id: USERS.bob.open_id, type: "user" },
        members: [{ id: me, role: "follower", type: "user" }],
      },
      { guid: "t-other", summary: "Other", creator: { id: USERS.bob.open_id, type: "user" }, members: [] },
    ];
    tasks.forEach((t, i) =>
      emu.db.prepare(
        "INSERT INTO generic_objects (collection, id, body, deleted, seq) VALUES (?, ?, ?, 0, ?)",
      )
        .run(collection, t.guid, JSON.stringify(t), 1000 + i)
    );
    const created = await larkit(["task", "+get-related-tasks", "--created-by-me"], { asUser: true });
    assert.equal(created.code, 0, created.stderr);
    const followed = await larkit(["task", "+get-related-tasks", "--followed-by-me"], { asUser: true });
    assert.equal(followed.code, 0, followed.stderr);
    const guids = (r: typeof created) => r.json<{ data: { guid: string }[] }>().data.map((t) => t.guid);
    assert.deepEqual([guids(created), guids(followed)], [["t-mine"], ["t-followed"]]);
    for (const q of suiteCalls(emu).filter((c) => c.path === collection)) {
      assert.deepEqual(Object.keys(q.query).sort(), ["completed", "page_size", "user_id_type"]);
    }
  });
});
