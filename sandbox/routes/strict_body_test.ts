import assert from "node:assert/strict";
import { startEmulator } from "../server.ts";
import { manualClock, tenantToken } from "../../tests/helpers/emulator.ts";
import { call } from "../test_http.ts";

const OBJECTIVES = "/open-apis/okr/v2/cycles/7012345678901234567/objectives";
/** An unknown query parameter, an unknown top-level field and an unknown nested one. */
const PATH = `${OBJECTIVES}_weight?colour=red`;
const BODY = { objective_weights: [{ objective_id: "o1", weight: 1, note: "x" }], extra: true };

async function withEmulator(lenientFields: boolean, fn: (url: string, token: string) => Promise<void>) {
  const emu = await startEmulator({ clock: manualClock(), lenientFields });
  try {
    emu.db.prepare(
      "INSERT INTO generic_objects (collection, id, body, deleted, seq) VALUES (?, 'o1', '{\"id\":\"o1\"}', 0, 1)",
    ).run(OBJECTIVES);
    await fn(emu.url, await tenantToken(emu));
  } finally {
    await emu.stop();
  }
}

Deno.test("a hand-written strict route refuses unknown fields by default", async () => {
  await withEmulator(false, async (url, token) => {
    const r = await call(url, "PUT", `${OBJECTIVES}_weight`, { token, body: BODY });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 99992402);
    const named = (r.body.error as { field_violations: { field: string }[] }).field_violations.map((v) =>
      v.field
    );
    assert.ok(named.includes("extra"), JSON.stringify(named));
  });
});

Deno.test("with lenient fields a hand-written strict route ignores unknown fields as the suite does", async () => {
  await withEmulator(true, async (url, token) => {
    const r = await call(url, "PUT", PATH, { token, body: BODY });
    assert.equal(r.body.code, 0, r.body.msg);
    assert.deepEqual(r.body.data, { items: [{ id: "o1", weight: 1 }] });
    // What is known is still held to its type.
    const bad = await call(url, "PUT", PATH, {
      token,
      body: { objective_weights: [{ objective_id: "o1" }] },
    });
    assert.equal(bad.body.code, 99992402);
  });
});
