/**
 * Interrupts and closed pipes, through `main.ts` as a process where a process is the point: SIGINT exits 130
 * and SIGTERM 143 with an `interrupted` envelope (never `network`, which agents retry); a reader that closes
 * stdout early (`| head -1`) ends the run quietly with SIGPIPE's 141. The `[y/N]` prompt gives way to Ctrl-C
 * at once (in-process: a terminal is needed to reach the prompt).
 */
import assert from "node:assert/strict";
import { BufferWriter, type Reader, withIOFrom } from "../cli/provider.ts";
import { errors } from "../cli/output/errors.ts";
import { runCli as runIn } from "../cli/run.ts";
import { emulatorEnv, startEmulator } from "./helpers/emulator.ts";
import { cliProvider, runCli } from "./helpers/run_cli.ts";
import { spawnMain } from "./helpers/run_main.ts";

for (const [signal, exit, subtype] of [["SIGINT", 130, "sigint"], ["SIGTERM", 143, "sigterm"]] as const) {
  Deno.test(`${signal} during a request exits ${exit} with an interrupted envelope`, async () => {
    const emu = await startEmulator({});
    const configDir = await Deno.makeTempDir({ prefix: "larkit-sig-" });
    try {
      // The request hangs until the signal arrives; the test sees it arrive at the emulator first.
      emu.faults.delay({ ms: 30_000, path: "/open-apis/calendar" });
      const child = spawnMain(["calendar", "calendars", "list", "--as", "bot"], {
        ...emulatorEnv(emu),
        LARKIT_CONFIG_DIR: configDir,
      });
      while (!emu.requests().some((r) => r.path.startsWith("/open-apis/calendar"))) {
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill(signal);
      const out = await child.output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, exit, stderr);
      assert.equal(new TextDecoder().decode(out.stdout), "");
      const error = JSON.parse(stderr).error;
      assert.deepEqual([error.type, error.subtype, error.retryable], ["interrupted", subtype, false]);
      assert.deepEqual(error.detail, { signal });
    } finally {
      emu.faults.clear();
      await emu.stop();
    }
  });
}

Deno.test("a reader that closes stdout early ends the run quietly with 141", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-pipe-" });
  // About 2.5 MB of NDJSON: far more than a pipe buffers, so larkit is still writing when the reader leaves.
  const child = spawnMain(["commands", "--format", "ndjson"], { LARKIT_CONFIG_DIR: configDir });
  const reader = child.stdout.getReader();
  const first = await reader.read();
  assert.ok(first.value && first.value.length > 0);
  await reader.cancel();
  const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
  assert.equal(status.code, 141, stderr);
  assert.equal(stderr, "", "no envelope, no 'this is a bug'");
});

Deno.test("SIGINT ends a run whose reader has stopped reading: writes past the first few KiB never block", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-full-" });
  // 3 MB into a pipe nobody reads: the write waits for room. A sync write would wait with the whole process,
  // the signal handler included, so only an async one lets the interrupt through (main.ts, SYNC_BUDGET).
  const child = spawnMain(["commands", "--format", "ndjson"], { LARKIT_CONFIG_DIR: configDir });
  const reader = child.stdout.getReader();
  assert.ok((await reader.read()).value?.length);
  await new Promise((r) => setTimeout(r, 300));
  child.kill("SIGINT");
  // A process that cannot take the signal would never end: it is killed, and the status says so.
  const stuck = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
  clearTimeout(stuck);
  await reader.cancel();
  assert.equal(status.code, 130, stderr);
  assert.equal(JSON.parse(stderr).error.subtype, "sigint");
});

Deno.test("Ctrl-C at the [y/N] prompt cancels at once", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-prompt-" });
  const init = await runCli(["config", "init", "--app-id", "cli_x", "--app-secret-stdin"], {
    configDir,
    stdin: "s\n",
  });
  assert.equal(init.code, 0, init.stderr);
  const interrupt = new AbortController();
  // Nobody ever types an answer: only the interrupt can end the wait.
  const silent: Reader = {
    isTTY: true,
    readAll: () => new Promise(() => {}),
    readLine: () => new Promise(() => {}),
  };
  const err = new BufferWriter({
    isTTY: true,
    onWrite: (text) => {
      if (text.includes("[y/N]")) interrupt.abort(errors.interrupted("SIGINT"));
    },
  });
  const base = cliProvider({ configDir, signal: interrupt.signal });
  const code = await runIn(["config", "remove"], withIOFrom({ ...base, stdin: silent, stderr: err }));
  assert.equal(code, 130, err.text());
  const envelope = JSON.parse(err.text().slice(err.text().indexOf("{")));
  assert.deepEqual([envelope.error.type, envelope.error.subtype], ["interrupted", "sigint"]);
  assert.match(envelope.error.hint, /^nothing was sent/);
  assert.ok(await Deno.stat(`${configDir}/config.json`).then(() => true, () => false), "nothing removed");
});

for (const [signal, exit] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  Deno.test(`a --jq filter that never ends stops at ${signal} with exit ${exit} and the interrupted envelope`, async () => {
    const configDir = await Deno.makeTempDir({ prefix: "larkit-jq-" });
    const child = spawnMain(["calendar", "+agenda", "--as", "bot", "--dry-run", "--jq", "repeat(1)"], {
      LARKIT_CONFIG_DIR: configDir,
      LARKIT_APP_ID: "cli_jq",
      LARKIT_APP_SECRET: "s",
      LARKIT_BRAND: "custom",
      LARKIT_BASE_URL: "http://127.0.0.1:9",
    });
    // The dry-run banner comes just before the filter starts.
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let stderr = "";
    while (!stderr.includes("Dry Run")) {
      const { done, value } = await reader.read();
      if (done) break;
      stderr += value;
    }
    await new Promise((r) => setTimeout(r, 200));
    child.kill(signal);
    // A filter the signal cannot reach would run forever: it is killed, and the status says so.
    const stuck = setTimeout(() => child.kill("SIGKILL"), 10_000);
    for (let r = await reader.read(); !r.done; r = await reader.read()) stderr += r.value;
    const [status, stdout] = await Promise.all([child.status, new Response(child.stdout).text()]);
    clearTimeout(stuck);
    assert.equal(status.code, exit, stderr);
    assert.equal(stdout, "");
    const error = JSON.parse(stderr.slice(stderr.indexOf("{"))).error;
    assert.deepEqual([error.type, error.detail], ["interrupted", { signal }]);
  });
}
