/**
 * Memory of `--page-all` over a large list: larkit streams items with `--format ndjson` and merges every page
 * with `--format json` (and one page alone, larkit's own floor), against the suite emulator seeded with 10,000+ messages. Prints each run's peak RSS
 * (VmHWM of the child, sampled from /proc every 10 ms while it runs; Linux only), the json/ndjson ratio, and an
 * idle Deno hello-world as the floor. `deno run -A bench/pagination_bench.ts [items]`. No asserts.
 */
import { fileURLToPath } from "node:url";
import { sandboxEnv } from "../sandbox/larkit_env.ts";
import { CHATS } from "../sandbox/fixtures.ts";
import { startEmulator } from "../sandbox/server.ts";
import { samplePeak } from "./peak_rss.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const items = Number(Deno.args[0] ?? "10000");
const SAMPLE_MS = 10;

interface Run {
  peakKib: number;
  stdoutBytes: number;
  lines: number;
  ms: number;
}

async function measure(args: string[], env: Record<string, string>): Promise<Run> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", ...args],
    env: { NO_COLOR: "1", LARKIT_REMOTE_META: "off", LARKIT_CONFIG_DIR: await Deno.makeTempDir(), ...env },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const sampler = samplePeak(child.pid, SAMPLE_MS);
  let stdoutBytes = 0;
  let lines = 0;
  for await (const chunk of child.stdout) {
    stdoutBytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  const status = await child.status;
  const peak = await sampler.stop();
  if (status.code !== 0) throw new Error(`exit ${status.code}: ${args.join(" ")}`);
  return { peakKib: peak, stdoutBytes, lines, ms: performance.now() - started };
}

const emu = await startEmulator({});
try {
  const insert = emu.db.prepare(
    "INSERT INTO messages (message_id, chat_id, msg_type, content, sender_id, sender_type, create_time) VALUES (?, ?, 'text', ?, 'cli_bot', 'app', ?)",
  );
  emu.db.exec("BEGIN");
  for (let i = 0; i < items; i++) {
    insert.run(
      `om_bench_${i}`,
      CHATS.random,
      JSON.stringify({ text: `message ${i}` }),
      1_600_000_000_000 + i,
    );
  }
  emu.db.exec("COMMIT");
  const list = [
    MAIN,
    "im",
    "messages",
    "list",
    "--params",
    JSON.stringify({ container_id_type: "chat", container_id: CHATS.random }),
    "--page-all",
    "--page-size",
    "50",
  ];
  // Idle for a moment so the sampler sees the runtime's own floor.
  const hello = await Deno.makeTempFile({ suffix: ".ts" });
  await Deno.writeTextFile(hello, 'await new Promise((r) => setTimeout(r, 300));\nconsole.log("hello");\n');

  const base = await measure([hello], {});
  const onePage = await measure([...list, "--page-limit", "1", "--format", "ndjson"], sandboxEnv(emu));
  const ndjson = await measure([...list, "--page-limit", "0", "--format", "ndjson"], sandboxEnv(emu));
  const json = await measure([...list, "--page-limit", "0", "--format", "json"], sandboxEnv(emu));
  const mib = (kib: number) => `${(kib / 1024).toFixed(1)} MiB`;
  const row = (name: string, r: Run) =>
    `${name.padEnd(16)} peak RSS ${mib(r.peakKib).padStart(10)}   ${
      (r.stdoutBytes / 1024).toFixed(0).padStart(6)
    } KiB out` +
    `   ${String(r.lines).padStart(6)} lines   ${r.ms.toFixed(0).padStart(6)} ms`;
  console.log(`--page-all over ${items} seeded messages (page size 50)`);
  console.log(row("hello world", base));
  console.log(row("one page", onePage));
  console.log(row("--format ndjson", ndjson));
  console.log(row("--format json", json));
  console.log(
    `json / ndjson peak RSS: ${(json.peakKib / ndjson.peakKib).toFixed(2)}×; above the hello-world floor: ` +
      `ndjson +${mib(ndjson.peakKib - base.peakKib)}, json +${mib(json.peakKib - base.peakKib)}; ` +
      `all pages above one page: ndjson +${mib(ndjson.peakKib - onePage.peakKib)}, ` +
      `json +${mib(json.peakKib - onePage.peakKib)}`,
  );
} finally {
  await emu.stop();
}
