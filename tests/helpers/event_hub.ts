/**
 * An event hub in-process whose long connection is the emulator's: the hub tests and the event memory
 * benchmark run the same hub, differing only in its process id and idle time.
 */
import { abortableSleep, type Clock } from "../../cli/provider.ts";
import { LongConnection } from "../../cli/event/connection.ts";
import { EventHub } from "../../cli/event/hub.ts";
import type { Emulator } from "../../sandbox/server.ts";

/** Real time: the hub, its consumers and the emulator all run on it. */
export const clock: Clock = {
  now: () => Date.now(),
  sleep: (ms: number, s?: AbortSignal) => abortableSleep(ms, s),
};

/** A hub for the emulator's app on `socket`, silent, not yet running. */
export function emulatorHub(emu: Emulator, socket: string, opts: { pid: number; idleMs: number }): EventHub {
  return new EventHub({
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
