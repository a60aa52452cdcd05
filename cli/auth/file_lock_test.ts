import assert from "node:assert/strict";
import { join } from "node:path";
import { LarkitError } from "../output/errors.ts";
import { testProvider } from "../test_provider.ts";
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
    (e) => e instanceof LarkitError && e.subtype === "timeout",
  );
  assert.ok(await p.files.stat(path), "another holder's lock is left alone");
});

Deno.test("a holder that died on this host is taken over at once; a live one or another host's is waited for", async () => {
  const t = fakeTime();
  const alive = new Set([4242]);
  const p = testProvider(t);
  const withPids = { ...p, processes: { ...p.processes, alive: (pid: number) => alive.has(pid) } };
  const path = join(p.paths.configDir, "locks", "x.lock");
  const holder = (pid: number, host: string) => JSON.stringify({ owner: "o", at: t.now(), pid, host });

  await p.files.createNew(path, holder(4343, p.system.hostname));
  const start = t.now();
  assert.equal(await withFileLock(withPids, path, () => Promise.resolve("dead"), { retryMs: 500 }), "dead");
  assert.equal(t.now(), start, "no waiting");

  for (const [pid, host] of [[4242, p.system.hostname], [4343, "other-host"]] as const) {
    await p.files.createNew(path, holder(pid, host));
    const from = t.now();
    assert.equal(
      await withFileLock(withPids, path, () => Promise.resolve("late"), { staleMs: 3000 }),
      "late",
    );
    assert.ok(t.now() - from > 3000, `${host}/${pid}: taken over only once stale`);
  }
});

Deno.test("an unparseable lock (empty, half-written, garbage) is taken over at once, not after the stale time", async () => {
  const t = fakeTime();
  const p = testProvider(t);
  const path = join(p.paths.configDir, "locks", "x.lock");
  for (const text of ["", '{"owner":"o","at":', "garbage"]) {
    await p.files.writeFileAtomic(path, text);
    const start = t.now();
    assert.equal(await withFileLock(p, path, () => Promise.resolve("ran"), { retryMs: 500 }), "ran");
    assert.equal(t.now(), start, `${JSON.stringify(text)}: no waiting`);
    assert.equal(await p.files.stat(path), null);
  }
});

Deno.test("createNew: the file appears whole and exclusively; no temporary file is left", async () => {
  const p = testProvider();
  const dir = join(p.paths.configDir, "locks");
  const path = join(dir, "x.lock");
  const won = await Promise.all([1, 2, 3, 4].map((n) => p.files.createNew(path, `holder ${n}`)));
  assert.equal(won.filter(Boolean).length, 1);
  assert.equal(await p.files.readTextFile(path), `holder ${won.indexOf(true) + 1}`);
  assert.equal((await p.files.stat(path))?.links, 1);
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["x.lock"]);
});
