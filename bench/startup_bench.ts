/**
 * Start-up cost of larkit against a Deno hello-world, in the same run: `larkit calendar calendars list
 * --dry-run` and `larkit --help`. Prints medians and ratios. `deno run -A bench/startup_bench.ts [runs]`.
 */
import { fileURLToPath } from "node:url";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const runs = Number(Deno.args[0] ?? "7");
const hello = await Deno.makeTempFile({ suffix: ".ts" });
await Deno.writeTextFile(hello, 'console.log("hello");\n');

async function median(args: string[]): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const started = performance.now();
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", ...args],
      env: { NO_COLOR: "1", LARKIT_REMOTE_META: "off", LARKIT_CONFIG_DIR: await Deno.makeTempDir() },
      stdout: "null",
      stderr: "null",
    }).output();
    if (out.code !== 0) throw new Error(`exit ${out.code}: ${args.join(" ")}`);
    if (i > 0) times.push(performance.now() - started); // the first run warms the module cache
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const base = await median([hello]);
const dry = await median([MAIN, "calendar", "calendars", "list", "--dry-run"]);
const help = await median([MAIN, "--help"]);
console.log(`hello world                         ${base.toFixed(0)} ms`);
console.log(`calendar calendars list --dry-run   ${dry.toFixed(0)} ms  (${(dry / base).toFixed(2)}× hello)`);
console.log(
  `--help                              ${help.toFixed(0)} ms  (${(help / base).toFixed(2)}× hello)`,
);
