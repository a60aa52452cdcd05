/**
 * Issue 36: daemons started by an older larkit. The event hub and the remote-control daemon report the larkit
 * version they run; `status` says when it is not this one and how to restart, and a newer larkit that needs
 * the daemon (`event consume`, `remote-control start`) restarts it, so an upgrade never leaves old code serving.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hubPaths, probeHub } from "../cli/event/protocol.ts";
import { VERSION } from "../cli/provider.ts";
import { testProvider } from "../cli/test_provider.ts";
import { reachDaemon } from "../relay/daemon.ts";
import { probeSocket } from "../rpc/transports/unix.ts";
import { startEmulator } from "./helpers/emulator.ts";
import { emulatorHub, eventEnv } from "./helpers/event_hub.ts";
import { runCli } from "./helpers/run_cli.ts";
import { runMain } from "./helpers/run_main.ts";
import { serveDaemon } from "./fixtures/fake_daemon.ts";

Deno.test("an event hub of an older larkit: status says stale and how to restart; consume restarts it", async () => {
  const emu = await startEmulator({});
  const configDir = await Deno.makeTempDir({ prefix: "larkit-oldhub-" });
  const env = eventEnv(emu, configDir, 30_000);
  const p = testProvider({ env: { LARKIT_CONFIG_DIR: configDir } });
  const hub = hubPaths(p.paths, emu.app.appId);
  await Deno.mkdir(hub.dir, { recursive: true, mode: 0o700 });
  const old = emulatorHub(emu, hub.socket, { pid: 1, idleMs: 60_000, version: "0.0.1" });
  const oldRun = old.run();
  try {
    while (await probeHub(hub.socket) !== "live") await new Promise((r) => setTimeout(r, 5));
    const status = await runCli(["event", "status"], { configDir, env });
    assert.equal(status.code, 0, status.stderr);
    const data = status.json<{ data: { hub: { version: string }; stale: boolean; hint: string } }>().data;
    assert.deepEqual([data.hub.version, data.stale], ["0.0.1", true]);
    assert.match(data.hint, /next `larkit event consume` restarts it, or now: larkit event stop/);

    // consume connects (after replacing the hub) and, with no event, ends at --timeout as a timeout (exit 4).
    const consumed = await runMain(["event", "consume", "task.task.updated_v1", "--timeout", "500ms"], {
      configDir,
      stdin: "",
      env,
    });
    assert.equal(consumed.code, 4, consumed.stderr);
    assert.match(consumed.stderr, /the hub runs larkit 0\.0\.1; restarting it with /);
    assert.match(await oldRun, /stop/, "the old hub was asked to stop");
    const now = (await runCli(["event", "status"], { configDir, env })).json<
      { data: { hub: { version: string; pid: number }; stale?: boolean } }
    >().data;
    assert.equal(now.hub.version, VERSION);
    assert.notEqual(now.hub.pid, 1);
    assert.equal(now.stale, undefined);
  } finally {
    old.stop("test over");
    await oldRun;
    await runCli(["event", "stop"], { configDir, env });
    await emu.stop();
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("a remote-control daemon of an older larkit: reported stale without spawn, replaced with it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "larkit-olddaemon-" });
  const socket = join(dir, "rc.sock");
  const p = testProvider();
  const old = await serveDaemon(socket, "0.0.1", join(dir, "old"));
  try {
    const seen = await reachDaemon({ socketPath: socket, version: VERSION, clock: p.clock });
    assert.ok(seen);
    assert.deepEqual(seen.stale, { version: "0.0.1", restarted: false });
    seen.client.close();

    const script = new URL("./fixtures/fake_daemon.ts", import.meta.url).pathname;
    const spawn = [Deno.execPath(), "run", "-A", "--quiet", script, socket, VERSION, join(dir, "new")];
    const reached = await reachDaemon({ socketPath: socket, version: VERSION, clock: p.clock, spawn });
    assert.ok(reached);
    try {
      assert.deepEqual(reached.stale, { version: "0.0.1", restarted: true });
      assert.equal(reached.client.serverVersion, VERSION);
      assert.ok(reached.spawnedPid);
    } finally {
      await reached.client.call("daemon/shutdown").catch(() => {});
      reached.client.close();
    }
    await old.done;
  } finally {
    await old.close().catch(() => {});
    for (let i = 0; i < 200 && await probeSocket(socket) === "live"; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    await Deno.remove(dir, { recursive: true });
  }
});
