/**
 * `--jq <expr>`: a jq filter applied to the result document (for shortcuts and API commands: the whole
 * envelope, so `.data` and `.ok` work). Output like `jq -r`: strings raw, everything else as 2-space JSON,
 * one value per line.
 *
 * The expression is compiled before any request is sent (`checkJq`, a `validation` error when it does not
 * compile); a failure while filtering the result is a `jq_error`.
 */
import { errors } from "../errors.ts";
import type { JqEngine } from "./jq_engine.ts";

// jq's own exit statuses: 3 = the program did not compile, 5 = it failed at run time.
const JQ_COMPILE_ERROR = 3;

let loaded: Promise<JqEngine> | undefined;

/** The engine in this thread: only where the worker's module is not beside this one (a `deno bundle`). */
function engine(): Promise<JqEngine> {
  // jq-web's emscripten shell computes its directory from CommonJS `__dirname` while it loads; a
  // `deno bundle` output is an ES module without one, so there the bundle's directory stands in. The wasm
  // itself is embedded (jq_engine.ts), so nothing has to sit in that directory.
  const g = globalThis as { __dirname?: string };
  g.__dirname ??= import.meta.dirname;
  return loaded ??= import("./jq_engine.ts").then((m) => m.engine).catch((e: unknown) => {
    loaded = undefined;
    // Emscripten aborts with a RuntimeError or a bare string; either way the run ends in an envelope.
    throw errors.internal(
      `the jq engine could not be loaded: ${e instanceof Error ? e.message : String(e)}`,
      {
        hint: "--jq needs jq.wasm embedded in larkit; reinstall larkit (deno task install) or drop --jq",
      },
    );
  });
}

interface JqFailure {
  exitCode?: number;
  stderr?: string;
  message?: string;
}

type Outcome = { out: string } | { failure: JqFailure };

/** jq's diagnostic lines without the echo of the program text it prints under a syntax error. */
function jqMessage(e: JqFailure): string {
  const text = e.stderr ?? e.message ?? String(e);
  const lines = text.split("\n").filter((l) => l.startsWith("jq: error"));
  return (lines.length ? lines.join("; ") : text).replace(/^jq: error(: )?/, "").trim();
}

async function runHere(json: string, filter: string, flags: string[]): Promise<Outcome> {
  const jq = await engine();
  // Emscripten's exit() sets process.exitCode; a failed filter must not decide how larkit exits. The global
  // `process` (the one emscripten sets) is used, not an import of `node:process`: that import alone costs
  // every run's start-up, --jq or not.
  const process = globalThis.process;
  const exitCodeBefore = process.exitCode;
  try {
    return { out: jq.raw(json, filter, flags) ?? "" };
  } catch (e) {
    return { failure: e as JqFailure };
  } finally {
    process.exitCode = exitCodeBefore;
  }
}

/** A worker whose last filter finished, kept for the next one (`event consume` filters every event). */
let idle: Worker | undefined;

/**
 * Whether `jq_worker.ts` sits beside this module. In a `deno bundle` output this code's URL is the bundle's
 * (one file, nothing beside it), and filters run in this thread, where an endless one cannot be stopped.
 */
const workerBeside = import.meta.url.endsWith("/formats/jq.ts");

/**
 * Runs jq in a Worker (`jq_worker.ts`): a filter that never ends blocks that thread only, and the run's abort
 * (SIGINT/SIGTERM, a host interrupting a turn) terminates it and rejects with the abort's reason.
 */
function run(json: string, filter: string, flags = ["-r"], signal?: AbortSignal): Promise<Outcome> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (!workerBeside) return runHere(json, filter, flags);
  const worker = idle ?? new Worker(new URL("./jq_worker.ts", import.meta.url), { type: "module" });
  idle = undefined;
  return new Promise<Outcome>((resolve, reject) => {
    const done = (keep: boolean) => {
      signal?.removeEventListener("abort", onAbort);
      worker.onmessage = worker.onerror = null;
      if (keep && !idle) idle = worker;
      else worker.terminate();
    };
    const onAbort = () => {
      done(false);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const failed = (why: string) => {
      done(false);
      reject(errors.internal(`the jq engine could not be loaded: ${why}`, {
        hint: "--jq needs jq.wasm embedded in larkit; reinstall larkit (deno task install) or drop --jq",
      }));
    };
    worker.onmessage = (e: MessageEvent<Outcome | { loadError: string }>) => {
      if ("loadError" in e.data) return failed(e.data.loadError);
      done(true);
      resolve(e.data);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      failed(e.message);
    };
    worker.postMessage({ json, filter, flags });
  });
}

/** Compiles the expression without running it; a `validation` error naming `--jq` when it does not compile. */
export async function checkJq(expr: string, signal?: AbortSignal): Promise<void> {
  // Wrapped in a definition that is referenced but never evaluated, the program is compiled and its names
  // bound without running it, so even an endless filter is checked at once. The newline keeps a trailing
  // `# comment` from swallowing the `;`.
  const wrapped = await run(
    "null",
    `def __larkit_check: ${expr}\n; if false then __larkit_check else empty end`,
    undefined,
    signal,
  );
  if (!("failure" in wrapped) || wrapped.failure.exitCode !== JQ_COMPILE_ERROR) return;
  // The bare program fails to compile too, so running it evaluates nothing; its message quotes the user's
  // own text instead of the wrapper.
  const bare = await run("null", expr, undefined, signal);
  const failure = "failure" in bare && bare.failure.exitCode === JQ_COMPILE_ERROR
    ? bare.failure
    : wrapped.failure;
  throw errors.validation(`invalid jq expression: ${jqMessage(failure)}`, {
    hint: "--jq takes a jq filter over the result envelope, e.g. --jq '.data[].summary'",
  });
}

/** Applies the filter to a document; returns the text to print (one value per line, newline-terminated). */
export async function applyJq(doc: unknown, expr: string, signal?: AbortSignal): Promise<string> {
  const result = await run(JSON.stringify(doc), expr, undefined, signal);
  if ("failure" in result) {
    if (result.failure.exitCode === JQ_COMPILE_ERROR) {
      throw errors.validation(`invalid jq expression: ${jqMessage(result.failure)}`);
    }
    throw errors.jq(`jq: ${jqMessage(result.failure)}`, {
      hint: "the filter ran over the result envelope; inspect it without --jq to adjust the filter",
    });
  }
  return result.out === "" ? "" : result.out + "\n";
}

/**
 * The filter's results as values, for `--jq` with `--format table|csv|ndjson` (filter first, then render):
 * one array result is the list of items itself, several results are the items.
 */
export async function applyJqItems(doc: unknown, expr: string, signal?: AbortSignal): Promise<unknown[]> {
  const result = await run(JSON.stringify(doc), expr, ["-c"], signal);
  if ("failure" in result) {
    if (result.failure.exitCode === JQ_COMPILE_ERROR) {
      throw errors.validation(`invalid jq expression: ${jqMessage(result.failure)}`);
    }
    throw errors.jq(`jq: ${jqMessage(result.failure)}`, {
      hint: "the filter ran over the result envelope; inspect it without --jq to adjust the filter",
    });
  }
  const values = result.out.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as unknown);
  return values.length === 1 && Array.isArray(values[0]) ? values[0] : values;
}
