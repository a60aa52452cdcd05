/**
 * `deno task test`: every test file, one worker more than this machine has cores (DENO_JOBS, when set,
 * decides instead). Many files spend part of their time waiting — on sockets to the emulator and the dev relay,
 * on child processes, on timers — so one extra worker keeps the cores busy: on the 2-core reference machine
 * 3 workers took the suite from ~60 s to ~48 s. Type-checking is `.ci/run`'s check step (`deno test
 * --no-run`), so this run does not pay for it again. Arguments are passed on (`deno task test tests/x_test.ts`).
 * The SDK conformance tests (tests/sdk/) run after the main suite under their own config and lock, which hold
 * the official SDK, a test-only dependency the main lock (what a user's first run fetches) must not carry.
 */
const cores = navigator.hardwareConcurrency || 1;
const jobs = Deno.env.get("DENO_JOBS") ?? String(cores + 1);
// Ctrl-C reaches the test run too (same process group): it prints the pending tests and exits, and this
// process waits to hand on its exit code instead of dying first.
Deno.addSignalListener("SIGINT", () => {});
const SDK_DIR = "tests/sdk/";
const files = Deno.args.filter((a) => !a.startsWith("-"));
const flags = Deno.args.filter((a) => a.startsWith("-"));
const isSdk = (f: string) =>
  f.replace(/^\.\//, "").startsWith(SDK_DIR) || f.replace(/^\.\//, "") === "tests/sdk";
const mainFiles = files.filter((f) => !isSdk(f));
const sdkFiles = files.filter(isSdk);

async function test(args: string[]): Promise<number> {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["test", "-A", "--frozen", "--parallel", "--no-check", ...flags, ...args],
    env: { DENO_JOBS: jobs },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return code;
}

let code = 0;
if (files.length === 0 || mainFiles.length) code = await test(mainFiles);
if (files.length === 0 || sdkFiles.length) {
  const sdk = await test(["--config", `${SDK_DIR}deno.json`, ...(sdkFiles.length ? sdkFiles : [SDK_DIR])]);
  code ||= sdk;
}
Deno.exit(code);
