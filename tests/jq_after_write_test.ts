/**
 * A `--jq` that fails at run time after a write succeeded must not turn the done write into an error whose fix
 * is a re-run (which would send it twice): the unfiltered envelope is the result, with a `warning:` on stderr.
 * A read with a failing filter stays an error (re-running a read is harmless).
 */
import assert from "node:assert/strict";
import { emulatorEnv, fixtures, withEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";
import { messagesWith, sendTextArgv } from "./helpers/text_message.ts";

const { CHATS } = fixtures;
const FAILING = '.data | error("boom")';

Deno.test("--jq failing after a write: exit 0, the unfiltered envelope, a warning; the write happened once", async () => {
  await withEmulator({}, async (emu) => {
    const env = emulatorEnv(emu);
    const layers: Record<string, (text: string) => string[]> = {
      generated: (text) => sendTextArgv(CHATS.engineering, text),
      shortcut: (text) => ["im", "+messages-send", "--chat-id", CHATS.engineering, "--text", text],
    };
    for (const [layer, argv] of Object.entries(layers)) {
      const text = `jq ${crypto.randomUUID()}`;
      const r = await runCli([...argv(text), "--jq", FAILING], { env });
      assert.equal(r.code, 0, `${layer}: ${r.stderr}`);
      const doc = r.json<{ ok: boolean; data: { message_id: string } }>();
      assert.equal(doc.ok, true);
      assert.match(doc.data.message_id, /^om_/);
      assert.match(r.stderr, /^warning: the write succeeded, but --jq failed .*do not re-run/m, layer);
      assert.equal(messagesWith(emu, text), 1, layer);
    }
  });
});

Deno.test("--jq failing on a read is still a jq error with nothing on stdout", async () => {
  await withEmulator({}, async (emu) => {
    const r = await runCli(["im", "+messages-list", "--chat-id", CHATS.engineering, "--jq", FAILING], {
      env: emulatorEnv(emu),
    });
    assert.notEqual(r.code, 0);
    assert.equal(r.stdout, "");
    assert.deepEqual([r.errorJson().error.type, r.errorJson().error.subtype], ["validation", "jq_error"]);
  });
});
