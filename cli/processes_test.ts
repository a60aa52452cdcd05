import assert from "node:assert/strict";
import { join } from "node:path";
import { denoProcesses } from "./processes.ts";

const processes = denoProcesses();

Deno.test("a program gets its request on stdin and its stdout, stderr tail and status come back", async () => {
  const outcome = await processes.run("/bin/sh", {
    args: ["-c", 'read line; echo "got $line"; echo oops >&2; exit 4'],
    stdin: "hello\n",
    timeoutMs: 10_000,
    maxStdoutBytes: 1024,
  });
  assert.deepEqual(outcome, { kind: "exited", code: 4, stdout: "got hello\n", stderr: "oops\n" });
});

Deno.test("a program that overstays is ended with everything it started", async () => {
  const dir = await Deno.makeTempDir();
  const marker = join(dir, "late");
  try {
    // The shell's background child would keep the pipes open if only the shell were killed.
    const outcome = await processes.run("/bin/sh", {
      args: ["-c", `(sleep 1; touch ${marker}) & sleep 30`],
      stdin: "",
      timeoutMs: 200,
      maxStdoutBytes: 1024,
    });
    assert.deepEqual(outcome, { kind: "timeout" });
    await new Promise((r) => setTimeout(r, 1300));
    assert.equal(await Deno.stat(marker).then(() => true, () => false), false, "the child's child was ended");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("too much output ends the program; a missing program is not-started; liveness by pid", async () => {
  const flood = await processes.run("/bin/sh", {
    args: ["-c", "while :; do echo xxxxxxxxxxxxxxxx; done"],
    stdin: "",
    timeoutMs: 10_000,
    maxStdoutBytes: 4096,
  });
  assert.deepEqual(flood, { kind: "too-large" });
  const missing = await processes.run("/nonexistent/program", {
    stdin: "",
    timeoutMs: 1000,
    maxStdoutBytes: 1,
  });
  assert.equal(missing.kind, "not-started");
  assert.equal(processes.alive(processes.pid), true);
  const done = new Deno.Command("/bin/true").spawn();
  await done.status;
  assert.equal(processes.alive(done.pid), false);
});
