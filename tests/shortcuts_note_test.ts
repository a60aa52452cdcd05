/**
 * `note +detail` and `note +transcript` end to end against the emulator's generic handler for the
 * supplementary vc notes entries: main path, dry run, bad input, and the transcript being user-only.
 */
import assert from "node:assert/strict";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";
import { type Emulator, fixtures } from "./helpers/emulator.ts";

/** Meeting note 7301: its document and its transcript. */
function seedNote(emu: Emulator): void {
  const note = "/open-apis/vc/v1/notes/7301";
  fixtures.seedPath(emu.db, note, { note_id: "7301", doc_token: "doxcnNote7301" });
  fixtures.seedSingleton(emu.db, `${note}/unified_note_transcript`, {
    content: "Alice: we ship on Friday.",
    format: "plain_text",
  });
}

Deno.test("note +detail: a note's documents; dry run sends nothing; a malformed ID is refused", async () => {
  await withSuite(async (emu, larkit) => {
    seedNote(emu);
    const r = await larkit(["note", "+detail", "--note-id", "7301"]);
    assert.equal(r.code, 0, r.stderr);
    const note = r.json<{ data: { note_id: string; doc_token: string } }>().data;
    assert.equal(note.note_id, "7301");
    assert.equal(typeof note.doc_token, "string");
    emu.clearRequests();
    const dry = await larkit(["note", "+detail", "--note-id", "7301", "--dry-run"]);
    assert.equal(
      new URL(dry.json<{ data: { api: { url: string }[] } }>().data.api[0].url).pathname,
      "/open-apis/vc/v1/notes/7301",
    );
    assert.deepEqual(emu.requests(), []);
    const bad = await larkit(["note", "+detail", "--note-id", "../x"]);
    assert.equal(bad.code, 2);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("note +transcript: the text as data.content, or alone with --format pretty; user only", async () => {
  await withSuite(async (emu, larkit) => {
    seedNote(emu);
    const argv = [
      "note",
      "+transcript",
      "--note-id",
      "7301",
      "--transcript-format",
      "plain_text",
      "--locale",
      "en_us",
    ];
    const r = await larkit(argv, { asUser: true });
    assert.equal(r.code, 0, r.stderr);
    const t = r.json<{ data: { note_id: string; format: string; content: string } }>().data;
    assert.deepEqual([t.note_id, t.format, t.content], ["7301", "plain_text", "Alice: we ship on Friday."]);
    const sent = suiteCalls(emu).find((c) => c.path.endsWith("/unified_note_transcript"));
    assert.deepEqual(sent?.query, { format: "plain_text", locale: "en_us" });
    const pretty = await larkit([...argv, "--format", "pretty"], { asUser: true });
    assert.equal(pretty.stdout, `${t.content}\n`);

    emu.clearRequests();
    const dry = await larkit([...argv, "--dry-run"], { asUser: true });
    assert.equal(dry.json<{ data: { api: unknown[] } }>().data.api.length, 2);
    assert.deepEqual(emu.requests(), []);
    const locale = await larkit(["note", "+transcript", "--note-id", "7301", "--locale", "English"], {
      asUser: true,
    });
    assert.match(locale.errorJson().error.message, /--locale must look like en_us/);
    const bot = await larkit(["note", "+transcript", "--note-id", "7301", "--as", "bot"]);
    assert.equal(bot.code, 2);
    assert.doesNotMatch(bot.stderr, /--as bot/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});
