/**
 * Bounded inputs: every flag value read whole (`@file`, stdin) has a documented limit checked before reading,
 * so a huge input is a `validation` error naming the limit — never a V8 abort or `internal` — and nothing is
 * sent. Files are sparse (their size is what is checked); stdin through a process shows larkit stops reading.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { INPUT_LIMITS } from "../cli/input_limits.ts";
import { emulatorEnv, startEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";
import { spawnMain } from "./helpers/run_main.ts";

const OVER = INPUT_LIMITS.value + 1;

function refused(
  r: { code: number; stdout: string; errorJson(): { error: Record<string, unknown> } },
  flag: string,
) {
  assert.equal(r.code, 2, JSON.stringify(r.errorJson()));
  assert.equal(r.stdout, "");
  const error = r.errorJson().error as { type: string; message: string; detail: { limit_bytes: number } };
  assert.equal(error.type, "validation");
  assert.match(error.message, new RegExp(`^--${flag}: .* is larger than the \\d+ (MiB|bytes) limit$`));
  assert.equal(typeof error.detail.limit_bytes, "number");
}

Deno.test("@file and stdin values over the limit are refused before reading, and nothing is sent", async () => {
  const emu = await startEmulator({});
  const dir = await Deno.makeTempDir({ prefix: "larkit-limits-" });
  try {
    for (const name of ["big.json", "big.md"]) {
      const f = await Deno.open(join(dir, name), { write: true, create: true });
      await f.truncate(OVER);
      f.close();
    }
    const env = emulatorEnv(emu);
    emu.clearRequests();
    refused(
      await runCli(["calendar", "calendars", "list", "--params", "@big.json"], { env, cwd: dir }),
      "params",
    );
    refused(
      await runCli(["docs", "+create", "--title", "t", "--markdown", "@big.md"], { env, cwd: dir }),
      "markdown",
    );
    const big = new Uint8Array(OVER).fill(0x20);
    refused(
      await runCli(["api", "POST", "/open-apis/im/v1/messages", "--data", "-"], {
        env,
        cwd: dir,
        stdin: big,
      }),
      "data",
    );
    refused(
      await runCli(["docs", "+create", "--title", "t", "--markdown", "-"], { env, cwd: dir, stdin: big }),
      "markdown",
    );
    const secret = "s".repeat(INPUT_LIMITS.secret + 1) + "\n";
    refused(
      await runCli(["config", "init", "--app-id", "cli_x", "--app-secret-stdin"], { stdin: secret }),
      "app-secret-stdin",
    );
    assert.deepEqual(emu.requests().filter((q) => !q.path.includes("token")), []);
  } finally {
    await emu.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a process stops reading stdin past the limit: a validation error, not an abort", async () => {
  const child = spawnMain(
    ["api", "POST", "/open-apis/im/v1/messages", "--data", "-", "--dry-run"],
    { LARKIT_APP_ID: "cli_x", LARKIT_APP_SECRET: "s" },
    { stdin: "piped" },
  );
  // Three times the limit, written until larkit stops reading (then the pipe closes under the writer).
  const writer = child.stdin.getWriter();
  const chunk = new Uint8Array(1 << 20).fill(0x20);
  void (async () => {
    try {
      for (let i = 0; i < 3 * INPUT_LIMITS.value / chunk.length; i++) await writer.write(chunk);
      await writer.close();
    } catch {
      // larkit stopped reading: exactly the point.
    }
  })();
  const out = await child.output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 2, stderr);
  assert.match(JSON.parse(stderr).error.message, /^--data: stdin is larger than the 20 MiB limit$/);
});
