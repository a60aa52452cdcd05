import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { ThreadStore } from "./store.ts";

Deno.test("a server's start finds the turns left in progress through their own index, not a scan of every turn", () => {
  const db = new DatabaseSync(":memory:");
  const store = new ThreadStore({ db });
  store.createThread({ id: "t1", preview: "", cwd: "/", createdAtMs: 1, updatedAtMs: 1 });
  const plan = db.prepare(
    "EXPLAIN QUERY PLAN UPDATE rpc_turns SET status = 'interrupted', completed_at_ms = ? WHERE status = 'inProgress'",
  ).all(0).map((r) => String((r as { detail: string }).detail));
  assert.ok(plan.some((d) => d.includes("USING INDEX rpc_turns_in_progress")), plan.join("; "));
  assert.equal(store.interruptOrphanedTurns(2), 0);
});
