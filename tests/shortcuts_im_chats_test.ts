/**
 * IM chat, thread and message-lookup shortcuts end to end against the emulator's seeded chats: per shortcut a
 * main path, a dry run that sends nothing, and a bad input refused before anything is sent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fixtures } from "./helpers/emulator.ts";
import { type Larkit, suiteCalls, withSuite } from "./helpers/suite_session.ts";

const { CHATS, USERS } = fixtures;

interface Doc<T> {
  data: T;
  meta: { count?: number; has_more?: boolean; page_token?: string; [k: string]: unknown };
}
interface Plan {
  data: {
    api: { method: string; url: string; params?: Record<string, unknown>; body?: Record<string, unknown> }[];
  };
}

async function ok<T>(larkit: Larkit, argv: string[], asUser = false): Promise<Doc<T>> {
  const r = await larkit(argv, { asUser });
  assert.equal(r.code, 0, `${argv.join(" ")}: ${r.stderr}`);
  return r.json<Doc<T>>();
}

async function refused(larkit: Larkit, argv: string[], message: RegExp, asUser = false) {
  const r = await larkit(argv, { asUser });
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.errorJson().error.type, "validation");
  assert.match(r.errorJson().error.message, message);
}

/** The dry run's requests; the suite saw none of them. */
async function planOf(emu: { clearRequests(): void }, larkit: Larkit, argv: string[], asUser = false) {
  emu.clearRequests();
  const plan = await ok<Plan["data"]>(larkit, [...argv, "--dry-run"], asUser);
  return plan.data.api;
}

