import assert from "node:assert/strict";
import { startEmulator } from "./server.ts";
import { tenantToken } from "../tests/helpers/emulator.ts";
import { call } from "./test_http.ts";
import { BIG_DEPARTMENT } from "./fixtures.ts";
import { decodePageToken, encodePageToken, pageOf } from "./paging.ts";

Deno.test("page tokens round-trip; page_size is clamped to the endpoint's max", () => {
  assert.equal(decodePageToken(encodePageToken(4200)), 4200);
  assert.deepEqual(pageOf(new URLSearchParams("page_size=500"), { size: 10, max: 50 }), {
    offset: 0,
    size: 50,
  });
});

Deno.test("find_by_department walks over 10,000 users by page_token/has_more to the end, no duplicates", async () => {
  const emu = await startEmulator();
  try {
    const token = await tenantToken(emu);
    const seen = new Set<string>();
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const q = new URLSearchParams({ department_id: BIG_DEPARTMENT.id, page_size: "100" });
      if (pageToken) q.set("page_token", pageToken);
      const r = await call(emu.url, "GET", `/open-apis/contact/v3/users/find_by_department?${q}`, { token });
      const items = r.body.data?.items as { open_id: string }[];
      assert.ok(items.length <= 50, "page_size is clamped to 50");
      for (const u of items) {
        assert.ok(!seen.has(u.open_id), `duplicate ${u.open_id}`);
        seen.add(u.open_id);
      }
      pageToken = r.body.data?.has_more ? String(r.body.data?.page_token) : undefined;
      pages++;
    } while (pageToken);
    assert.equal(seen.size, BIG_DEPARTMENT.size);
    assert.equal(pages, Math.ceil(BIG_DEPARTMENT.size / 50));
  } finally {
    await emu.stop();
  }
});

Deno.test("a garbage page_token is a 99992402 field validation error", async () => {
  const emu = await startEmulator();
  try {
    const token = await tenantToken(emu);
    const r = await call(emu.url, "GET", "/open-apis/im/v1/chats?page_token=%%%", { token });
    assert.equal(r.body.code, 99992402);
  } finally {
    await emu.stop();
  }
});
