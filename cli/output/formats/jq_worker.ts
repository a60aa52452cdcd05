/**
 * The jq engine in a Worker of its own (started by `jq.ts` only when `--jq` is given): a filter that never
 * ends (`repeat(1)`) blocks only this thread, so the run's abort (SIGINT/SIGTERM) can terminate it.
 */
import type { JqEngine } from "./jq_engine.ts";

// Imported, not a static import: a failure to load it is answered as a message (the run's envelope says it),
// where a failed static import would end the worker with a stack trace on stderr.
const loading: Promise<JqEngine> = import("./jq_engine.ts").then((m) => m.engine);

interface Job {
  json: string;
  filter: string;
  flags: string[];
}

const self = globalThis as unknown as {
  onmessage: (e: MessageEvent<Job>) => void;
  postMessage(m: unknown): void;
  process: { exitCode?: number };
};

self.onmessage = async ({ data }) => {
  let jq: JqEngine;
  try {
    jq = await loading;
  } catch (e) {
    self.postMessage({ loadError: e instanceof Error ? e.message : String(e) });
    return;
  }
  // Emscripten's exit() sets process.exitCode; that is this worker's, and reset for the next job.
  const before = self.process.exitCode;
  try {
    self.postMessage({ out: jq.raw(data.json, data.filter, data.flags) ?? "" });
  } catch (e) {
    const f = e as { exitCode?: number; stderr?: string; message?: string };
    self.postMessage({
      failure: { exitCode: f.exitCode, stderr: f.stderr, message: f.message ?? String(e) },
    });
  } finally {
    self.process.exitCode = before;
  }
};
