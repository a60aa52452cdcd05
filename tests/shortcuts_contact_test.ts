/**
 * `contact +search-user` end to end: the user-only search over the emulator's seeded people.
 */
import assert from "node:assert/strict";
import { fixtures } from "./helpers/emulator.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

interface Found {
  data: { name: string; open_id: string }[];
  meta: { count: number; has_more: boolean; page_token?: string };
}

Deno.test("contact +search-user finds people by name or email, one page at a time", async () => {
  await withSuite(async (_emu, larkit) => {
    const r = await larkit(["contact", "+search-user", "--query", "bob"], { asUser: true });
    assert.equal(r.code, 0, r.stderr);
    const found = r.json<Found>();
    assert.deepEqual(found.data.map((u) => [u.name, u.open_id]), [["Bob Li", fixtures.USERS.bob.open_id]]);
    assert.deepEqual(found.meta, { count: 1, has_more: false });

    const paged = await larkit(
      ["contact", "+search-user", "--query", "sandbox.example", "--page-size", "2"],
      {
        asUser: true,
      },
    );
    const first = paged.json<Found>();
    assert.deepEqual([first.meta.count, first.meta.has_more], [2, true]);
    const next = await larkit([
      "contact",
      "+search-user",
      "--query",
      "sandbox.example",
      "--page-size",
      "2",
      "--page-token",
      first.meta.page_token ?? "",
    ], { asUser: true });
    const names = [...first.data, ...next.json<Found>().data].map((u) => u.name);
    assert.deepEqual(names, ["Alice Chen", "Bob Li", "Carol Wang", "Dan Zhao"]);
    const table = await larkit(["contact", "+search-user", "--query", "carol", "--format", "csv"], {
      asUser: true,
    });
    assert.match(table.stdout, /Carol Wang/);
  });
});

Deno.test("contact +search-user --dry-run shows the search and sends nothing", async () => {
  await withSuite(async (emu, larkit) => {
    const r = await larkit(["contact", "+search-user", "--query", "bob", "--dry-run"], { asUser: true });
    assert.equal(r.code, 0, r.stderr);
    const api = r.json<{ data: { api: { method: string; url: string; params: unknown }[] } }>().data.api;
    assert.deepEqual(api, [{
      method: "GET",
      url: `${emu.url}/open-apis/search/v1/user`,
      params: { query: "bob", page_size: 20 },
    }]);
    assert.deepEqual(emu.requests(), []);
  });
});

Deno.test("contact +search-user bad input: no query, a page size out of range, a bot identity", async () => {
  await withSuite(async (emu, larkit) => {
    const none = await larkit(["contact", "+search-user"], { asUser: true });
    assert.equal(none.code, 2);
    assert.equal(none.errorJson().error.message, "--query is required");
    const size = await larkit(["contact", "+search-user", "--query", "x", "--page-size", "500"], {
      asUser: true,
    });
    assert.match(size.errorJson().error.message, /invalid value "500" for --page-size/);
    const bot = await larkit(["contact", "+search-user", "--query", "x", "--as", "bot"]);
    assert.equal(bot.code, 2);
    assert.deepEqual(suiteCalls(emu), []);
  });
});
