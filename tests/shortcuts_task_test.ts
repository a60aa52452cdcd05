/**
 * Task shortcuts end to end against the emulator (clock 2026-11-23 08:00 UTC; Alice has two open tasks).
 */
import assert from "node:assert/strict";
import { fixtures } from "./helpers/emulator.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

interface Task {
  guid: string;
  summary: string;
  due?: { timestamp: string; is_all_day: boolean; datetime: string };
  completed_at: string | null;
  members: { id: string; role: string }[];
}

Deno.test("task +my-tasks lists my open tasks with readable due times; --format pretty summarises", async () => {
  await withSuite(async (_emu, larkit) => {
    const r = await larkit(["task", "+my-tasks"], { asUser: true });
    assert.equal(r.code, 0, r.stderr);
    const doc = r.json<{ identity: string; data: Task[]; meta: unknown }>();
    assert.equal(doc.identity, "user");
    assert.deepEqual(doc.data.map((t) => t.summary), ["Review the emulator PR", "Book the offsite venue"]);
    assert.equal(doc.data[0].due?.datetime, "2026-11-23T17:00:00+00:00");
    assert.equal(doc.data[0].completed_at, null);
    assert.deepEqual(doc.meta, { count: 2, has_more: false });
    const pretty = await larkit(["task", "+my-tasks", "--format", "pretty"], { asUser: true });
    assert.equal(
      pretty.stdout.split("\n")[2],
      "2026-11-23T17:00:00+00:00  6f1b2c3d-0001-4e5f-8a9b-0c1d2e3f4a5b  todo    Review the emulator PR",
    );
  });
});

Deno.test("task +create with a date due (all day) and an assignee; +complete marks it done", async () => {
  await withSuite(async (emu, larkit) => {
    const c = await larkit(
      [
        "task",
        "+create",
        "--summary",
        "Write release notes",
        "--due",
        "2026-11-25",
        "--idempotency-key",
        "k-1",
      ],
      { asUser: true },
    );
    assert.equal(c.code, 0, c.stderr);
    const created = c.json<{ data: Task; meta: { idempotency_key: string } }>();
    assert.deepEqual(created.data.due, {
      timestamp: String(Date.UTC(2026, 10, 25)),
      is_all_day: true,
      datetime: "2026-11-25T00:00:00+00:00",
    });
    assert.equal(created.meta.idempotency_key, "k-1");
    const sent = suiteCalls(emu).find((x) => x.method === "POST")?.body as Record<string, unknown>;
    assert.deepEqual(sent.due, { timestamp: String(Date.UTC(2026, 10, 25)), is_all_day: true });
    assert.equal(sent.client_token, "k-1");

    const bot = await larkit([
      "task",
      "+create",
      "--summary",
      "Rotate keys",
      "--assignee",
      fixtures.USERS.bob.open_id,
      "--as",
      "bot",
    ]);
    assert.equal(bot.code, 0, bot.stderr);
    assert.deepEqual(bot.json<{ data: Task }>().data.members, [
      { id: fixtures.USERS.bob.open_id, type: "user", role: "assignee" },
    ]);

    const done = await larkit(["task", "+complete", "--task-id", created.data.guid], { asUser: true });
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.json<{ data: Task }>().data.completed_at ?? "", /^\d{4}-\d{2}-\d{2}T/);
    const open = await larkit(["task", "+my-tasks", "--complete", "false"], { asUser: true });
    assert.ok(!open.json<{ data: Task[] }>().data.some((t) => t.guid === created.data.guid));
    const closed = await larkit(["task", "+my-tasks", "--complete", "true"], { asUser: true });
    assert.deepEqual(closed.json<{ data: Task[] }>().data.map((t) => t.guid), [created.data.guid]);
  });
});

Deno.test("task dry-runs show the requests with the client token and send nothing", async () => {
  await withSuite(async (emu, larkit) => {
    const c = await larkit(["task", "+create", "--summary", "X", "--dry-run"], { asUser: true });
    assert.equal(c.code, 0, c.stderr);
    const plan =
      c.json<{ data: { api: { body: { client_token: string } }[]; idempotency_key: string } }>().data;
    assert.equal(plan.api[0].body.client_token, plan.idempotency_key);
    const done = await larkit(["task", "+complete", "--task-id", "t-1", "--dry-run"], { asUser: true });
    const patch =
      done.json<{ data: { api: { method: string; url: string; body: { update_fields: string[] } }[] } }>()
        .data.api[0];
    assert.deepEqual([patch.method, patch.url, patch.body.update_fields], [
      "PATCH",
      `${emu.url}/open-apis/task/v2/tasks/t-1`,
      ["completed_at"],
    ]);
    const mine = await larkit(["task", "+my-tasks", "--complete", "true", "--dry-run"], { asUser: true });
    assert.equal(
      mine.json<{ data: { api: { params: { completed: string } }[] } }>().data.api[0].params.completed,
      "true",
    );
    assert.deepEqual(emu.requests(), []);
  });
});

Deno.test("task bad input: an unreadable due time, a bad assignee, my tasks as a bot, an unknown task", async () => {
  await withSuite(async (emu, larkit) => {
    const due = await larkit(["task", "+create", "--summary", "X", "--due", "next week"]);
    assert.equal(due.code, 2);
    assert.match(due.errorJson().error.message, /invalid time for --due/);
    const assignee = await larkit(["task", "+create", "--summary", "X", "--assignee", "bob"]);
    assert.match(assignee.errorJson().error.message, /--assignee must be an open_id/);
    const complete = await larkit(["task", "+my-tasks", "--complete", "maybe"], { asUser: true });
    assert.match(complete.errorJson().error.message, /invalid value "maybe" for --complete/);
    const asBot = await larkit(["task", "+my-tasks", "--as", "bot"]);
    assert.equal(asBot.code, 2, asBot.stderr);
    assert.deepEqual(suiteCalls(emu), []);
    const unknown = await larkit(["task", "+complete", "--task-id", "no-such-task"], { asUser: true });
    assert.deepEqual([unknown.errorJson().error.type, unknown.errorJson().error.subtype], [
      "api",
      "not_found",
    ]);
  });
});
