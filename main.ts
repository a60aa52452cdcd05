/**
 * The entry point: builds the real provider from this process (the only place that touches Deno.args,
 * Deno.env, stdio, the clock and fetch), runs the CLI, and exits with its code.
 */
import { denoFiles } from "./cli/files.ts";
import { lineReader } from "./cli/line_reader.ts";
import { secretReader } from "./cli/secret_line.ts";
import { denoProcesses } from "./cli/processes.ts";
import { emitError } from "./cli/output/emit.ts";
import { errors } from "./cli/output/errors.ts";
import { runCli } from "./cli/run.ts";
import {
  abortableSleep,
  type Reader,
  resolvePaths,
  VERSION,
  withIOFrom,
  type Writer,
} from "./cli/provider.ts";
import { lazy } from "./cli/lazy.ts";

/**
 * How many bytes a stream's first writes may take synchronously. A process's first async write to a pipe costs
 * 1.5-2 ms (measured: as much as the rest of a dry run's output, issue 17), a sync one a tenth of that; but a sync
 * write to a full pipe would stop the whole process, the agent server's other turns included. Every pipe holds
 * at least 4 KiB (Linux's PIPE_BUF, less than any mainstream system's pipe buffer) and a file never blocks, so
 * the first 4 KiB into a pipe of larkit's own cannot block whatever the reader does. After that, every write is
 * async.
 */
const SYNC_BUDGET = 4096;

/**
 * A closed stdout (`larkit ... | head -1`) ends the run quietly with SIGPIPE's status; a closed stderr has no
 * reader to tell anything, so what would go there is dropped.
 */
function writerOf(file: typeof Deno.stdout | typeof Deno.stderr): Writer {
  const isTTY = file.isTerminal();
  const isStdout = file === Deno.stdout;
  let syncLeft = SYNC_BUDGET;
  return {
    isTTY,
    columns: isTTY ? Deno.consoleSize().columns : undefined,
    async write(chunk) {
      const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
      try {
        if (bytes.length <= syncLeft) {
          syncLeft -= bytes.length;
          for (let at = 0; at < bytes.length;) at += file.writeSync(bytes.subarray(at));
          return;
        }
        // Once one write goes async, all do: a sync write must never overtake one still in flight.
        syncLeft = 0;
        for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
      } catch (e) {
        if (!(e instanceof Deno.errors.BrokenPipe)) throw e;
        if (isStdout) throw errors.brokenPipe();
      }
    },
  };
}

/** The stream's bytes, stopping once more than `maxBytes` arrived (the caller refuses the input then). */
async function readAtMost(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  while (size <= maxBytes) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  reader.releaseLock();
  const out = new Uint8Array(Math.min(size, maxBytes + 1));
  let at = 0;
  for (const c of chunks) {
    const part = c.subarray(0, out.length - at);
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function stdinReader(): Reader {
  let all: Promise<Uint8Array> | undefined;
  // Created on first readLine only: piping locks stdin, and readAll needs it unlocked.
  let lines: ReadableStreamDefaultReader<string> | undefined;
  const next = () => (lines ??= Deno.stdin.readable.pipeThrough(new TextDecoderStream()).getReader()).read();
  const readLine = lineReader(next);
  return {
    isTTY: Deno.stdin.isTerminal(),
    readAll: (maxBytes = Infinity) => all ??= readAtMost(Deno.stdin.readable, maxBytes),
    readLine,
    readSecret: Deno.stdin.isTerminal()
      ? secretReader(next, (raw) => Deno.stdin.setRaw(raw, { cbreak: raw }))
      : readLine,
    pickMany: Deno.stdin.isTerminal() && Deno.stderr.isTerminal()
      ? async (message, choices) => (await lazy("cli/terminal_picker.ts")).pickMany(message, choices)
      : undefined,
  };
}

/** How long a run may take to notice its abort before it is ended here (a blocking read, a busy loop). */
const INTERRUPT_GRACE_MS = 1500;
const interrupt = new AbortController();
let finished = false;

/**
 * SIGINT/SIGTERM abort the run with an `interrupted` error (exit 130/143), which is what the run reports. A
 * second signal, or a run that has not stopped within the grace period, ends the process at once.
 */
function onSignal(signal: "SIGINT" | "SIGTERM"): void {
  const err = errors.interrupted(signal);
  if (interrupt.signal.aborted) Deno.exit(err.exitCode);
  interrupt.abort(err);
  setTimeout(async () => {
    if (finished) return;
    await emitError({ p: provider, state: {} }, err).catch(() => {});
    Deno.exit(err.exitCode);
  }, INTERRUPT_GRACE_MS);
}
Deno.addSignalListener("SIGINT", () => onSignal("SIGINT"));
Deno.addSignalListener("SIGTERM", () => onSignal("SIGTERM"));

const env = { get: (name: string) => Deno.env.get(name) };
const provider = withIOFrom({
  version: VERSION,
  env,
  clock: { now: () => Date.now(), sleep: abortableSleep },
  stdout: writerOf(Deno.stdout),
  stderr: writerOf(Deno.stderr),
  stdin: stdinReader(),
  fetch: (input, init) => fetch(input, init),
  random: { uuid: () => crypto.randomUUID(), bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) },
  files: denoFiles(),
  processes: denoProcesses(),
  paths: resolvePaths(env, Deno.env.get("HOME") ?? Deno.cwd()),
  system: {
    hostname: Deno.hostname(),
    os: Deno.build.os,
    arch: Deno.build.arch,
    // A compiled binary re-runs itself; under `deno run` the same entry point is re-run by deno, with the V8
    // flags of `deno task start`: a run under other flags would throw away the modules' code cache.
    selfCommand: Deno.build.standalone
      ? [Deno.execPath()]
      : [Deno.execPath(), "run", "-A", "--v8-flags=--no-lazy", new URL(import.meta.url).pathname],
  },
  cwd: Deno.cwd(),
  signal: interrupt.signal,
});

const code = await runCli(Deno.args, provider);
finished = true;
Deno.exit(code);
