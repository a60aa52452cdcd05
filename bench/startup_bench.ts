/**
 * Start-up cost of the commands an agent calls, as ratios to a Deno hello-world measured in the same run
 * (issue 17). Every larkit run is paired with a hello-world run right before it, so load on the machine hits
 * both alike; the table shows each command's median time and the median and min–max of its paired ratios.
 * Then the same commands for real against the suite emulator (through a timing proxy, so the request time
 * is reported apart from larkit's own), the agent server's spawn → `initialize` answer, and trivial turns per
 * second over one connection (over 300 and 1,500 turns) and a suite command's turns per second. `deno run -A bench/startup_bench.ts [runs]` (default 10). Prints, never asserts.
 */
import { fileURLToPath } from "node:url";
import { sandboxEnv } from "../sandbox/larkit_env.ts";
import { lineSplitter } from "../rpc/framing.ts";
import { startEmulator } from "../sandbox/server.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
// Deno's arguments for a larkit run are `deno task start`'s (the installed command's too: the same flags), so
// the bench measures larkit as it is run, V8 flags included.
const LARKIT = larkitRun(
  JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url))).tasks.start,
);
const RUNS = Math.max(1, Number(Deno.args[0] ?? "10"));
// `deno run -A bench/startup_bench.ts 10 --version Tab` measures only the rows whose label has one of the words.
const ONLY = Deno.args.slice(1);
// Trivial turns over one connection: the rate over the first 300 and over all 1,500 (JIT warm-up shows as the gap).
const TURNS = [300, 1500];
// A suite command's turn (resolved and gated as a terminal's run): `--dry-run`, so no request is timed.
const SUITE_TURN = "calendar calendars list --as bot --dry-run";
const SUITE_TURNS = 300;

interface Case {
  label: string;
  args: string[];
  /** The ratio the issue sets for this command. */
  goal?: number;
  /** Or the time it sets (one Tab of shell completion: issue 23). */
  goalMs?: number;
  /** Exit code the command must end with (the error envelope's is not 0). */
  code?: number;
  /** Run it for real against the emulator too (drop `--dry-run`). */
  real?: boolean;
}

const CASES: Case[] = [
  { label: "--version", args: ["--version"], goal: 2 },
  {
    label: "calendar calendars list --dry-run",
    args: ["calendar", "calendars", "list", "--as", "bot", "--dry-run"],
    goal: 2,
    real: true,
  },
  {
    label: "api GET … --dry-run",
    args: ["api", "GET", "/open-apis/calendar/v4/calendars", "--as", "bot", "--dry-run"],
    goal: 2,
    real: true,
  },
  { label: "schema calendar.calendars.list", args: ["schema", "calendar.calendars.list"], goal: 2 },
  {
    label: "unknown flag (error envelope)",
    args: ["calendar", "calendars", "list", "--no-such-flag"],
    goal: 2,
    code: 2,
  },
  {
    label: "calendar +agenda --dry-run",
    args: ["calendar", "+agenda", "--as", "bot", "--dry-run"],
    goal: 2.5,
    real: true,
  },
  { label: "calendar --help", args: ["calendar", "--help"], goal: 2.5 },
  { label: "calendar +agenda --help", args: ["calendar", "+agenda", "--help"], goal: 2.5 },
  { label: "commands --format ndjson", args: ["commands", "--format", "ndjson"], goal: 4 },
  // One Tab: what the bash/zsh/fish scripts run (`larkit __complete <words>`).
  { label: "Tab: larkit calendar <TAB>", args: ["__complete", "calendar", ""], goalMs: 60 },
  {
    label: "Tab: … acls create --params <TAB>",
    args: ["__complete", "calendar", "acls", "create", "--params", ""],
    goalMs: 60,
  },
];

const hello = await Deno.makeTempFile({ suffix: ".ts" });
await Deno.writeTextFile(hello, 'console.log("hello");\n');
const configDir = await Deno.makeTempDir({ prefix: "larkit-bench-" });

const HELLO = ["run", "-A", "--quiet", hello];

function larkitRun(task: string): string[] {
  const words = task.split(/\s+/);
  if (words[0] !== "deno" || words[1] !== "run" || words.at(-1) !== "main.ts") {
    throw new Error(`deno.json's start task is not \`deno run … main.ts\`: ${task}`);
  }
  return [...words.slice(1, -1), MAIN];
}

