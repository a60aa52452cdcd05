import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { ThreadStore } from "./store.ts";

Deno.test("a server's start finds the turns left in progress through their own index, not a scan of every turn", () => {
  const db = new DatabaseSync(":memory:");
  const store = new ThreadStore({ db });
  store.createThread({ id: "t1", preview: "", cwd: "/", createdAtMs: 1, updatedAtMs: 1, owner: null });
  const plan = db.prepare(
    "EXPLAIN QUERY PLAN UPDATE rpc_turns SET status = 'interrupted', completed_at_ms = ? WHERE status = 'inProgress'",
  ).all(0).map((r) => String((r as { detail: string }).detail));
  assert.ok(plan.some((d) => d.includes("USING INDEX rpc_turns_in_progress")), plan.join("; "));
  assert.equal(store.interruptOrphanedTurns(2), 0);
});

Deno.test("threads and turns stored before owners existed gain the column and read as local", () => {
  const db = new DatabaseSync(":memory:");
  db.exec(`CREATE TABLE rpc_threads (id TEXT PRIMARY KEY, preview TEXT NOT NULL, cwd TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL, updated_at_ms INTEGER NOT NULL);
  CREATE TABLE rpc_turns (id TEXT PRIMARY KEY, thread_id TEXT NOT NULL REFERENCES rpc_threads(id),
    seq INTEGER NOT NULL, status TEXT NOT NULL, input TEXT NOT NULL, exit_code INTEGER, result_json TEXT,
    error_json TEXT, started_at_ms INTEGER NOT NULL, completed_at_ms INTEGER);
  INSERT INTO rpc_threads VALUES ('old', 'p', '/', 1, 1);
  INSERT INTO rpc_turns VALUES ('turn', 'old', 0, 'completed', 'x', 0, NULL, NULL, 1, 2);`);
  const store = new ThreadStore({ db });
  assert.equal(store.getThread("old")?.owner, null);
  assert.equal(store.turnsOf("old")[0].owner, null);
  store.createThread({
    id: "mine",
    preview: "",
    cwd: "/",
    createdAtMs: 2,
    updatedAtMs: 2,
    owner: "device:phone",
  });
  assert.deepEqual(store.listThreads(10).threads.map((t) => t.id), ["mine", "old"]);
  assert.deepEqual(store.listThreads(10, undefined, "device:phone").threads.map((t) => t.id), ["mine"]);
  // Another's thread as a cursor tells nothing: the owner's list starts over.
  assert.deepEqual(store.listThreads(10, "old", "device:phone").threads.map((t) => t.id), ["mine"]);
  // Opening it again does not add the column twice.
  new ThreadStore({ db });
});
