/**
 * `contact +search-user` end to end: the user-only search over the emulator's seeded people.
 */
import assert from "node:assert/strict";
import { fixtures, userToken } from "./helpers/emulator.ts";
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

Deno.test("contact +search-user --page-all reads every page; with --page-token it is refused", async () => {
  await withSuite(async (emu, larkit) => {
    const all = await larkit(
      ["contact", "+search-user", "--query", "sandbox.example", "--page-size", "1", "--page-all"],
      { asUser: true },
    );
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(all.json<Found>().meta, { count: 4, has_more: false });
    emu.clearRequests();
    const both = await larkit(
      ["contact", "+search-user", "--query", "x", "--page-all", "--page-token", "t"],
      {
        asUser: true,
      },
    );
    assert.equal(both.code, 2);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("contact +get-user: yourself as the user, anyone by ID as the bot; a bot without --user-id is refused", async () => {
  await withSuite(async (emu, larkit) => {
    const me = await larkit(["contact", "+get-user"], { asUser: true });
    assert.equal(me.code, 0, me.stderr);
    assert.equal(me.json<{ data: { open_id: string } }>().data.open_id, fixtures.USERS.alice.open_id);
    const bob = await larkit(["contact", "+get-user", "--user-id", fixtures.USERS.bob.open_id]);
    assert.equal(bob.code, 0, bob.stderr);
    assert.equal(bob.json<{ data: { name: string } }>().data.name, "Bob Li");
    const byUserId = await larkit([
      "contact",
      "+get-user",
      "--user-id",
      "sandbox2",
      "--user-id-type",
      "user_id",
    ]);
    assert.equal(byUserId.json<{ data: { name: string } }>().data.name, "Bob Li");

    emu.clearRequests();
    const dry = await larkit(["contact", "+get-user", "--user-id", fixtures.USERS.bob.open_id, "--dry-run"]);
    const api = dry.json<{ data: { api: { url: string; params: unknown }[] } }>().data.api;
    assert.deepEqual(api.map((a) => [new URL(a.url).pathname, a.params]), [
      [`/open-apis/contact/v3/users/${fixtures.USERS.bob.open_id}`, { user_id_type: "open_id" }],
    ]);
    assert.deepEqual(emu.requests(), []);

    const bot = await larkit(["contact", "+get-user"]);
    assert.equal(bot.code, 2);
    assert.match(bot.errorJson().error.message, /give --user-id/);
    const bad = await larkit(["contact", "+get-user", "--user-id", "bob"]);
    assert.match(bad.errorJson().error.message, /must be an open_id/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("contact +search-bot: keyword or chats, user only; nothing to search for is refused", async () => {
  await withSuite(async (emu, larkit) => {
    const r = await larkit(["contact", "+search-bot", "--query", "deploy", "--has-chatted"], {
      asUser: true,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json<Found>().meta, { count: 0, has_more: false });
    const sent = suiteCalls(emu).find((c) => c.path === "/open-apis/bot/v4/bot/search");
    assert.deepEqual(sent?.body, { query: "deploy", filter: { has_chatter: true } });

    emu.clearRequests();
    const dry = await larkit(
      ["contact", "+search-bot", "--chat-ids", fixtures.CHATS.launch, "--dry-run"],
      { asUser: true },
    );
    assert.deepEqual(dry.json<{ data: { api: { body: unknown }[] } }>().data.api[0].body, {
      filter: { chat_ids: [fixtures.CHATS.launch] },
    });
    assert.deepEqual(emu.requests(), []);
    const none = await larkit(["contact", "+search-bot"], { asUser: true });
    assert.match(none.errorJson().error.message, /give --query and\/or --chat-ids/);
    const bot = await larkit(["contact", "+search-bot", "--query", "x", "--as", "bot"]);
    assert.equal(bot.code, 2);
    assert.doesNotMatch(bot.stderr, /--as bot/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("contact +get-user --user-id as the user reads users/basic_batch, which its declared scope allows", async () => {
  await withSuite(async (emu, larkit) => {
    // A token with only the scope the shortcut declares for the user.
    const { access_token } = await userToken(emu, { scope: "contact:user.basic_profile:readonly" });
    const env = { LARKIT_USER_ACCESS_TOKEN: access_token };
    emu.clearRequests();
    const r = await larkit(
      ["contact", "+get-user", "--user-id", fixtures.USERS.bob.open_id, "--as", "user"],
      {
        env,
      },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json<{ data: { user_id: string; name: string } }>().data, {
      user_id: fixtures.USERS.bob.open_id,
      name: "Bob Li",
      i18n_name: { en_us: fixtures.USERS.bob.en_name },
    });
    const byUserId = await larkit(
      ["contact", "+get-user", "--user-id", "sandbox2", "--user-id-type", "user_id", "--as", "user"],
      { env },
    );
    assert.equal(byUserId.json<{ data: { name: string } }>().data.name, "Bob Li");
    const calls = suiteCalls(emu).map((q) => [q.method, q.path, q.query, q.body]);
    assert.deepEqual(calls, [
      ["POST", "/open-apis/contact/v3/users/basic_batch", { user_id_type: "open_id" }, {
        user_ids: [fixtures.USERS.bob.open_id],
      }],
      ["POST", "/open-apis/contact/v3/users/basic_batch", { user_id_type: "user_id" }, {
        user_ids: ["sandbox2"],
      }],
    ]);
  });
});
