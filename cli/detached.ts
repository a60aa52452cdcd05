/**
 * Starting larkit's own background servers (the event hub, the remote-control daemon): the program runs
 * detached so it outlives the command that needed it, and the caller waits until it answers on its socket.
 */
import type { Clock } from "./provider.ts";

/** Polls `ready` every `pollMs` until it holds or `timeoutMs` passed; the answer at the deadline is the last word. */
export async function waitFor(
  clock: Clock,
  timeoutMs: number,
  pollMs: number,
  ready: () => Promise<boolean>,
): Promise<boolean> {
  const deadline = clock.now() + timeoutMs;
  while (clock.now() < deadline) {
    if (await ready()) return true;
    await clock.sleep(pollMs);
  }
  return await ready();
}

/** Live: something answers (`runningPid` is our child when it still runs). Otherwise our child's exit code, if it exited. */
export type DetachedStart = { live: true; runningPid?: number } | { live: false; exitCode?: number };

/**
 * Starts `argv` detached with no stdio and waits until `live()` holds or the child exits. Whoever answers
 * counts: another command may have started the same server at the same moment, and ours then exits. A
 * child still running but not answering in time is killed. `env` is added to the child's environment.
 */
export async function startDetached(
  argv: string[],
  clock: Clock,
  timeoutMs: number,
  pollMs: number,
  live: () => Promise<boolean>,
  env: Record<string, string> = {},
): Promise<DetachedStart> {
  const [program, ...args] = argv;
  const child = new Deno.Command(program, {
    args,
    env,
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  child.unref();
  let exited: number | undefined;
  child.status.then((s) => exited = s.code);
  await waitFor(clock, timeoutMs, pollMs, async () => exited !== undefined || await live());
  if (await live()) return { live: true, runningPid: exited === undefined ? child.pid : undefined };
  if (exited === undefined) child.kill("SIGKILL");
  return { live: false, exitCode: exited };
}
