/**
 * Device-flow timing against the emulator, in process so time can be faked: larkit's clock and the
 * emulator's are one manual clock that larkit's `sleep` advances, so a four-minute expiry runs in
 * milliseconds and every wait larkit chose is recorded.
 */
import assert from "node:assert/strict";
import { type Emulator, manualClock, startEmulator } from "./helpers/emulator.ts";
import { errorOf, fakeTime, runCli, type RunOptions } from "./helpers/run_cli.ts";

const TOKEN_PATH = "/open-apis/authen/v2/oauth/token";

async function setup(onSleep: (n: number, emu: Emulator) => void = () => {}) {
  const clock = manualClock(Date.now());
  const emu = await startEmulator({ clock });
  const dir = await Deno.makeTempDir({ prefix: "larkit-device-" });
  const sleeps: number[] = [];
  const larkit = (args: string[], opts: RunOptions = {}) =>
    runCli(args, {
      configDir: dir,
      ...fakeTime(clock, { sleeps, onSleep: (n) => onSleep(n, emu) }),
      ...opts,
    });
  const init = await larkit(
    ["config", "init", "--app-id", emu.app.appId, "--app-secret-stdin", "--base-url", emu.url],
    { stdin: `${emu.app.appSecret}\n` },
  );
  assert.equal(init.code, 0, init.stderr);
  const started = await larkit(["auth", "login", "--scope", "calendar:calendar.event:read", "--no-wait"]);
  assert.equal(started.code, 0, started.stderr);
  const deviceCode = started.json<{ data: { device_code: string } }>().data.device_code;
  return {
    emu,
    sleeps,
    deviceCode,
    larkit,
    async stop() {
      await emu.stop();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("slow_down from the server adds 5 s to the polling interval", async () => {
  const t = await setup((n, emu) => {
    if (n === 3) emu.approveDevice(t.deviceCode);
  });
  try {
    // The server wants 10 s between polls, more than the 5 s it first announced.
    t.emu.db.prepare("UPDATE device_codes SET interval_s = 10").run();
    const r = await t.larkit(["auth", "login", "--device-code", t.deviceCode]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(t.sleeps, [5000, 5000, 10000]);
    const polls = t.emu.requests().filter((r) => r.path === TOKEN_PATH).map((r) => r.status);
    assert.deepEqual(polls, [400, 400, 200]);
    assert.equal(r.json<{ data: { user_open_id: string } }>().data.user_open_id, "ou_sandbox_user_0001");
  } finally {
    await t.stop();
  }
});

Deno.test("an unapproved code stops at its expiry with an auth error and the login command", async () => {
  const t = await setup();
  try {
    const r = await t.larkit(["auth", "login", "--device-code", t.deviceCode]);
    assert.equal(r.code, 3);
    const err = errorOf(r);
    assert.deepEqual([err.type, err.subtype], ["authentication", "auth"]);
    assert.match(err.message, /expired/);
    assert.equal(
      err.hint,
      'start again: larkit auth login --scope "calendar:calendar.event:read"',
    );
    assert.equal(t.sleeps.reduce((a, b) => a + b, 0), 240_000);
  } finally {
    await t.stop();
  }
});
