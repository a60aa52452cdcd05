/**
 * Issue 15.10, the config parts: replay right after recording in the same config dir (the recording cached the
 * bot token it minted) replays; `config remove` is high-risk (refused without `--yes`, asked at a terminal).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { BufferWriter, withIOFrom } from "../cli/provider.ts";
import { runCli as runIn } from "../cli/run.ts";
import { emulatorEnv, startEmulator } from "./helpers/emulator.ts";
import { cliProvider, runCli } from "./helpers/run_cli.ts";

/** At a terminal: stdin and stderr are TTYs, the answer typed is `typed`. */
async function atTerminal(args: string[], configDir: string, typed: string) {
  const base = cliProvider({ configDir, stdin: typed, stdinIsTTY: true });
  const err = new BufferWriter({ isTTY: true });
  const code = await runIn(args, withIOFrom({ ...base, stderr: err }));
  return { code, stderr: err.text() };
}

Deno.test("replay does not depend on cached tokens: same config dir right after recording, or a fresh one", async () => {
  const emu = await startEmulator({});
  const work = await Deno.makeTempDir({ prefix: "larkit-rec-" });
  const configDir = join(work, "config");
  const dir = join(work, "rec");
  const args = ["calendar", "calendars", "list", "--as", "bot"];
  let recorded;
  try {
    // A token cached before recording: the recording still holds the mint, so it replays anywhere.
    assert.equal((await runCli(args, { env: emulatorEnv(emu), cwd: work, configDir })).code, 0);
    recorded = await runCli(["--record", dir, ...args], { env: emulatorEnv(emu), cwd: work, configDir });
    assert.equal(recorded.code, 0, recorded.stderr);
    assert.match(await Deno.readTextFile(join(dir, "session.jsonl")), /tenant_access_token\/internal/);
  } finally {
    await emu.stop();
  }
  const replayed = await runCli(["--replay", dir, ...args], { env: emulatorEnv(emu), cwd: work, configDir });
  assert.equal(replayed.code, 0, replayed.stderr);
  assert.equal(replayed.stdout, recorded.stdout);
  const elsewhere = await runCli(["--replay", dir, ...args], { env: emulatorEnv(emu), cwd: work });
  assert.equal(elsewhere.code, 0, elsewhere.stderr);
  assert.equal(elsewhere.stdout, recorded.stdout);
  await Deno.remove(work, { recursive: true });
});

Deno.test("config remove is high-risk: refused without --yes, asked at a terminal, done with --yes", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-remove-" });
  const init = await runCli(["config", "init", "--app-id", "cli_x", "--app-secret-stdin"], {
    configDir,
    stdin: "s\n",
  });
  assert.equal(init.code, 0, init.stderr);
  const exists = () => Deno.stat(join(configDir, "config.json")).then(() => true, () => false);

  const catalogue = await runCli(["commands"], { configDir });
  const entry = JSON.stringify(catalogue.json()).match(/\{"path":"config remove".*?"risk":"([a-z-]+)"/);
  assert.equal(entry?.[1], "high-risk-write", "the catalogue does not call it a read");

  const refused = await runCli(["config", "remove"], { configDir });
  assert.equal(refused.code, 10);
  assert.deepEqual([refused.errorJson().error.type, refused.errorJson().error.subtype], [
    "confirmation",
    "confirmation_required",
  ]);
  assert.ok(await exists());

  const declined = await atTerminal(["config", "remove"], configDir, "n\n");
  assert.equal(declined.code, 10);
  assert.match(declined.stderr, /"confirmation_required"/);
  assert.ok(await exists());

  const confirmed = await atTerminal(["config", "remove"], configDir, "y\n");
  assert.equal(confirmed.code, 0, confirmed.stderr);
  assert.match(confirmed.stderr, /Proceed\? \[y\/N\]/);
  assert.equal(await exists(), false);

  await runCli(["config", "init", "--app-id", "cli_x", "--app-secret-stdin"], { configDir, stdin: "s\n" });
  assert.equal((await runCli(["config", "remove", "--yes"], { configDir })).code, 0);
  assert.equal(await exists(), false);
  await Deno.remove(configDir, { recursive: true });
});

Deno.test("JSON wrapped in single quotes, as cmd.exe passes it, is accepted for --params and --data", async () => {
  const env = { LARKIT_APP_ID: "cli_x", LARKIT_APP_SECRET: "s" };
  const r = await runCli([
    "api",
    "POST",
    "/open-apis/im/v1/messages",
    "--params",
    `'{"receive_id_type":"chat_id"}'`,
    "--data",
    `'{"receive_id":"oc_1","msg_type":"text"}'`,
    "--as",
    "bot",
    "--dry-run",
  ], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /receive_id_type/);
  assert.match(r.stdout, /"receive_id": ?"oc_1"/);
  const broken = await runCli([
    "api",
    "GET",
    "/open-apis/x",
    "--params",
    `'{"a":`,
    "--as",
    "bot",
    "--dry-run",
  ], {
    env,
  });
  assert.equal(broken.errorJson().error.type, "validation");
});
