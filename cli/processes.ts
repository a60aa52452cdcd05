/**
 * Child processes as the provider hands them out: run a program to completion with bounded time and output
 * (credential extension providers), and ask whether a process id is alive (stale lock files). The real
 * implementation is Deno's; tests swap in their own through `testProvider`.
 */
import { concatBytes } from "./files.ts";

export interface RunProcessOptions {
  args?: string[];
  /** Written to the child's stdin, which is then closed. */
  stdin: string;
  timeoutMs: number;
  /** Stdout beyond this many bytes ends the child: a runaway program must not grow larkit's memory. */
  maxStdoutBytes: number;
  signal?: AbortSignal;
}

export type ProcessOutcome =
  | { kind: "exited"; code: number; stdout: string; stderr: string }
  | { kind: "timeout" }
  | { kind: "too-large" }
  | { kind: "not-started"; reason: string };

export interface Processes {
  /** This process's id, written into lock files so others can tell a dead holder from a busy one. */
  readonly pid: number;
  run(program: string, opts: RunProcessOptions): Promise<ProcessOutcome>;
  /** Whether a process with this id exists on this machine. */
  alive(pid: number): boolean;
}

/** Only the tail of stderr is kept: it names the failure, and its size is not the child's to decide. */
const STDERR_KEEP_BYTES = 4096;

async function readCapped(
  stream: ReadableStream<Uint8Array>,
  max: number,
): Promise<Uint8Array | "too-large"> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (total > max) return "too-large";
    chunks.push(chunk);
  }
  return concatBytes(chunks);
}

async function readTail(stream: ReadableStream<Uint8Array>): Promise<string> {
  let tail = new Uint8Array(0);
  for await (const chunk of stream) {
    const joined = new Uint8Array(tail.length + chunk.length);
    joined.set(tail);
    joined.set(chunk, tail.length);
    tail = joined.subarray(Math.max(0, joined.length - STDERR_KEEP_BYTES));
  }
  return new TextDecoder().decode(tail);
}

export function denoProcesses(): Processes {
  return {
    pid: Deno.pid,
    async run(program, opts) {
      let child: Deno.ChildProcess;
      try {
        child = new Deno.Command(program, {
          args: opts.args ?? [],
          stdin: "piped",
          stdout: "piped",
          stderr: "piped",
          // Its own process group, so a timeout ends the program and anything it started (a shell's children
          // would otherwise keep the pipes open and the wait going).
          detached: true,
        }).spawn();
      } catch (e) {
        return { kind: "not-started", reason: e instanceof Error ? e.message : String(e) };
      }
      const killGroup = () => {
        try {
          Deno.kill(-child.pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      };
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stopped = new Promise<"timeout" | "aborted">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), opts.timeoutMs);
        opts.signal?.addEventListener("abort", () => resolve("aborted"), { once: true });
      });
      const writeStdin = (async () => {
        const w = child.stdin.getWriter();
        try {
          await w.write(new TextEncoder().encode(opts.stdin));
          await w.close();
        } catch {
          // The child exited without reading its request; its exit status tells the rest.
        }
      })();
      const finished = (async () => {
        const [out, err, status] = await Promise.all([
          // Over the cap, the child is ended at once rather than waited for.
          readCapped(child.stdout, opts.maxStdoutBytes).then((r) => {
            if (r === "too-large") killGroup();
            return r;
          }),
          readTail(child.stderr),
          child.status,
          writeStdin,
        ]);
        return { out, err, status };
      })();
      const outcome = await Promise.race([finished, stopped]);
      clearTimeout(timer);
      if (outcome === "timeout" || outcome === "aborted") {
        killGroup();
        finished.catch(() => {});
        if (outcome === "aborted") throw opts.signal?.reason ?? new DOMException("aborted", "AbortError");
        return { kind: "timeout" };
      }
      if (outcome.out === "too-large") return { kind: "too-large" };
      return {
        kind: "exited",
        code: outcome.status.code,
        stdout: new TextDecoder().decode(outcome.out),
        stderr: outcome.err,
      };
    },
    alive(pid) {
      try {
        // Signal 0 checks existence without delivering anything. Deno.kill takes no signal 0; the global
        // `process` is set up when first touched, while importing `node:process` costs every run's start-up.
        globalThis.process.kill(pid, 0);
        return true;
      } catch (e) {
        // EPERM: it exists but belongs to another user.
        return (e as { code?: string }).code === "EPERM";
      }
    },
  };
}
