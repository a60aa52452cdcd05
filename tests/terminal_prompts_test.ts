/**
 * Issue 23.4: the `[y/N]` confirmation says what will change (the dry-run plan), and the app secret typed at a
 * terminal is read through the no-echo reader, never the echoing line reader.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { BufferWriter, bytesReader, withIOFrom } from "../cli/provider.ts";
import { runCli as runIn } from "../cli/run.ts";
import { emulatorEnv, startEmulator } from "./helpers/emulator.ts";
import { cliProvider } from "./helpers/run_cli.ts";

Deno.test("the high-risk prompt lists the planned request before asking; 'n' refuses", async () => {
  const emu = await startEmulator({});
  const configDir = await Deno.makeTempDir({ prefix: "larkit-prompt-" });
  try {
    const base = cliProvider({ configDir, env: emulatorEnv(emu), stdin: "n\n", stdinIsTTY: true });
    const err = new BufferWriter({ isTTY: true });
    const args = ["calendar", "calendars", "delete", "--params", '{"calendar_id":"cal_x"}', "--as", "bot"];
    const code = await runIn(args, withIOFrom({ ...base, stderr: err }));
    const text = err.text();
    assert.notEqual(code, 0);
    assert.match(
      text,
      /is a high-risk write\. It will:\n {2}DELETE http\S+\/calendar\/v4\/calendars\/cal_x\n/,
    );
    assert.match(text, /Proceed\? \[y\/N\] /);
    assert.match(text, /not confirmed/);
  } finally {
    await emu.stop();
  }
});

Deno.test("config init at a terminal reads the secret with readSecret (no echo), never readLine", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-secret-" });
  const base = cliProvider({ configDir });
  const lines = bytesReader("", true);
  const asked: string[] = [];
  const stdin = {
    ...lines,
    isTTY: true,
    readLine: (max?: number) => {
      asked.push("readLine");
      return Promise.resolve(max === undefined ? "cli_typed" : "echoed-secret");
    },
    readSecret: () => {
      asked.push("readSecret");
      return Promise.resolve("hidden-secret");
    },
  };
  const err = new BufferWriter({ isTTY: true });
  const out = new BufferWriter();
  const code = await runIn(["config", "init"], withIOFrom({ ...base, stdin, stderr: err, stdout: out }));
  assert.equal(code, 0, err.text());
  assert.deepEqual(asked, ["readLine", "readSecret"]);
  assert.match(err.text(), /App ID: App secret \(not shown\): \n/);
  assert.ok(!err.text().includes("hidden-secret"));
  const saved = await Deno.readTextFile(join(configDir, "config.json"));
  assert.match(saved, /cli_typed/);
});
