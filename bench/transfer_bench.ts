/**
 * Peak memory of larkit moving a large file: `drive +upload` (chunked, each block streamed from disk as
 * multipart) and `drive +download` (streamed to disk) of one file against the suite emulator, each as its own
 * `main.ts` process, against an idle run (the same upload with `--dry-run`: nothing sent). Prints each run's peak
 * RSS (the kernel's VmHWM, sampled until the process ends) and the growth over the idle run; the goal is ≤ 64 MiB
 * of growth for a 1 GiB file.
 *
 *   deno run -A --frozen bench/transfer_bench.ts [MiB]      # default 1024
 *
 * The emulator runs in this process with its state on disk (`dataDir`): it keeps uploaded parts and files as
 * files and streams a download from there. Its own peak is printed too (not larkit's memory, but this machine's).
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sandboxEnv } from "../sandbox/larkit_env.ts";
import { startEmulator } from "../sandbox/server.ts";
import { samplePeak, vmHwmKiB } from "./peak_rss.ts";

const MiB = 1024 * 1024;
const SIZE = Number(Deno.args[0] ?? 1024) * MiB;
const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

/** Runs main.ts with `args`; returns its exit code and the last peak RSS read before it ended (MiB). */
async function peakOf(args: string[], env: Record<string, string>, cwd: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, ...args],
    cwd,
    env: { NO_COLOR: "1", LARKIT_REMOTE_META: "off", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const sampler = samplePeak(child.pid, 20);
  const out = await child.output();
  const peak = await sampler.stop();
  if (out.code !== 0) {
    throw new Error(`${args.join(" ")}: exit ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return { peakMiB: peak / 1024, stdout: new TextDecoder().decode(out.stdout) };
}

const dir = await Deno.makeTempDir({ prefix: "larkit-transfer-bench-" });
const emu = await startEmulator({ dataDir: join(dir, "emulator") });
try {
  const env = { ...sandboxEnv(emu), LARKIT_CONFIG_DIR: join(dir, "config") };
  // A sparse file reads as zeros: the bytes still travel through every layer.
  const file = await Deno.open(join(dir, "big.bin"), { write: true, create: true });
  await file.truncate(SIZE);
  file.close();

  // The same command with nothing sent: what loading the CLI, the drive service and credentials costs.
  const idle = await peakOf(["drive", "+upload", "--file", "big.bin", "--as", "bot", "--dry-run"], env, dir);
  const t0 = performance.now();
  const up = await peakOf(["drive", "+upload", "--file", "big.bin", "--as", "bot"], env, dir);
  const upSeconds = (performance.now() - t0) / 1000;
  const token = JSON.parse(up.stdout).data.file_token as string;
  const t1 = performance.now();
  const down = await peakOf(
    ["drive", "+download", "--file-token", token, "--output", "copy.bin", "--as", "bot"],
    env,
    dir,
  );
  const downSeconds = (performance.now() - t1) / 1000;
  const copied = (await Deno.stat(join(dir, "copy.bin"))).size;
  if (copied !== SIZE) throw new Error(`downloaded ${copied} bytes, expected ${SIZE}`);

  const row = (name: string, peak: number, seconds?: number) =>
    console.log(
      `${name.padEnd(9)} peak RSS ${peak.toFixed(1).padStart(7)} MiB  growth over idle ${
        (peak - idle.peakMiB).toFixed(1).padStart(6)
      } MiB${seconds ? `  ${(SIZE / MiB / seconds).toFixed(0)} MiB/s` : ""}`,
    );
  console.log(`file ${SIZE / MiB} MiB; goal: growth ≤ 64 MiB`);
  row("idle", idle.peakMiB);
  row("upload", up.peakMiB, upSeconds);
  row("download", down.peakMiB, downSeconds);
  console.log(`emulator (this process) peak RSS ${((vmHwmKiB("self") ?? 0) / 1024).toFixed(1)} MiB`);
} finally {
  await emu.stop();
  await Deno.remove(dir, { recursive: true });
}
