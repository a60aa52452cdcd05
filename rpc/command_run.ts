/**
 * Runs one larkit argv in-process the way a terminal would, but with the agent server's own sinks: output
 * is streamed to a callback as it is written (each write awaited, so a slow client slows the command rather
 * than the server buffering), the envelopes the command emits arrive as values (the provider's `documents`),
 * the abort signal is the turn's, the approver is the client's, the working
 * directory is the thread's workspace, and the gate sees the resolved command before it runs.
 * The runner itself comes from the CLI (`larkit app-server` hands it over): rpc/ knows nothing of the CLI.
 */
import { emitError } from "../cli/output/emit.ts";
import { type ErrorEnvelope, errorEnvelope, type SuccessEnvelope } from "../cli/output/envelope.ts";
import { type LarkitError, toLarkitError } from "../cli/output/errors.ts";
import type { CommandGate } from "../cli/command_meta.ts";
import {
  type Approver,
  bytesReader,
  type FetchFn,
  type Provider,
  untilAborted,
  withIOFrom,
  type Writer,
} from "../cli/provider.ts";

/** Runs one argv in-process against a provider; the gate refuses the resolved command before it runs. */
export type Runner = (argv: string[], p: Provider, opts: { gate: CommandGate }) => Promise<number>;
export type Stream = "stdout" | "stderr";

export interface CommandRun {
  argv: string[];
  signal: AbortSignal;
  approver: Approver;
  gate: CommandGate;
  /** The working directory `@file`, `--file` and `--output` resolve in (the thread's workspace). */
  cwd: string;
  /** The fetch the command's requests go through (the server's remote policy checks each one); else the provider's. */
  fetch?: FetchFn;
  onOutput(stream: Stream, delta: string): Promise<void>;
}

export interface CommandOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved as written, like a terminal shows them. */
  aggregated: string;
  interrupted: boolean;
  /**
   * The result the command emitted, as a value (the last one): its success envelope before `--format`/`--jq`
   * rendered it, or the JSON line a streaming command printed (an event).
   */
  result?: SuccessEnvelope | unknown;
  /** The error envelope the command emitted, if any. */
  error?: ErrorEnvelope;
}

export type RunStatus = "completed" | "failed" | "interrupted";

export function statusOf(outcome: Pick<CommandOutcome, "exitCode" | "interrupted">): RunStatus {
  if (outcome.interrupted) return "interrupted";
  return outcome.exitCode === 0 ? "completed" : "failed";
}

function streamingWriter(stream: Stream, sink: (stream: Stream, text: string) => Promise<void>): Writer {
  // One decoder per stream: a multi-byte character split across two writes must not become two replacement marks.
  const decoder = new TextDecoder();
  return {
    isTTY: false,
    write: (chunk) =>
      sink(stream, typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true })),
  };
}

/** A refusal decided before the command starts, reported exactly as the command would report it. */
export async function refusedOutcome(
  p: Provider,
  err: LarkitError,
  run: CommandRun,
): Promise<CommandOutcome> {
  const text: string[] = [];
  const sink = streamingWriter("stderr", async (s, t) => {
    text.push(t);
    await run.onOutput(s, t);
  });
  await emitError({ p: p.withIO({ stderr: sink }), state: {} }, err);
  const stderr = text.join("");
  return {
    exitCode: err.exitCode,
    stdout: "",
    stderr,
    aggregated: stderr,
    interrupted: false,
    error: errorEnvelope(err),
  };
}

/** How long an interrupted command may take to notice its abort signal before the turn ends without it. */
export const INTERRUPT_GRACE_MS = 2000;

/**
 * Settles only after an abort: with the command's own exit code if it stops within the grace period, else with
 * the cancellation's exit code, so one command that ignores its signal cannot keep a turn open forever.
 */
async function abandonAfterAbort(
  p: Provider,
  signal: AbortSignal,
  running: Promise<number>,
): Promise<number> {
  await untilAborted(signal);
  const stop = new AbortController();
  const grace = p.clock.sleep(INTERRUPT_GRACE_MS, stop.signal).then(
    () => "grace" as const,
    () => "grace" as const,
  );
  const first = await Promise.race([running, grace]);
  stop.abort();
  return first === "grace" ? toLarkitError(signal.reason).exitCode : first;
}

export async function runCommand(p: Provider, runner: Runner, run: CommandRun): Promise<CommandOutcome> {
  const out: string[] = [];
  const err: string[] = [];
  const all: string[] = [];
  let finished = false;
  // The envelopes as the command handed them to its output (the last of each kind), never its text parsed back.
  let result: SuccessEnvelope | unknown;
  let error: ErrorEnvelope | undefined;
  const sink = async (stream: Stream, text: string) => {
    if (finished || text.length === 0) return;
    (stream === "stdout" ? out : err).push(text);
    all.push(text);
    await run.onOutput(stream, text);
  };
  const { withIO: _, ...base } = p;
  const io = withIOFrom({ ...base, cwd: run.cwd, fetch: run.fetch ?? base.fetch }).withIO({
    stdout: streamingWriter("stdout", sink),
    stderr: streamingWriter("stderr", sink),
    // A turn has no terminal: a command that reads stdin gets an empty one, never the server's own.
    stdin: bytesReader(""),
    signal: run.signal,
    approver: run.approver,
    documents: {
      result: (envelope) => {
        if (!finished) result = envelope;
      },
      error: (envelope) => {
        if (!finished) error = envelope;
      },
    },
  });
  const running = (async () => {
    try {
      return await runner(run.argv, io, { gate: run.gate });
    } catch (e) {
      const larkitErr = toLarkitError(e);
      await emitError({ p: io, state: {} }, larkitErr);
      return larkitErr.exitCode;
    }
  })();
  const exitCode = await Promise.race([running, abandonAfterAbort(p, run.signal, running)]);
  finished = true;
  const stdout = out.join("");
  const stderr = err.join("");
  const outcome: CommandOutcome = {
    exitCode,
    stdout,
    stderr,
    aggregated: all.join(""),
    interrupted: run.signal.aborted,
  };
  if (result !== undefined) outcome.result = result;
  if (error !== undefined) outcome.error = error;
  return outcome;
}