Deno.test("im +chat-create: a chat with people that can be messaged at once; one key creates once", async () => {
  await withSuite(async (emu, larkit) => {
    const argv = ["im", "+chat-create", "--name", "War room", "--users", USERS.bob.open_id];
    const api = await planOf(emu, larkit, [...argv, "--idempotency-key", "k-chat"]);
    assert.deepEqual(api.map((a) => [a.method, new URL(a.url).pathname]), [[
      "POST",
      "/open-apis/im/v1/chats",
    ]]);
    assert.equal(api[0].params?.uuid, "k-chat");
    assert.deepEqual(api[0].body?.user_id_list, [USERS.bob.open_id]);
    assert.deepEqual(suiteCalls(emu), []);

    const first = await ok<{ chat_id: string; name: string }>(larkit, [
      ...argv,
      "--idempotency-key",
      "k-chat",
    ]);
    const again = await ok<{ chat_id: string }>(larkit, [...argv, "--idempotency-key", "k-chat"]);
    assert.match(first.data.chat_id, /^oc_/);
    assert.equal(again.data.chat_id, first.data.chat_id);
    assert.equal(first.data.name, "War room");
    const sent = await ok(larkit, ["im", "+messages-send", "--chat-id", first.data.chat_id, "--text", "hi"]);
    assert.equal((sent.data as { chat_id: string }).chat_id, first.data.chat_id);
    const members = await ok<{ member_id: string }[]>(larkit, [
      "im",
      "+chat-members-list",
      "--chat-id",
      first.data.chat_id,
    ]);
    assert.deepEqual(members.data.map((m) => m.member_id), [USERS.bob.open_id]);

    emu.clearRequests();
    await refused(
      larkit,
      ["im", "+chat-create", "--name", "x", "--users", "bob"],
      /--users must be open_ids/,
    );
    await refused(larkit, ["im", "+chat-create", "--name", "n".repeat(61)], /longer than 60/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("im +chat-list: one page or every page; --page-all with --page-token is refused", async () => {
  await withSuite(async (emu, larkit) => {
    const one = await ok<{ chat_id: string }[]>(larkit, ["im", "+chat-list", "--page-size", "1"]);
    assert.equal(one.meta.count, 1);
    assert.equal(one.meta.has_more, true);
    assert.equal(typeof one.meta.page_token, "string");
    const every = await ok<{ chat_id: string }[]>(larkit, [
      "im",
      "+chat-list",
      "--page-size",
      "1",
      "--page-all",
    ]);
    assert.deepEqual(every.data.map((c) => c.chat_id).sort(), Object.values(CHATS).sort());
    assert.deepEqual(every.meta, { count: 3, has_more: false });
    const limited = await ok(larkit, [
      "im",
      "+chat-list",
      "--page-size",
      "1",
      "--page-all",
      "--page-limit",
      "2",
    ]);
    assert.deepEqual([limited.meta.count, limited.meta.has_more], [2, true]);

    const api = await planOf(emu, larkit, ["im", "+chat-list", "--sort", "active_time"]);
    assert.equal(api[0].params?.sort_type, "ByActiveTimeDesc");
    assert.deepEqual(suiteCalls(emu), []);
    await refused(larkit, ["im", "+chat-list", "--page-all", "--page-token", "t"], /drop --page-token/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("im +chat-update renames a chat (search finds the new name); nothing to change is refused", async () => {
  await withSuite(async (emu, larkit) => {
    const argv = ["im", "+chat-update", "--chat-id", CHATS.random, "--name", "Watercooler"];
    const api = await planOf(emu, larkit, argv);
    assert.deepEqual(api.map((a) => a.method), ["PUT"]);
    assert.deepEqual(api[0].body, { name: "Watercooler" });
    assert.deepEqual(suiteCalls(emu), []);
    await ok(larkit, argv);
    const found = await ok<{ chat_id: string }[]>(larkit, ["im", "+chat-search", "--query", "watercooler"]);
    assert.deepEqual(found.data.map((c) => c.chat_id), [CHATS.random]);
    emu.clearRequests();
    await refused(larkit, ["im", "+chat-update", "--chat-id", CHATS.random], /nothing to change/);
    await refused(larkit, ["im", "+chat-update", "--chat-id", "random", "--name", "x"], /--chat-id must be/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("im +chat-members-list: the chat's people with names; table; dry run; bad chat id", async () => {
  await withSuite(async (emu, larkit) => {
    const r = await ok<{ member_id: string; name: string }[]>(larkit, [
      "im",
      "+chat-members-list",
      "--chat-id",
      CHATS.launch,
      "--as",
      "user",
    ], true);
    assert.deepEqual(r.data.map((m) => m.name), ["Alice Chen", "Carol Wang"]);
    assert.equal(r.meta.total, 2);
    const table = await larkit(["im", "+chat-members-list", "--chat-id", CHATS.launch, "--format", "pretty"]);
    assert.match(table.stdout, /^name\s+member_id\n/);
    const api = await planOf(emu, larkit, ["im", "+chat-members-list", "--chat-id", CHATS.launch]);
    assert.deepEqual(api[0].params, { member_id_type: "open_id", page_size: 20 });
    assert.deepEqual(suiteCalls(emu), []);
    await refused(larkit, ["im", "+chat-members-list", "--chat-id", "ou_1"], /--chat-id must be a chat ID/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

const firstMessage = (emu: { db: { prepare(s: string): { get(...a: unknown[]): unknown } } }, chat: string) =>
  (emu.db.prepare("SELECT message_id FROM messages WHERE chat_id = ? ORDER BY create_time LIMIT 1").get(
    chat,
  ) as {
    message_id: string;
  }).message_id;

Deno.test("im +threads-messages-list: a thread by its root's message ID or by thread ID; not a thread", async () => {
  await withSuite(async (emu, larkit) => {
    const root = firstMessage(emu, CHATS.engineering);
    await ok(larkit, [
      "im",
      "+messages-reply",
      "--message-id",
      root,
      "--text",
      "in thread",
      "--reply-in-thread",
    ]);
    const byMessage = await ok<{ message_id: string; content: { text: string } }[]>(larkit, [
      "im",
      "+threads-messages-list",
      "--thread",
      root,
    ]);
    // The emulator's clock stands before the seeded history, so only membership is compared, not order.
    assert.deepEqual(byMessage.data.map((m) => m.content.text).sort(), [
      "Good morning! Stand-up in 10 minutes.",
      "in thread",
    ]);
    const thread = String(byMessage.meta.thread_id);
    assert.match(thread, /^omt_/);
    const byThread = await ok<unknown[]>(larkit, [
      "im",
      "+threads-messages-list",
      "--thread",
      thread,
      "--order",
      "desc",
    ]);
    assert.equal(byThread.meta.count, 2);

    const api = await planOf(emu, larkit, ["im", "+threads-messages-list", "--thread", root]);
    assert.deepEqual(api.map((a) => a.method), ["GET", "GET"]);
    assert.deepEqual(api[1].params?.container_id, "<thread_id>");
    assert.deepEqual(suiteCalls(emu), []);

    const lone = firstMessage(emu, CHATS.launch);
    await refused(larkit, ["im", "+threads-messages-list", "--thread", lone], /is not in a thread/);
    emu.clearRequests();
    await refused(larkit, ["im", "+threads-messages-list", "--thread", "t_1"], /--thread must be/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("im +messages-mget: messages by ID in the order given; more than 50 IDs is refused", async () => {
  await withSuite(async (emu, larkit) => {
    const ids = (emu.db.prepare("SELECT message_id FROM messages WHERE chat_id = ? ORDER BY create_time").all(
      CHATS.engineering,
    ) as { message_id: string }[]).map((m) => m.message_id);
    const argv = ["im", "+messages-mget", "--message-ids", `${ids[2]},${ids[0]}`];
    const r = await ok<{ message_id: string }[]>(larkit, argv);
    assert.deepEqual(r.data.map((m) => m.message_id), [ids[2], ids[0]]);
    const api = await planOf(emu, larkit, argv);
    assert.equal(api.length, 2);
    assert.deepEqual(suiteCalls(emu), []);
    const many = Array.from({ length: 51 }, (_, i) => `om_${i}`).join(",");
    await refused(larkit, ["im", "+messages-mget", "--message-ids", many], /at most 50 IDs/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("im +messages-search: keyword across chats, narrowed by chat; each hit with its content", async () => {
  await withSuite(async (emu, larkit) => {
    const hit = await ok<{ chat_id: string; content: { text: string } }[]>(larkit, [
      "im",
      "+messages-search",
      "--query",
      "green",
    ]);
    assert.deepEqual(hit.data.map((m) => m.content.text), ["The emulator build is green."]);
    const none = await ok(larkit, ["im", "+messages-search", "--query", "green", "--chat-id", CHATS.launch]);
    assert.equal(none.meta.count, 0);
    const api = await planOf(emu, larkit, [
      "im",
      "+messages-search",
      "--query",
      "x",
      "--start",
      "2026-11-23",
    ]);
    assert.deepEqual(api[0].body, { query: "x", filter: { time_range: { start_time: "1795392000" } } });
    assert.deepEqual(suiteCalls(emu), []);
    await refused(larkit, ["im", "+messages-search"], /give something to search for/);
    await refused(
      larkit,
      ["im", "+messages-search", "--query", "x", "--chat-type", "dm"],
      /allowed: group, p2p/,
    );
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("im +message-read-users and +messages-read-status: readers and the user's read state", async () => {
  await withSuite(async (emu, larkit) => {
    const id = firstMessage(emu, CHATS.engineering);
    // No read receipts in the emulator: whoever wrote in the chat after the message has read it.
    const readers = await ok<{ user_id: string }[]>(larkit, [
      "im",
      "+message-read-users",
      "--message-id",
      id,
    ]);
    assert.deepEqual(readers.data.map((r) => r.user_id), [USERS.bob.open_id, USERS.carol.open_id]);
    assert.deepEqual(readers.meta, { count: 2, has_more: false });
    const sent = suiteCalls(emu).find((c) => c.path.endsWith("/read_users"));
    assert.deepEqual(sent?.query, { user_id_type: "open_id", page_size: "100" });

    // The seeded user (Alice) sent the chat's first message and wrote nothing after Carol's last one; an
    // unknown ID is invalid.
    const last =
      (emu.db.prepare("SELECT message_id FROM messages WHERE chat_id = ? ORDER BY create_time DESC")
        .get(CHATS.engineering) as { message_id: string }).message_id;
    const status = await ok<{ message_id: string; is_read: boolean }[]>(larkit, [
      "im",
      "+messages-read-status",
      "--message-ids",
      `${id},${last},om_unknown`,
    ], true);
    assert.deepEqual(status.data, [{ message_id: id, is_read: true }, { message_id: last, is_read: false }]);
    assert.deepEqual(status.meta.invalid_message_ids, ["om_unknown"]);
    const api = await planOf(emu, larkit, ["im", "+messages-read-status", "--message-ids", id], true);
    assert.deepEqual(api[0].body, { message_ids: [id] });
    assert.deepEqual(suiteCalls(emu), []);

    await refused(larkit, ["im", "+message-read-users", "--message-id", "1"], /--message-id must be/);
    const bot = await larkit(["im", "+messages-read-status", "--message-ids", id, "--as", "bot"]);
    assert.equal(bot.code, 2);
    assert.doesNotMatch(bot.stderr, /--as bot/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("im +messages-resources-download saves a message's file in the working directory", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeFile(join(cwd, "r.pdf"), new Uint8Array([1, 2, 3]));
    const sent = await larkit(["im", "+messages-send", "--chat-id", CHATS.engineering, "--file", "r.pdf"], {
      cwd,
    });
    const { message_id, content } =
      sent.json<{ data: { message_id: string; content: { file_key: string } } }>()
        .data;
    const argv = [
      "im",
      "+messages-resources-download",
      "--message-id",
      message_id,
      "--file-key",
      content.file_key,
      "--type",
      "file",
      "--output",
      "got.bin",
    ];
    emu.clearRequests();
    const dry = await larkit([...argv, "--dry-run"], { cwd });
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(dry.json<Plan>().data.api[0].params, { type: "file" });
    assert.deepEqual(emu.requests(), []);
    const r = await larkit(argv, { cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json<{ data: { saved_path: string } }>().data.saved_path, "got.bin");
    assert.ok((await Deno.stat(join(cwd, "got.bin"))).size > 0);
    const again = await larkit(argv, { cwd });
    assert.match(again.errorJson().error.message, /already exists/);
    emu.clearRequests();
    await refused(larkit, [...argv.slice(0, 7), "video"], /--type/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("im +chat-messages-list --user-id reads the direct chat with a person; none yet is refused", async () => {
  await withSuite(async (emu, larkit) => {
    await ok(larkit, ["im", "+messages-send", "--user-id", USERS.bob.open_id, "--text", "psst"]);
    const argv = ["im", "+chat-messages-list", "--user-id", USERS.bob.open_id];
    const dm = await ok<{ content: { text: string } }[]>(larkit, argv);
    assert.deepEqual(dm.data.map((m) => m.content.text), ["psst"]);
    const api = await planOf(emu, larkit, argv);
    assert.deepEqual(api.map((a) => a.method), ["POST", "GET"]);
    assert.deepEqual(api[0].body, { chatter_ids: [USERS.bob.open_id] });
    assert.equal(api[1].params?.container_id, "<chat_id>");
    assert.deepEqual(suiteCalls(emu), []);

    await refused(
      larkit,
      ["im", "+chat-messages-list", "--user-id", USERS.carol.open_id],
      /no direct chat with/,
    );
    emu.clearRequests();
    await refused(
      larkit,
      ["im", "+chat-messages-list", "--chat-id", CHATS.launch, "--user-id", USERS.bob.open_id],
      /exactly one of --chat-id and --user-id/,
    );
    await refused(larkit, ["im", "+chat-messages-list", "--user-id", "bob"], /--user-id must be an open_id/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("im --download-resources saves the listed messages' images and files as <key>-<name>", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeFile(join(cwd, "chart.png"), new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    const sent = await larkit(["im", "+messages-send", "--chat-id", CHATS.launch, "--image", "chart.png"], {
      cwd,
    });
    const { message_id, content } =
      sent.json<{ data: { message_id: string; content: { image_key: string } } }>()
        .data;
    const argv = ["im", "+chat-messages-list", "--chat-id", CHATS.launch, "--download-resources"];
    emu.clearRequests();
    const dry = await larkit([...argv, "--dry-run"], { cwd });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /download_resources/);
    assert.deepEqual(emu.requests(), []);

    const r = await larkit(argv, { cwd });
    assert.equal(r.code, 0, r.stderr);
    const withImage = r.json<
      { data: { message_id: string; resources?: { key: string; saved_path: string }[] }[] }
    >()
      .data.find((m) => m.message_id === message_id);
    assert.deepEqual(withImage?.resources?.map((x) => x.key), [content.image_key]);
    const saved = withImage?.resources?.[0].saved_path ?? "";
    assert.ok(saved.startsWith(`${content.image_key}-`), saved);
    assert.ok((await Deno.stat(join(cwd, saved))).isFile);
    const mget = await larkit(["im", "+messages-mget", "--message-ids", message_id, "--download-resources"], {
      cwd,
    });
    assert.equal(mget.code, 0, mget.stderr);
  });
});
