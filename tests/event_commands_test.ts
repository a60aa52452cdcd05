/**
 * The event commands that need no hub, in-process: the catalogue, schemas, dry runs and flag checks; and a turn
 * (an approver is set) that finds no hub starts none.
 */
import assert from "node:assert/strict";
import { EXIT_CODES } from "../cli/output/errors.ts";
import { runCli } from "./helpers/run_cli.ts";

const APP = { LARKIT_APP_ID: "cli_events_test", LARKIT_APP_SECRET: "s3cret" };

Deno.test("event list names every key the issue asks for, with descriptions", async () => {
  const r = await runCli(["event", "list"]);
  assert.equal(r.code, 0, r.stderr);
  const doc = r.json<{ data: { key: string; description: string }[]; meta: { count: number } }>();
  const keys = doc.data.map((k) => k.key);
  for (
    const k of [
      "im.message.receive_v1",
      "im.message.reaction.created_v1",
      "im.message.reaction.deleted_v1",
      "im.chat.member.user.added_v1",
      "im.chat.member.user.deleted_v1",
      "im.chat.updated_v1",
      "calendar.calendar.event.changed_v4",
      "drive.file.edit_v1",
      "task.task.updated_v1",
      "contact.user.created_v3",
      "contact.user.updated_v3",
      "approval.instance.status_changed",
    ]
  ) assert.ok(keys.includes(k), k);
  assert.equal(doc.meta.count, keys.length);
  assert.ok(doc.data.every((k) => k.description.length > 10));
});

Deno.test("event schema shows the payload; an unknown key is a validation error", async () => {
  const r = await runCli(["event", "schema", "im.message.receive_v1"]);
  assert.equal(r.code, 0, r.stderr);
  const data = r.json<{ data: { event: { message: { fields: Record<string, unknown> } } } }>().data;
  assert.ok("chat_id" in data.event.message.fields);
  const bad = await runCli(["event", "schema", "im.nothing_v9"]);
  assert.equal(bad.code, 2);
  assert.equal(bad.errorJson().error.type, "validation");
});

Deno.test("event consume --dry-run shows the subscription and connects to nothing; flags are checked", async () => {
  const r = await runCli(
    ["event", "consume", "im.message.receive_v1", "--param", "message.chat_id=oc_1", "--dry-run"],
    { env: APP, fetch: () => Promise.reject(new Error("no request expected")) },
  );
  assert.equal(r.code, 0, r.stderr);
  const data = r.json<{ data: Record<string, unknown> }>().data;
  assert.deepEqual(data.keys, ["im.message.receive_v1"]);
  assert.deepEqual(data.params, { "message.chat_id": "oc_1" });
  assert.equal((data.hub as { running: boolean }).running, false);
  assert.equal((data.endpoint as { url: string }).url, "https://open.feishu.cn/callback/ws/endpoint");

  for (
    const [args, pattern] of [
      [["NotAKey"], /not an event key/],
      [["im.message.receive_v1", "--timeout", "soon"], /--timeout: expected a duration/],
      [["im.message.receive_v1", "--max-events", "0"], /--max-events: must be a positive whole number/],
      [["im.message.receive_v1", "--max-events", "2.5"], /--max-events/],
      [["im.message.receive_v1", "--param", "novalue"], /--param/],
      [["im.message.receive_v1", "--jq", ".["], /jq/],
      [["im.message.receive_v1", "--output-dir", "/etc"], /--output-dir/],
      [["--filter", "("], /--filter/],
    ] as const
  ) {
    const bad = await runCli(["event", "consume", ...args, "--dry-run"], { env: APP });
    assert.equal(bad.code, 2, `${args.join(" ")}: ${bad.stderr}`);
    assert.match(bad.errorJson().error.message, pattern);
  }
});

Deno.test("event +subscribe --dry-run names the consume command it runs", async () => {
  const r = await runCli([
    "event",
    "+subscribe",
    "--event-types",
    "im.message.receive_v1,task.task.updated_v1",
    "--dry-run",
  ], {
    env: APP,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /"runs": "larkit event consume im.message.receive_v1 task.task.updated_v1"/);
});

Deno.test("event +subscribe streams NDJSON: a format that renders one finished result is refused, not ignored", async () => {
  for (const format of ["table", "csv", "pretty"]) {
    for (const dry of [["--dry-run"], []]) {
      const r = await runCli(["event", "+subscribe", "--format", format, ...dry], { env: APP });
      assert.equal(r.code, 2, `${format} ${dry}: ${r.stderr}`);
      assert.equal(r.errorJson().error.type, "validation");
      assert.match(r.errorJson().error.message, new RegExp(`--format ${format} is not supported`));
      assert.equal(r.stdout, "");
    }
  }
  const ndjson = await runCli(["event", "+subscribe", "--format", "ndjson", "--dry-run"], { env: APP });
  assert.equal(ndjson.code, 0, ndjson.stderr);
});

Deno.test("in a turn with no hub running, consume refuses and starts nothing; status and stop say none runs", async () => {
  const r = await runCli(["event", "consume", "im.message.receive_v1"], {
    env: APP,
    approver: () => Promise.resolve("decline"),
  });
  assert.equal(r.errorJson().error.type, "config");
  assert.equal(r.code, EXIT_CODES.config.exit, r.stderr);
  assert.match(r.errorJson().error.message, /no event hub runs .* a turn does not start one/);
  const status = await runCli(["event", "status"], { env: APP });
  assert.equal(status.json<{ data: { running: boolean } }>().data.running, false);
  const stop = await runCli(["event", "stop"], { env: APP });
  assert.equal(stop.json<{ data: { stopped: boolean } }>().data.stopped, false);
});
