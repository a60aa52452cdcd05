/**
 * The jq engine in a Worker of its own (started by `jq.ts` only when `--jq` is given): a filter that never
 * ends (`repeat(1)`) blocks only this thread, so the run's abort (SIGINT/SIGTERM) can terminate it.
 */
import { engine } from "./jq_engine.ts";

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
  const jq = await engine;
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
