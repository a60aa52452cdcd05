import assert from "node:assert/strict";
import { join } from "node:path";
import { LarkitError } from "../output/errors.ts";
import { testProvider } from "../provider.ts";
import { withFileLock } from "./file_lock.ts";

function fakeTime() {
  let now = 5_000_000;
  return {
    now: () => now,
    sleep: (ms: number) => {
      now += ms;
      return new Promise<void>((r) => setTimeout(r, 1));
    },
  };
}

Deno.test("holders run one at a time and the lock file is gone afterwards", async () => {
  const p = testProvider(fakeTime());
  const path = join(p.paths.configDir, "locks", "x.lock");
  const trace: string[] = [];
  const work = (name: string) =>
    withFileLock(p, path, async () => {
      trace.push(`${name} in`);
      await new Promise((r) => setTimeout(r, 20));
      trace.push(`${name} out`);
      return name;
    }, { retryMs: 5 });
  assert.deepEqual(await Promise.all([work("a"), work("b")]), ["a", "b"]);
  // Either may win the race for the file; what matters is that the two never overlap.
  const first = trace[0].split(" ")[0];
  const second = first === "a" ? "b" : "a";
  assert.deepEqual(trace, [`${first} in`, `${first} out`, `${second} in`, `${second} out`]);
  assert.equal(await p.files.stat(path), null);
});

Deno.test("a lock left by a dead holder is taken over once stale", async () => {
  const t = fakeTime();
  const p = testProvider(t);
  const path = join(p.paths.configDir, "locks", "x.lock");
  await p.files.createNew(path, JSON.stringify({ owner: "dead", at: t.now() }));
  assert.equal(
    await withFileLock(p, path, () => Promise.resolve("ran"), { staleMs: 1000, retryMs: 400 }),
    "ran",
  );
});

Deno.test("a live holder that keeps the lock too long is a timeout error", async () => {
  const t = fakeTime();
  const p = testProvider(t);
  const path = join(p.paths.configDir, "locks", "x.lock");
  await p.files.createNew(path, JSON.stringify({ owner: "busy", at: t.now() + 10_000_000 }));
  await assert.rejects(
    withFileLock(p, path, () => Promise.resolve(), { timeoutMs: 2000, retryMs: 500 }),
    (e) => e instanceof LarkitError && e.type === "timeout",
  );
  assert.ok(await p.files.stat(path), "another holder's lock is left alone");
});