/** One process: `args` are Deno's. */
async function timed(args: string[], env: Record<string, string>, code = 0): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    env: { NO_COLOR: "1", LARKIT_REMOTE_META: "off", LARKIT_CONFIG_DIR: configDir, ...env },
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  if (out.code !== code) {
    throw new Error(
      `exit ${out.code} (want ${code}): ${args.join(" ")}\n${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pad = (s: string, n: number) => s.padEnd(n);
const fmt = (x: number, digits = 2) => x.toFixed(digits);

interface Row {
  label: string;
  ms: number[];
  ratios: number[];
}

/** `RUNS` paired runs of each case (after one unmeasured warm-up each), hello-world first in every pair. */
async function paired(
  cases: { label: string; args: string[]; code?: number }[],
  env: Record<string, string>,
  before?: () => void,
  after?: (label: string) => void,
): Promise<Row[]> {
  for (const c of cases) await timed([...LARKIT, ...c.args], env, c.code);
  await timed(HELLO, {});
  const rows = cases.map((c) => ({ label: c.label, ms: [] as number[], ratios: [] as number[] }));
  for (let i = 0; i < RUNS; i++) {
    for (const [k, c] of cases.entries()) {
      const base = await timed(HELLO, {});
      before?.();
      const ms = await timed([...LARKIT, ...c.args], env, c.code);
      after?.(c.label);
      rows[k].ms.push(ms);
      rows[k].ratios.push(ms / base);
    }
  }
  return rows;
}

const emu = await startEmulator({});
// Every request larkit makes goes through this proxy, which sums the time each exchange took end to end.
let requestMs = 0;
let requestCount = 0;
const proxy = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
  const started = performance.now();
  const url = new URL(req.url);
  const upstream = await fetch(emu.url + url.pathname + url.search, {
    method: req.method,
    headers: req.headers,
    body: req.body,
    redirect: "manual",
  });
  const body = await upstream.arrayBuffer();
  requestMs += performance.now() - started;
  requestCount++;
  return new Response(body, { status: upstream.status, headers: upstream.headers });
});
const env = { ...sandboxEnv(emu), LARKIT_BASE_URL: `http://127.0.0.1:${proxy.addr.port}` };

try {
  const helloMs: number[] = [];
  for (let i = 0; i < RUNS; i++) helloMs.push(await timed(HELLO, {}));
  console.log(
    `startup bench: ${RUNS} paired runs per command; hello-world median ${fmt(median(helloMs), 0)} ms`,
  );
  console.log("");
  console.log(`${pad("command", 36)} ${pad("median", 8)} ${pad("ratio", 7)} ${pad("min–max", 13)} goal`);
  const cases = CASES.filter((c) => !ONLY.length || ONLY.some((w) => c.label.includes(w)));
  const rows = await paired(cases, env);
  for (const [k, r] of rows.entries()) {
    const ratio = median(r.ratios);
    const { goal, goalMs } = cases[k];
    const met = goal !== undefined ? ratio <= goal : median(r.ms) <= (goalMs as number);
    console.log(
      `${pad(r.label, 36)} ${pad(`${fmt(median(r.ms), 0)} ms`, 8)} ${pad(`${fmt(ratio)}×`, 7)} ${
        pad(`${fmt(Math.min(...r.ratios))}–${fmt(Math.max(...r.ratios))}×`, 13)
      } ≤ ${goal !== undefined ? `${goal}×` : `${goalMs} ms`} ${met ? "ok" : "MISSED"}`,
    );
  }

  console.log("");
  console.log("for real against the emulator (request time summed at a proxy in front of it):");
  console.log(`${pad("command", 36)} ${pad("median", 8)} ${pad("requests", 13)} ${pad("larkit", 8)} ratio`);
  const real = cases.filter((c) => c.real).map((c) => ({
    label: c.label.replace(" --dry-run", ""),
    args: c.args.filter((a) => a !== "--dry-run"),
  }));
  const spent = new Map<string, { ms: number[]; count: number[] }>();
  const reals = await paired(real, env, () => {
    requestMs = 0;
    requestCount = 0;
  }, (label) => {
    const s = spent.get(label) ?? { ms: [], count: [] };
    s.ms.push(requestMs);
    s.count.push(requestCount);
    spent.set(label, s);
  });
  for (const r of reals) {
    const s = spent.get(r.label) as { ms: number[]; count: number[] };
    const own = r.ms.map((ms, i) => ms - s.ms[i]);
    const ownRatio = median(r.ratios.map((ratio, i) => ratio * own[i] / r.ms[i]));
    console.log(
      `${pad(r.label, 36)} ${pad(`${fmt(median(r.ms), 0)} ms`, 8)} ${
        pad(`${fmt(median(s.ms), 0)} ms (${median(s.count)})`, 13)
      } ${pad(`${fmt(median(own), 0)} ms`, 8)} ${fmt(ownRatio)}× without requests`,
    );
  }

  console.log("");
  await agentServer(env);
} finally {
  await proxy.shutdown();
  await emu.stop();
  await Deno.remove(hello);
  await Deno.remove(configDir, { recursive: true });
}

/** `app-server` over stdio: spawn → `initialize` answer, then trivial turns back to back over that connection. */
async function agentServer(env: Record<string, string>): Promise<void> {
  const initMs: number[] = [];
  const turnsPerSecond: number[] = [];
  let suitePerSecond = 0;
  for (let i = 0; i < Math.min(RUNS, 5); i++) {
    const started = performance.now();
    const child = new Deno.Command(Deno.execPath(), {
      args: [...LARKIT, "app-server", "--listen", "stdio"],
      env: { NO_COLOR: "1", LARKIT_REMOTE_META: "off", LARKIT_CONFIG_DIR: configDir, ...env },
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const writer = child.stdin.getWriter();
    const reader = child.stdout.getReader();
    const split = lineSplitter();
    const pending: Record<string, unknown>[] = [];
    let next = 1;
    const send = (msg: object) => writer.write(new TextEncoder().encode(JSON.stringify(msg) + "\n"));
    const until = async (test: (m: Record<string, unknown>) => boolean) => {
      for (;;) {
        const at = pending.findIndex(test);
        if (at >= 0) return pending.splice(0, at + 1)[at];
        const { value, done } = await reader.read();
        if (done) throw new Error("app-server closed its stdout");
        for (const e of split.push(value)) if (e.kind === "line") pending.push(JSON.parse(e.text));
      }
    };
    const call = async (method: string, params?: unknown) => {
      const id = next++;
      await send({ jsonrpc: "2.0", id, method, params });
      const reply = await until((m) => m.id === id && m.method === undefined);
      if (!reply.result) throw new Error(`${method}: ${JSON.stringify(reply)}`);
      return reply.result as Record<string, { id: string }>;
    };
    await call("initialize", { clientInfo: { name: "bench", version: "1" } });
    initMs.push(performance.now() - started);
    await send({ jsonrpc: "2.0", method: "initialized" });
    if (i === 0) {
      const threadId = (await call("thread/start")).thread.id;
      const turn = async (text = "--version") => {
        const id = (await call("turn/start", { threadId, input: [{ type: "text", text }] })).turn.id;
        const done = await until((m) =>
          m.method === "turn/completed" && (m.params as { turn: { id: string } }).turn.id === id
        );
        const status = (done.params as { turn: { status: string } }).turn.status;
        if (status !== "completed") throw new Error(`turn ${text}: ${JSON.stringify(done.params)}`);
      };
      await turn(); // warm: the first turn builds what later turns reuse
      const started = performance.now();
      for (let t = 1; t <= TURNS[TURNS.length - 1]; t++) {
        await turn();
        if (TURNS.includes(t)) turnsPerSecond.push(t / ((performance.now() - started) / 1000));
      }
      await turn(SUITE_TURN);
      const suiteStarted = performance.now();
      for (let t = 0; t < SUITE_TURNS; t++) await turn(SUITE_TURN);
      suitePerSecond = SUITE_TURNS / ((performance.now() - suiteStarted) / 1000);
    }
    await writer.close();
    await reader.cancel();
    await child.status;
  }
  const rates = TURNS.map((n, k) => `${fmt(turnsPerSecond[k], 0)}/s over ${n}`).join(", ");
  console.log(
    `agent server: spawn → initialize answer ${fmt(median(initMs), 0)} ms (median of ${initMs.length})`,
  );
  console.log(`  trivial turns over one connection (\`--version\`): ${rates} (goal ≥ 500)`);
  console.log(`  suite turns (\`${SUITE_TURN}\` × ${SUITE_TURNS}): ${fmt(suitePerSecond, 0)}/s`);
}
