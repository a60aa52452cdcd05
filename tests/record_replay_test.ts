/**
 * `--record` then `--replay`: a session recorded against the emulator replays with the emulator stopped and
 * prints byte-identical stdout; the recording holds none of the secrets that crossed the wire.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { emulatorEnv, fixtures, startEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";

const SESSIONS: string[][] = [
  ["calendar", "+agenda", "--as", "bot", "--start", "2026-11-23", "--end", "2026-11-24"],
  [
    "im",
    "+messages-send",
    "--as",
    "bot",
    "--chat-id",
    fixtures.CHATS.engineering,
    "--text",
    "recorded hello",
  ],
  ["calendar", "calendars", "list", "--as", "bot"],
];

Deno.test("a recorded session replays offline with byte-identical stdout and no secret in the recording", async () => {
  for (const args of SESSIONS) {
    const emu = await startEmulator({});
    const work = await Deno.makeTempDir({ prefix: "larkit-rec-" });
    const dir = join(work, "rec");
    let recorded;
    let secrets: string[];
    try {
      recorded = await runCli(["--record", dir, ...args], { env: emulatorEnv(emu), cwd: work });
      assert.equal(recorded.code, 0, recorded.stderr);
      const tokens = (emu.db.prepare("SELECT token FROM tokens").all() as { token: string }[]).map((r) =>
        r.token
      );
      secrets = [emu.app.appSecret, ...tokens];
      assert.ok(tokens.length > 0, "the session used an access token");
    } finally {
      await emu.stop();
    }
    const recording = await Deno.readTextFile(join(dir, "session.jsonl"));
    for (const secret of secrets) {
      assert.ok(!recording.includes(secret), `secret in recording: ${secret.slice(0, 4)}…`);
    }

    // Same credentials shape, but the emulator is gone: any real request would fail with a network error.
    const replayed = await runCli(["--replay", dir, ...args], { env: emulatorEnv(emu), cwd: work });
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.equal(replayed.stdout, recorded.stdout, `byte-identical stdout for ${args.join(" ")}`);

    const other = await runCli([
      "--replay",
      dir,
      "calendar",
      "calendars",
      "list",
      "--as",
      "bot",
      "--page-size",
      "3",
    ], {
      env: emulatorEnv(emu),
      cwd: work,
    });
    if (args[1] !== "calendars") {
      assert.equal(other.errorJson().error.type, "replay_mismatch");
      assert.equal(other.code, 7);
    }
  }
});
