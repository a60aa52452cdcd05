/**
 * The user's own IM feed end to end: bookmarks (`+flag-*`), feed shortcuts (`+feed-shortcut-*`) and feed groups
 * (`+feed-group-*`). All are user-only: a bot identity is refused before anything is sent, without suggesting
 * `--as bot`.
 */
import assert from "node:assert/strict";
import { fixtures, userToken } from "./helpers/emulator.ts";
import { type Larkit, suiteCalls, withSuite } from "./helpers/suite_session.ts";

const { CHATS } = fixtures;

interface Doc<T> {
  data: T;
  meta: { count?: number; has_more?: boolean };
}
interface Planned {
  method: string;
  url: string;
  params?: Record<string, unknown>;
  body?: Record<string, unknown>;
}

async function asUser<T>(larkit: Larkit, argv: string[]): Promise<Doc<T>> {
  const r = await larkit(argv, { asUser: true });
  assert.equal(r.code, 0, `${argv.join(" ")}: ${r.stderr}`);
  return r.json<Doc<T>>();
}

async function refused(larkit: Larkit, argv: string[], message: RegExp) {
  const r = await larkit(argv, { asUser: true });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.errorJson().error.message, message);
}

async function botRefused(larkit: Larkit, argv: string[]) {
  const r = await larkit([...argv, "--as", "bot"]);
  assert.equal(r.code, 2, r.stderr);
  assert.doesNotMatch(r.stderr, /--as bot/);
}

async function planOf(emu: { clearRequests(): void }, larkit: Larkit, argv: string[]): Promise<Planned[]> {
  emu.clearRequests();
  return (await asUser<{ api: Planned[] }>(larkit, [...argv, "--dry-run"])).data.api;
}

const messageIn = (emu: { db: { prepare(s: string): { get(...a: unknown[]): unknown } } }, chat: string) =>
  (emu.db.prepare("SELECT message_id FROM messages WHERE chat_id = ? LIMIT 1").get(chat) as {
    message_id: string;
  })
    .message_id;

