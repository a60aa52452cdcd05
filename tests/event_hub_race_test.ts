/**
 * The hub start race, with real hub processes against the emulator. Two consumers starting at once each
 * launch a hub (`larkit event hub`, detached); one listens, the other must exit without ever listening —
 * also when it is slow to start (a loaded machine) and reaches the socket only after the winner was stopped,
 * or `event stop` would stop the winner only for the loser to listen in its place. Hubs run as processes
 * because a process left running is the bug.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { HUB_LAUNCHED_ENV, probeHub } from "../cli/event/protocol.ts";
import { type Emulator, startEmulator } from "./helpers/emulator.ts";
import { eventEnv, hubProcesses } from "./helpers/event_hub.ts";
import { runCli } from "./helpers/run_cli.ts";
import { MAIN, REPO } from "./helpers/run_main.ts";
import { until } from "./helpers/until.ts";

/** A hub given longer than this to start (a cold `deno run` type-checks) or to exit fails the test. */
const BOUND_MS = 60_000;

interface Hub {
  pid: number;
  /** The exit code and stdout; undefined when the hub still ran after BOUND_MS (it is then killed). */
  exited(): Promise<{ code: number; stdout: string; stderr: string } | undefined>;
}

async function withHubs(
  fn: (s: {
    emu: Emulator;
    configDir: string;
    socket: string;
    launch(launchedAt: number): Hub;
    larkit(args: string[]): ReturnType<typeof runCli>;
  }) => Promise<void>,
): Promise<void> {
  const emu = await startEmulator({ timeZone: "UTC" });
  const configDir = await Deno.makeTempDir({ prefix: "larkit-hubrace-" });
  // Idling out takes longer than BOUND_MS: a hub that exits within the bound did not merely idle out.
  const env = eventEnv(emu, configDir, BOUND_MS * 2);
  const children: Deno.ChildProcess[] = [];
  const launch = (launchedAt: number): Hub => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", MAIN, "event", "hub"],
      cwd: REPO,
      env: { ...env, [HUB_LAUNCHED_ENV]: String(launchedAt) },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    children.push(child);
    const output = child.output();
    return {
      pid: child.pid,
      exited: async () => {
        const timer = new AbortController();
        const late = new Promise<undefined>((resolve) => {
          const id = setTimeout(() => resolve(undefined), BOUND_MS);
          timer.signal.addEventListener("abort", () => clearTimeout(id));
        });
        const done = await Promise.race([output, late]);
        timer.abort();
        if (done === undefined) return undefined;
        const dec = new TextDecoder();
        return { code: done.code, stdout: dec.decode(done.stdout), stderr: dec.decode(done.stderr) };
      },
    };
  };
  try {
    await fn({
      emu,
      configDir,
      socket: join(configDir, "state", "events", `${emu.app.appId}.sock`),
      launch,
      larkit: (args) => runCli(args, { configDir, env }),
    });
  } finally {
    for (const child of children) {
      try {
        child.kill("SIGKILL");
      } catch {
        // Exited already.
      }
      await child.status;
    }
    await emu.stop();
    await Deno.remove(configDir, { recursive: true });
  }
}

async function untilLive(socket: string): Promise<void> {
  const deadline = Date.now() + BOUND_MS;
  while (await probeHub(socket) !== "live") {
    if (Date.now() > deadline) assert.fail(`no hub listened on ${socket} in ${BOUND_MS} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

Deno.test("event hub race: a loser that reaches the socket after the winner stopped exits, never listens", async () => {
  await withHubs(async ({ emu, socket, launch, larkit }) => {
    const launchedAt = Date.now();
    const winner = launch(launchedAt);
    await untilLive(socket);
    // The hub listens before its long connection is up; stopped sooner, it would never have connected.
    await until("the winner's long connection", () => emu.events.connections() === 1, BOUND_MS);
    const stop = await larkit(["event", "stop"]);
    assert.equal(stop.code, 0, stop.stderr);
    assert.equal(stop.json<{ data: { stopped: boolean } }>().data.stopped, true);
    assert.equal((await winner.exited())?.code, 0);

    // Launched at the same moment as the winner, it starts only now.
    const loser = launch(launchedAt);
    const out = await loser.exited();
    assert.ok(out, `the losing hub still ran after ${BOUND_MS} ms (it listened in the winner's place)`);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /another event hub/);
    assert.equal(await probeHub(socket), "absent");
    assert.equal(emu.events.connections(), 1);
    const again = await larkit(["event", "stop"]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.json<{ data: { stopped: boolean } }>().data.stopped, false);
  });
});

Deno.test("event hub race: two hubs launched at once — one listens, the other exits; stop ends it", async () => {
  await withHubs(async ({ emu, configDir, socket, launch, larkit }) => {
    const launchedAt = Date.now();
    const hubs = [launch(launchedAt), launch(launchedAt)];
    await untilLive(socket);
    const status = await larkit(["event", "status"]);
    assert.equal(status.code, 0, status.stderr);
    const pid = status.json<{ data: { hub: { pid: number } } }>().data.hub.pid;
    const loser = hubs.find((h) => h.pid !== pid);
    assert.ok(loser && hubs.some((h) => h.pid === pid), `the live hub ${pid} is not one of those launched`);
    const lost = await loser.exited();
    assert.ok(lost, `the losing hub still ran after ${BOUND_MS} ms`);
    assert.equal(lost.code, 0, lost.stderr);
    await until("the live hub's long connection", () => emu.events.connections() === 1, BOUND_MS);

    const stop = await larkit(["event", "stop"]);
    assert.equal(stop.code, 0, stop.stderr);
    assert.equal(stop.json<{ data: { stopped: boolean } }>().data.stopped, true);
    const won = await hubs.find((h) => h.pid === pid)!.exited();
    assert.ok(won, `the stopped hub still ran after ${BOUND_MS} ms`);
    assert.equal(won.code, 0, won.stderr);
    assert.equal(await probeHub(socket), "absent");
    if (Deno.build.os === "linux") assert.deepEqual(await hubProcesses(configDir), []);
    assert.equal(emu.events.connections(), 1);
  });
});
