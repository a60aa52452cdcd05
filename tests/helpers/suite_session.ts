/**
 * A shortcut test's world: one suite emulator (clock fixed at 2026-11-23 08:00 UTC, fixtures seeded) and a
 * `larkit` function running larkit in-process against it, as the app's bot by default or, with `asUser`, as the seeded
 * user Alice through a real device-flow token. larkit reads the emulator's clock, and its waits (a task's
 * `--poll-interval`) move that clock instead of sleeping: both sides see the same time, and no test waits for real.
 */
import { type Emulator, emulatorEnv, manualClock, startEmulator, userToken } from "./emulator.ts";
import { fakeTime, runCli, type RunResult } from "./run_cli.ts";

export interface LarkitOptions {
  asUser?: boolean;
  cwd?: string;
  stdin?: string;
  env?: Record<string, string>;
}

export type Larkit = (args: string[], opts?: LarkitOptions) => Promise<RunResult>;

export async function withSuite(fn: (emu: Emulator, larkit: Larkit) => Promise<void>): Promise<void> {
  const clock = manualClock();
  const emu = await startEmulator({ clock, timeZone: "UTC" });
  try {
    const uat = (await userToken(emu)).access_token;
    emu.clearRequests();
    await fn(emu, (args, opts = {}) =>
      runCli(args, {
        ...fakeTime(clock),
        cwd: opts.cwd,
        stdin: opts.stdin,
        env: {
          ...emulatorEnv(emu),
          TZ: "UTC",
          // The bot by default is said, not left to auto (calendar shortcuts refuse to fall back to the bot).
          ...(opts.asUser ? { LARKIT_USER_ACCESS_TOKEN: uat } : { LARKIT_DEFAULT_AS: "bot" }),
          ...opts.env,
        },
      }));
  } finally {
    await emu.stop();
  }
}

/** Requests larkit sent to the suite, not counting how the bot token was minted. */
export function suiteCalls(emu: Emulator) {
  return emu.requests().filter((r) => !r.path.startsWith("/open-apis/auth/"));
}