Deno.test("im +flag-create/+flag-list/+flag-cancel: message and feed bookmarks, cancelled from both layers", async () => {
  await withSuite(async (emu, larkit) => {
    const id = messageIn(emu, CHATS.engineering);
    const plan = await planOf(emu, larkit, ["im", "+flag-create", "--message-id", id, "--flag-type", "feed"]);
    assert.deepEqual(plan.map((p) => [p.method, decodeURIComponent(new URL(p.url).pathname)]), [
      ["GET", `/open-apis/im/v1/messages/${id}`],
      ["GET", "/open-apis/im/v1/chats/<chat_id>"],
      ["POST", "/open-apis/im/v1/flags"],
    ]);
    assert.deepEqual(suiteCalls(emu), []);

    const message = await asUser<{ item_id: string; flag_type: string }>(larkit, [
      "im",
      "+flag-create",
      "--message-id",
      id,
    ]);
    assert.deepEqual([message.data.item_id, message.data.flag_type], [id, "message"]);
    const feed = await asUser<{ item_id: string; item_type: string }>(larkit, [
      "im",
      "+flag-create",
      "--message-id",
      id,
      "--flag-type",
      "feed",
    ]);
    assert.deepEqual([feed.data.item_id, feed.data.item_type], [CHATS.engineering, "default"]);
    const listed = await asUser<{ item_id: string }[]>(larkit, ["im", "+flag-list", "--page-all"]);
    assert.deepEqual(listed.data.map((f) => f.item_id), [id, CHATS.engineering]);
    const table = await larkit(["im", "+flag-list", "--format", "pretty"], { asUser: true });
    assert.match(table.stdout, /^flag_type\s+item_type\s+item_id/);

    const cancelled = await asUser<{ cancelled: unknown[] }>(larkit, [
      "im",
      "+flag-cancel",
      "--message-id",
      id,
    ]);
    assert.equal(cancelled.data.cancelled.length, 2);
    assert.equal((await asUser(larkit, ["im", "+flag-list"])).meta.count, 0);

    emu.clearRequests();
    await refused(larkit, ["im", "+flag-create", "--message-id", "42"], /--message-id must be a message ID/);
    await refused(
      larkit,
      ["im", "+flag-cancel", "--message-id", id, "--flag-type", "both"],
      /allowed: message/,
    );
    await botRefused(larkit, ["im", "+flag-list"]);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("im +feed-shortcut-*: pin at the tail or head, list, unpin; a chat you are not in fails alone", async () => {
  await withSuite(async (emu, larkit) => {
    const plan = await planOf(emu, larkit, [
      "im",
      "+feed-shortcut-create",
      "--chat-id",
      CHATS.launch,
      "--head",
    ]);
    assert.deepEqual(plan[0].body, { shortcuts: [{ chat_id: CHATS.launch }], position: "head" });
    assert.deepEqual(suiteCalls(emu), []);

    await asUser(larkit, [
      "im",
      "+feed-shortcut-create",
      "--chat-id",
      `${CHATS.engineering},${CHATS.launch}`,
    ]);
    await asUser(larkit, ["im", "+feed-shortcut-create", "--chat-id", CHATS.random, "--head"]);
    const listed = await asUser<{ chat_id: string }[]>(larkit, ["im", "+feed-shortcut-list"]);
    assert.deepEqual(listed.data.map((s) => s.chat_id), [CHATS.random, CHATS.engineering, CHATS.launch]);

    const removed = await asUser<{ ok: boolean; done: string[]; failed_shortcuts: { chat_id: string }[] }>(
      larkit,
      ["im", "+feed-shortcut-remove", "--chat-id", `${CHATS.engineering},oc_nowhere`],
    );
    assert.equal(removed.data.ok, false);
    assert.deepEqual(removed.data.done, [CHATS.engineering]);
    assert.deepEqual(removed.data.failed_shortcuts.map((f) => f.chat_id), ["oc_nowhere"]);
    assert.equal((await asUser(larkit, ["im", "+feed-shortcut-list"])).meta.count, 2);

    emu.clearRequests();
    await refused(
      larkit,
      ["im", "+feed-shortcut-create", "--chat-id", CHATS.random, "--head", "--tail"],
      /exclusive/,
    );
    const eleven = Array.from({ length: 11 }, (_, i) => `oc_${i}`).join(",");
    await refused(larkit, ["im", "+feed-shortcut-remove", "--chat-id", eleven], /at most 10/);
    await botRefused(larkit, ["im", "+feed-shortcut-list"]);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("im +feed-group-*: groups, a group's cards, cards by ID; times must be milliseconds", async () => {
  await withSuite(async (emu, larkit) => {
    const groups = await asUser<unknown[]>(larkit, ["im", "+feed-group-list", "--page-all"]);
    assert.deepEqual(groups.meta, { count: 0, has_more: false });
    const cards = await asUser<unknown[]>(larkit, ["im", "+feed-group-list-item", "--feed-group-id", "fg_1"]);
    assert.equal(cards.meta.count, 0);
    const query = ["im", "+feed-group-query-item", "--feed-group-id", "fg_1", "--feed-id", CHATS.launch];
    assert.equal((await asUser(larkit, query)).meta.count, 0);
    assert.deepEqual(
      suiteCalls(emu).map((c) => c.path),
      [
        "/open-apis/im/v1/groups",
        "/open-apis/im/v1/groups/fg_1/list_item",
        "/open-apis/im/v1/groups/fg_1/batch_query_item",
      ],
    );

    const plan = await planOf(emu, larkit, [
      "im",
      "+feed-group-list-item",
      "--feed-group-id",
      "fg_1",
      "--start-time",
      "1795392000000",
    ]);
    assert.deepEqual(plan[0].params, { start_time: "1795392000000", page_size: 50 });
    assert.equal((await planOf(emu, larkit, query))[0].body?.feed_ids?.toString(), CHATS.launch);
    assert.deepEqual(suiteCalls(emu), []);

    await refused(larkit, ["im", "+feed-group-list", "--start-time", "2026-11-23"], /Unix milliseconds/);
    await refused(
      larkit,
      ["im", "+feed-group-query-item", "--feed-group-id", "fg_1", "--feed-id", "x"],
      /chat IDs/,
    );
    await botRefused(larkit, ["im", "+feed-group-list"]);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("a user-only shortcut the suite refuses for a missing scope hints a login, not --as bot", async () => {
  await withSuite(async (emu, larkit) => {
    const narrow = await userToken(emu, { scope: "im:feed.flag:write offline_access" });
    const r = await larkit(["im", "+flag-list"], {
      asUser: true,
      env: { LARKIT_USER_ACCESS_TOKEN: narrow.access_token },
    });
    assert.notEqual(r.code, 0);
    const error = r.errorJson().error;
    assert.match(error.message, /permission denied/);
    assert.match(error.hint ?? "", /larkit auth login/);
    assert.doesNotMatch(error.hint ?? "", /--as bot/);
  });
});
