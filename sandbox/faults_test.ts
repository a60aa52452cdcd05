import assert from "node:assert/strict";
import { startEmulator } from "./server.ts";
import { tenantToken } from "../tests/helpers/emulator.ts";
import { call } from "./test_http.ts";
import { CHATS } from "./fixtures.ts";

const CHATS_PATH = "/open-apis/im/v1/chats";

Deno.test("rateLimit: 429, code 99991400, Retry-After and x-ogw-ratelimit-* for `times` requests on `path`", async () => {
  const emu = await startEmulator();
  try {
    const token = await tenantToken(emu);
    emu.faults.rateLimit({ times: 2, retryAfterSeconds: 3, path: CHATS_PATH });
    for (let i = 0; i < 2; i++) {
      const r = await call(emu.url, "GET", CHATS_PATH, { token });
      assert.equal(r.status, 429);
      assert.equal(r.body.code, 99991400);
      assert.equal(r.headers.get("retry-after"), "3");
      assert.equal(r.headers.get("x-ogw-ratelimit-reset"), "3");
      assert.ok(r.headers.get("x-ogw-ratelimit-limit"));
    }
    assert.equal((await call(emu.url, "GET", CHATS_PATH, { token })).status, 200);
  } finally {
    await emu.stop();
  }
});

Deno.test("serverError: 500 JSON, 502/503 plain text, other paths untouched", async () => {
  const emu = await startEmulator();
  try {
    const token = await tenantToken(emu);
    emu.faults.serverError({ times: 1, status: 500, path: CHATS_PATH });
    emu.faults.serverError({ times: 1, status: 503, path: CHATS_PATH, retryAfterSeconds: 1 });
    assert.equal((await call(emu.url, "GET", "/open-apis/calendar/v4/calendars", { token })).status, 200);
    const first = await fetch(`${emu.url}${CHATS_PATH}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(first.status, 500);
    assert.equal((await first.json()).code, 1);
    const second = await fetch(`${emu.url}${CHATS_PATH}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(second.status, 503);
    assert.equal(second.headers.get("retry-after"), "1");
    assert.equal(await second.text(), "Service Unavailable");
    assert.equal((await call(emu.url, "GET", CHATS_PATH, { token })).status, 200);
  } finally {
    await emu.stop();
  }
});

Deno.test("delay slows matching requests by at least `ms`", async () => {
  const emu = await startEmulator();
  try {
    const token = await tenantToken(emu);
    emu.faults.delay({ ms: 150, path: CHATS_PATH, times: 1 });
    const t0 = performance.now();
    await call(emu.url, "GET", CHATS_PATH, { token });
    assert.ok(performance.now() - t0 >= 140);
    emu.faults.clear();
  } finally {
    await emu.stop();
  }
});

// Dropped before the handler runs nothing is stored; dropped after it, the write is stored all the same: the
// client sees the same network error either way.
for (
  const [after, name, stored] of [
    ["before-handling", "dropConnection before-handling: network error and nothing stored", 0],
    [
      "after-handling",
      "dropConnection after-handling: the write is stored, the client sees a network error",
      1,
    ],
  ] as const
) {
  Deno.test(name, async () => {
    const emu = await startEmulator();
    try {
      const token = await tenantToken(emu);
      const count = () => (emu.db.prepare("SELECT COUNT(*) AS n FROM messages").get() as { n: number }).n;
      const before = count();
      emu.faults.dropConnection({ times: 1, path: "/open-apis/im/v1/messages", after });
      await assert.rejects(() =>
        call(emu.url, "POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", {
          token,
          body: { receive_id: CHATS.engineering, msg_type: "text", content: JSON.stringify({ text: after }) },
        }), TypeError);
      assert.equal(count(), before + stored);
    } finally {
      await emu.stop();
    }
  });
}

Deno.test("clear() disarms every switch", async () => {
  const emu = await startEmulator();
  try {
    const token = await tenantToken(emu);
    emu.faults.rateLimit({ times: 5, retryAfterSeconds: 1 });
    emu.faults.clear();
    assert.equal((await call(emu.url, "GET", CHATS_PATH, { token })).status, 200);
  } finally {
    await emu.stop();
  }
});
