/**
 * The entry point: builds the real provider from this process (the only place that touches Deno.args,
 * Deno.env, stdio, the clock and fetch), runs the CLI, and exits with its code.
 */
import { denoFiles } from "./cli/files.ts";
import { lineReader } from "./cli/line_reader.ts";
import { denoProcesses } from "./cli/processes.ts";
import { runCli } from "./cli/run.ts";
import {
  abortableSleep,
  type Reader,
  resolvePaths,
  VERSION,
  withIOFrom,
  type Writer,
} from "./cli/provider.ts";

function writerOf(file: typeof Deno.stdout | typeof Deno.stderr): Writer {
  const isTTY = file.isTerminal();
  return {
    isTTY,
    columns: isTTY ? Deno.consoleSize().columns : undefined,
    async write(chunk) {
      const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
      for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
    },
  };
}

function stdinReader(): Reader {
  let all: Promise<Uint8Array> | undefined;
  // Created on first readLine only: piping locks stdin, and readAll needs it unlocked.
  let lines: ReadableStreamDefaultReader<string> | undefined;
  return {
    isTTY: Deno.stdin.isTerminal(),
    readAll: () => all ??= new Response(Deno.stdin.readable).bytes(),
    readLine: lineReader(() =>
      (lines ??= Deno.stdin.readable.pipeThrough(new TextDecoderStream()).getReader()).read()
    ),
  };
}

const interrupt = new AbortController();
Deno.addSignalListener("SIGINT", () => interrupt.abort(new DOMException("interrupted", "AbortError")));

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
    // A compiled binary re-runs itself; under `deno run` the same entry point is re-run by deno.
    selfCommand: Deno.build.standalone
      ? [Deno.execPath()]
      : [Deno.execPath(), "run", "-A", new URL(import.meta.url).pathname],
  },
  cwd: Deno.cwd(),
  signal: interrupt.signal,
});

Deno.exit(await runCli(Deno.args, provider));
