/**
 * Device-flow timing against the emulator, in process so time can be faked: larkit's clock and the
 * emulator's are one manual clock that larkit's `sleep` advances, so a four-minute expiry runs in
 * milliseconds and every wait larkit chose is recorded.
 */
import assert from "node:assert/strict";
import { runCli } from "../cli/run.ts";
import { testProvider } from "../cli/provider.ts";
import { type Emulator, manualClock, startEmulator } from "./helpers/emulator.ts";

const TOKEN_PATH = "/open-apis/authen/v2/oauth/token";

async function setup(onSleep: (n: number, emu: Emulator) => void = () => {}) {
  const clock = manualClock(Date.now());
  const emu = await startEmulator({ clock });
  const dir = await Deno.makeTempDir({ prefix: "larkit-device-" });
  const sleeps: number[] = [];
  const provider = (stdin = "") =>
    testProvider({
      env: { LARKIT_CONFIG_DIR: dir, NO_COLOR: "1" },
      stdin,
      fetch: (input, init) => fetch(input, init),
      now: clock.now,
      sleep: (ms) => {
        sleeps.push(ms);
        clock.advance(ms);
        onSleep(sleeps.length, emu);
        return Promise.resolve();
      },
    });
  const init = provider(`${emu.app.appSecret}\n`);
  const code = await runCli(
    ["config", "init", "--app-id", emu.app.appId, "--app-secret-stdin", "--base-url", emu.url],
    init,
  );
  assert.equal(code, 0, init.err.text());
  const started = provider();
  assert.equal(
    await runCli(["auth", "login", "--scope", "calendar:calendar.event:read", "--no-wait"], started),
    0,
  );
  const deviceCode = JSON.parse(started.out.text()).data.device_code as string;
  return {
    emu,
    sleeps,
    deviceCode,
    provider,
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
    const p = t.provider();
    const code = await runCli(["auth", "login", "--device-code", t.deviceCode], p);
    assert.equal(code, 0, p.err.text());
    assert.deepEqual(t.sleeps, [5000, 5000, 10000]);
    const polls = t.emu.requests().filter((r) => r.path === TOKEN_PATH).map((r) => r.status);
    assert.deepEqual(polls, [400, 400, 200]);
    assert.equal(JSON.parse(p.out.text()).data.user_open_id, "ou_sandbox_user_0001");
  } finally {
    await t.stop();
  }
});

Deno.test("an unapproved code stops at its expiry with an auth error and the login command", async () => {
  const t = await setup();
  try {
    const p = t.provider();
    const code = await runCli(["auth", "login", "--device-code", t.deviceCode], p);
    assert.equal(code, 3);
    const envelope = JSON.parse(p.err.text().slice(p.err.text().indexOf("{")));
    assert.equal(envelope.error.type, "auth");
    assert.match(envelope.error.message, /expired/);
    assert.equal(
      envelope.error.hint,
      'start again: larkit auth login --scope "calendar:calendar.event:read"',
    );
    assert.equal(t.sleeps.reduce((a, b) => a + b, 0), 240_000);
  } finally {
    await t.stop();
  }
});
