/**
 * A write whose response is lost is never reported as a plain failure: larkit says the outcome is unknown,
 * names what it sent, and hints the one safe next step — re-run with the same key where the suite
 * de-duplicates, or the read command that shows whether it happened where it cannot.
 */
import assert from "node:assert/strict";
import { EXIT_CODES } from "../cli/output/errors.ts";
import { BOT_EVENTS_LIST, emulatorEnv, fixtures, withEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";
import { argvOfHint, messagesWith, sendTextArgv } from "./helpers/text_message.ts";

const { CHATS, CALENDARS } = fixtures;

Deno.test("a lost message send is outcome_unknown; re-running with the hinted key stores exactly one message", async () => {
  await withEmulator({}, async (emu) => {
    const text = `exactly once ${crypto.randomUUID()}`;
    const count = () => messagesWith(emu, text);
    // More drops than larkit's own retries: every attempt stores the message (or finds it by key), none answers.
    emu.faults.dropConnection({ path: "/open-apis/im/v1/messages", times: 10, after: "after-handling" });
    const args = sendTextArgv(CHATS.engineering, text);
    // larkit's retry back-off does not wait here: how long it waits is not what this test is about.
    const lost = await runCli(args, { env: emulatorEnv(emu), sleep: () => Promise.resolve() });
    assert.equal(lost.code, EXIT_CODES.outcome_unknown.exit, lost.stderr);
    assert.equal(lost.stdout, "");
    const err = lost.errorJson().error;
    assert.equal(err.type, "outcome_unknown");
    const detail = err.detail as { method: string; path: string; idempotency_key: string };
    assert.equal(detail.method, "POST");
    assert.equal(detail.path, "/open-apis/im/v1/messages");
    assert.ok(detail.idempotency_key.length > 0 && detail.idempotency_key.length <= 50);
    assert.match(err.hint ?? "", new RegExp(`--idempotency-key ${detail.idempotency_key}$`));
    assert.equal(count(), 1, "the suite stored it once although larkit sent it several times");

    emu.faults.clear();
    const rerun = await runCli(argvOfHint(err.hint ?? ""), { env: emulatorEnv(emu) });
    assert.equal(rerun.code, 0, rerun.stderr);
    const out = rerun.json<{ meta: { idempotency_key: string } }>();
    assert.equal(out.meta.idempotency_key, detail.idempotency_key);
    assert.equal(count(), 1, "re-running with the same key leaves exactly one message");
  });
});

Deno.test("a lost write without a de-duplication key hints the read command that shows whether it happened", async () => {
  await withEmulator({}, async (emu) => {
    const list = await runCli(BOT_EVENTS_LIST, { env: emulatorEnv(emu) });
    assert.equal(list.code, 0, list.stderr);
    const eventId = list.json<{ data: { items: { event_id: string }[] } }>().data.items[0].event_id;
    emu.faults.dropConnection({
      path: "/open-apis/calendar/v4/calendars",
      times: 1,
      after: "after-handling",
    });
    emu.clearRequests();
    const params = { calendar_id: CALENDARS.bot, event_id: eventId };
    const r = await runCli([
      "calendar",
      "events",
      "patch",
      "--params",
      JSON.stringify(params),
      "--data",
      '{"summary":"moved"}',
    ], {
      env: emulatorEnv(emu),
    });
    assert.equal(r.code, EXIT_CODES.outcome_unknown.exit, r.stderr);
    const err = r.errorJson().error;
    assert.equal(err.type, "outcome_unknown");
    assert.deepEqual(Object.keys(err.detail as object).sort(), ["method", "path"]);
    assert.equal(
      err.hint,
      `do not re-run blindly (no de-duplication key): check whether it happened first: larkit calendar events get --params '${
        JSON.stringify(params)
      }'`,
    );
    assert.equal(
      emu.requests().filter((q) => q.method === "PATCH").length,
      1,
      "a write without a key is not resent",
    );
  });
});

Deno.test("--idempotency-key is sent, shown in dry-run and in meta", async () => {
  await withEmulator({}, async (emu) => {
    const args = [
      ...sendTextArgv(CHATS.engineering, "k"),
      "--idempotency-key",
      "my-key-1",
    ];
    const dry = await runCli([...args, "--dry-run"], { env: emulatorEnv(emu) });
    assert.equal(dry.code, 0, dry.stderr);
    const d = dry.json<{ data: { api: { body: { uuid: string } }[]; idempotency_key: string } }>();
    assert.equal(d.data.idempotency_key, "my-key-1");
    assert.equal(d.data.api[0].body.uuid, "my-key-1");
    const first = await runCli(args, { env: emulatorEnv(emu) });
    const second = await runCli(args, { env: emulatorEnv(emu) });
    const ids = [first, second].map((r) => r.json<{ data: { message_id: string } }>().data.message_id);
    assert.equal(ids[0], ids[1], "the same key sends once");
    const tooLong = await runCli([...args.slice(0, -1), "x".repeat(51)], { env: emulatorEnv(emu) });
    assert.equal(tooLong.errorJson().error.type, "validation");
  });
});
