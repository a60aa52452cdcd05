/**
 * A child process's peak memory as the kernel counts it (VmHWM in /proc/<pid>/status; Linux only), sampled
 * while it runs: the last value read before it ends is its peak.
 */

/** VmHWM of `pid` (or this process) in KiB; undefined once the process has gone. */
export function vmHwmKiB(pid: number | "self"): number | undefined {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(Deno.readTextFileSync(`/proc/${pid}/status`));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined; // the process has gone
  }
}

/** Reads `pid`'s VmHWM every `everyMs` until `stop()`, which answers the highest value read (KiB). */
export function samplePeak(pid: number, everyMs: number): { stop(): Promise<number> } {
  let peak = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, vmHwmKiB(pid) ?? 0);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await sampler;
      return peak;
    },
  };
}
