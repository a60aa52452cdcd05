/**
 * IM shortcuts end to end: larkit in-process against the suite emulator's seeded chats. For each
 * shortcut: a happy path, a dry-run that sends nothing (the emulator's request log proves it), a bad input.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fixtures } from "./helpers/emulator.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

const ENGINEERING = fixtures.CHATS.engineering;

interface Sent {
  data: { message_id: string; chat_id: string; msg_type: string; content: unknown };
  meta: { idempotency_key: string };
}

Deno.test("im +messages-send: text to a chat with a generated idempotency key; the same key sends once", async () => {
  await withSuite(async (emu, larkit) => {
    const r = await larkit(["im", "+messages-send", "--chat-id", ENGINEERING, "--text", "Build is green"]);
    assert.equal(r.code, 0, r.stderr);
    const sent = r.json<Sent>();
    assert.match(sent.data.message_id, /^om_/);
    assert.deepEqual(sent.data.content, { text: "Build is green" });
    assert.match(sent.meta.idempotency_key, /^[0-9a-f-]{36}$/);
    const send = suiteCalls(emu).find((c) => c.path === "/open-apis/im/v1/messages" && c.method === "POST");
    assert.equal((send?.body as { uuid: string }).uuid, sent.meta.idempotency_key);

    const keyed = [
      "im",
      "+messages-send",
      "--chat-id",
      ENGINEERING,
      "--text",
      "once",
      "--idempotency-key",
      "k-1",
    ];
    const first = (await larkit(keyed)).json<Sent>();
    const second = (await larkit(keyed)).json<Sent>();
    assert.equal(first.data.message_id, second.data.message_id);
    assert.equal(first.meta.idempotency_key, "k-1");
  });
});

Deno.test("im +messages-send: markdown from @file to an email, image by path, stdin text", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeTextFile(join(cwd, "notes.md"), "# Release\n\nAll **green**.");
    await Deno.writeFile(join(cwd, "chart.png"), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));

    const md = await larkit([
      "im",
      "+messages-send",
      "--email",
      fixtures.USERS.bob.email,
      "--markdown",
      "@notes.md",
    ], {
      cwd,
    });
    assert.equal(md.code, 0, md.stderr);
    assert.equal(md.json<Sent>().data.msg_type, "post");
    assert.deepEqual(md.json<Sent>().data.content, {
      zh_cn: { content: [[{ tag: "md", text: "# Release" }], [{ tag: "md", text: "All **green**." }]] },
    });

    const img = await larkit(["im", "+messages-send", "--chat-id", ENGINEERING, "--image", "chart.png"], {
      cwd,
    });
    assert.equal(img.code, 0, img.stderr);
    assert.match((img.json<Sent>().data.content as { image_key: string }).image_key, /^img_/);
    assert.ok(suiteCalls(emu).some((c) => c.path === "/open-apis/im/v1/images"));

    const piped = await larkit([
      "im",
      "+messages-send",
      "--user-id",
      fixtures.USERS.carol.open_id,
      "--text",
      "-",
    ], {
      stdin: "from a pipe\n",
    });
    assert.equal(piped.code, 0, piped.stderr);
    assert.deepEqual(piped.json<Sent>().data.content, { text: "from a pipe" });
  });
});

Deno.test("im +messages-send: dry-run shows upload + send with the key and sends nothing; bad receivers", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeFile(join(cwd, "a.pdf"), new Uint8Array([1]));
    emu.clearRequests();
    const dry = await larkit(
      [
        "im",
        "+messages-send",
        "--chat-id",
        ENGINEERING,
        "--file",
        "a.pdf",
        "--idempotency-key",
        "k-9",
        "--dry-run",
      ],
      { cwd },
    );
    assert.equal(dry.code, 0, dry.stderr);
    const data =
      dry.json<{ data: { api: { url: string; body: Record<string, unknown> }[]; idempotency_key: string } }>()
        .data;
    assert.equal(data.idempotency_key, "k-9");
    assert.deepEqual(data.api[0].body, { file_type: "pdf", file_name: "a.pdf", file: "@a.pdf" });
    assert.deepEqual(data.api[1].body, {
      receive_id: ENGINEERING,
      msg_type: "file",
      content: '{"file_key":"<file_key>"}',
      uuid: "k-9",
    });
    assert.deepEqual(emu.requests(), []);

    const both = await larkit([
      "im",
      "+messages-send",
      "--chat-id",
      ENGINEERING,
      "--user-id",
      "ou_1",
      "--text",
      "x",
    ]);
    assert.equal(both.code, 2);
    assert.match(both.errorJson().error.message, /--chat-id, --user-id are mutually exclusive/);
    const outside = await larkit(["im", "+messages-send", "--chat-id", ENGINEERING, "--image", "../x.png"], {
      cwd,
    });
    assert.equal(outside.errorJson().error.type, "validation");
    assert.match(outside.errorJson().error.message, /^--image: file/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("im +messages-list: newest first with count; table format; dry-run sends nothing; bad chat id", async () => {
  await withSuite(async (emu, larkit) => {
    const r = await larkit(["im", "+messages-list", "--chat-id", ENGINEERING]);
    assert.equal(r.code, 0, r.stderr);
    const doc = r.json<
      { data: { content: { text: string }; create_time: string }[]; meta: { count: number } }
    >();
    assert.equal(doc.meta.count, 3);
    assert.equal(doc.data[0].content.text, "Design review moved to 14:00.");
    assert.equal(doc.data[2].create_time, "2026-11-23T09:00:00+00:00");

    const table = await larkit([
      "im",
      "+messages-list",
      "--chat-id",
      ENGINEERING,
      "--order",
      "asc",
      "--format",
      "pretty",
    ]);
    assert.match(table.stdout, /^time\s+sender\s+type\s+text\n─/);
    assert.match(table.stdout.split("\n")[2], /Good morning! Stand-up in 10 minutes\.$/);

    emu.clearRequests();
    const dry = await larkit([
      "im",
      "+messages-list",
      "--chat-id",
      ENGINEERING,
      "--page-size",
      "5",
      "--dry-run",
    ]);
    assert.deepEqual(dry.json<{ data: { api: { params: unknown }[] } }>().data.api[0].params, {
      container_id_type: "chat",
      container_id: ENGINEERING,
      sort_type: "ByCreateTimeDesc",
      page_size: 5,
    });
    assert.deepEqual(emu.requests(), []);

    const bad = await larkit(["im", "+messages-list", "--chat-id", "general"]);
    assert.equal(bad.code, 2);
    assert.match(bad.errorJson().error.message, /--chat-id must start with oc_/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("im +messages-reply: replies in thread; dry-run sends nothing; no content is refused", async () => {
  await withSuite(async (emu, larkit) => {
    const list = await larkit([
      "im",
      "+messages-list",
      "--chat-id",
      ENGINEERING,
      "--jq",
      ".data[0].message_id",
    ]);
    const parent = list.stdout.trim();
    const args = ["im", "+messages-reply", "--message-id", parent, "--text", "On it", "--reply-in-thread"];
    emu.clearRequests();
    const dry = await larkit([...args, "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(
      dry.json<{ data: { api: { body: { reply_in_thread: boolean } }[] } }>().data.api[0].body
        .reply_in_thread,
      true,
    );
    assert.deepEqual(emu.requests(), []);

    const r = await larkit(args);
    assert.equal(r.code, 0, r.stderr);
    const sent = r.json<{ data: { parent_id: string; chat_id: string } }>().data;
    assert.equal(sent.parent_id, parent);
    assert.equal(sent.chat_id, ENGINEERING);

    const bad = await larkit(["im", "+messages-reply", "--message-id", parent]);
    assert.equal(bad.code, 2);
    assert.match(bad.errorJson().error.message, /specify the message/);
  });
});

Deno.test("im +chat-search: finds a chat by name; ndjson; dry-run sends nothing; over-long query", async () => {
  await withSuite(async (emu, larkit) => {
    const r = await larkit(["im", "+chat-search", "--query", "launch"]);
    assert.equal(r.code, 0, r.stderr);
    const doc = r.json<{ data: { chat_id: string; name: string }[]; meta: { count: number } }>();
    assert.deepEqual(doc.data.map((c) => c.chat_id), [fixtures.CHATS.launch]);
    assert.equal(doc.meta.count, 1);
    const nd = await larkit(["im", "+chat-search", "--query", "a", "--format", "ndjson"]);
    assert.equal(nd.stdout.trim().split("\n").length, 3);

    emu.clearRequests();
    const dry = await larkit(["im", "+chat-search", "--query", "launch", "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(emu.requests(), []);

    const bad = await larkit(["im", "+chat-search", "--query", "x".repeat(65)]);
    assert.equal(bad.code, 2);
    assert.match(bad.errorJson().error.message, /longer than 64/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});

Deno.test("im +messages-send: a video with its cover and a voice message, each uploaded first", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeFile(join(cwd, "clip.mp4"), new Uint8Array([0, 0, 0, 24]));
    await Deno.writeFile(join(cwd, "cover.png"), new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    await Deno.writeFile(join(cwd, "hi.opus"), new Uint8Array([0x4f, 0x67, 0x67]));
    const video = [
      "im",
      "+messages-send",
      "--chat-id",
      ENGINEERING,
      "--video",
      "clip.mp4",
      "--video-cover",
      "cover.png",
    ];
    emu.clearRequests();
    const dry = await larkit([...video, "--dry-run"], { cwd });
    const api = dry.json<{ data: { api: { url: string; body: Record<string, unknown> }[] } }>().data.api;
    assert.deepEqual(api.map((a) => new URL(a.url).pathname), [
      "/open-apis/im/v1/files",
      "/open-apis/im/v1/images",
      "/open-apis/im/v1/messages",
    ]);
    assert.deepEqual(api[0].body, { file_type: "mp4", file_name: "clip.mp4", file: "@clip.mp4" });
    assert.deepEqual(emu.requests(), []);

    const sent = await larkit(video, { cwd });
    assert.equal(sent.code, 0, sent.stderr);
    const media = sent.json<Sent>().data;
    assert.equal(media.msg_type, "media");
    const keys = media.content as { file_key: string; image_key: string };
    assert.match(keys.file_key, /^file_/);
    assert.match(keys.image_key, /^img_/);

    const voice = await larkit(["im", "+messages-send", "--chat-id", ENGINEERING, "--audio", "hi.opus"], {
      cwd,
    });
    assert.equal(voice.code, 0, voice.stderr);
    assert.equal(voice.json<Sent>().data.msg_type, "audio");

    emu.clearRequests();
    const noCover = await larkit(["im", "+messages-send", "--chat-id", ENGINEERING, "--video", "clip.mp4"], {
      cwd,
    });
    assert.match(noCover.errorJson().error.message, /--video needs --video-cover/);
    const wrong = await larkit(["im", "+messages-send", "--chat-id", ENGINEERING, "--audio", "clip.mp4"], {
      cwd,
    });
    assert.match(wrong.errorJson().error.message, /--audio must be a \.opus file/);
    assert.deepEqual(suiteCalls(emu), []);
  });
});
