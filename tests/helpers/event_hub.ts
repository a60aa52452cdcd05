/**
 * An event hub in-process whose long connection is the emulator's: the hub tests and the event memory
 * benchmark run the same hub, differing only in its process id and idle time.
 */
import { abortableSleep, type Clock, VERSION } from "../../cli/provider.ts";
import { LongConnection } from "../../cli/event/connection.ts";
import { EventHub } from "../../cli/event/hub.ts";
import type { Emulator } from "../../sandbox/server.ts";
import { sandboxEnv } from "../../sandbox/larkit_env.ts";
import { inherited } from "./run_main.ts";

/** Real time: the hub, its consumers and the emulator all run on it. */
export const clock: Clock = {
  now: () => Date.now(),
  sleep: (ms: number, s?: AbortSignal) => abortableSleep(ms, s),
};

/**
 * The environment of larkit processes (consumers, hubs) against the emulator with their own config dir, plain
 * and without remote metadata; a hub with no consumer exits after `idleMs`.
 */
export function eventEnv(emu: Emulator, configDir: string, idleMs: number): Record<string, string> {
  return {
    ...inherited(),
    NO_COLOR: "1",
    LARKIT_CONFIG_DIR: configDir,
    LARKIT_REMOTE_META: "off",
    LARKIT_EVENT_HUB_IDLE_MS: String(idleMs),
    ...sandboxEnv(emu),
  };
}

/**
 * The emulator's long connection with rare pings and endless reconnects `seconds` apart: a test that drops the
 * socket sees it back at once, and no ping gets in its way.
 */
export function quickReconnects(emu: Emulator, seconds: number): void {
  emu.events.clientConfig = {
    PingInterval: 120,
    ReconnectCount: -1,
    ReconnectInterval: seconds,
    ReconnectNonce: seconds,
  };
}

/** A hub for the emulator's app on `socket`, silent, not yet running. */
export function emulatorHub(
  emu: Emulator,
  socket: string,
  opts: { pid: number; idleMs: number; launchedAt?: number; version?: string },
): EventHub {
  return new EventHub({
    ...(opts.launchedAt !== undefined ? { launchedAt: opts.launchedAt } : {}),
    // This larkit's own version unless a test plays an older one: a consumer would replace any other.
    version: opts.version ?? VERSION,
    appId: emu.app.appId,
    socketPath: socket,
    clock,
    pid: opts.pid,
    idleMs: opts.idleMs,
    log: () => {},
    connect: (handlers) =>
      new LongConnection({
        openOrigin: emu.url,
        appId: emu.app.appId,
        appSecret: emu.app.appSecret,
        fetch: (i, init) => fetch(i, init),
        clock,
        random: Math.random,
        ...handlers,
      }),
  });
}

/**
 * Process ids of the `larkit event hub` processes running for `configDir` (Linux: read from /proc, each
 * hub's environment names its config directory). Processes of other users or gone meanwhile are skipped.
 */
export async function hubProcesses(configDir: string): Promise<number[]> {
  const found: number[] = [];
  const marker = `LARKIT_CONFIG_DIR=${configDir}\0`;
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`);
      if (!cmdline.includes("\0event\0hub")) continue;
      if ((await Deno.readTextFile(`/proc/${entry.name}/environ`)).includes(marker)) {
        found.push(Number(entry.name));
      }
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

/** The hubs of `configDir` still running after waiting up to `boundMs` for them all to exit. */
export async function hubsLeft(configDir: string, boundMs: number): Promise<number[]> {
  const deadline = Date.now() + boundMs;
  let left = await hubProcesses(configDir);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    left = await hubProcesses(configDir);
  }
  return left;
}
