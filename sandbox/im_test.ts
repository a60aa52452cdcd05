import assert from "node:assert/strict";
import { startEmulator } from "./server.ts";
import { manualClock, tenantToken, userToken } from "../tests/helpers/emulator.ts";
import { call } from "./test_http.ts";
import { CHATS, USERS } from "./fixtures.ts";

interface Message {
  message_id: string;
  chat_id: string;
  msg_type: string;
  create_time: string;
  root_id?: string;
  parent_id?: string;
  sender: { id: string; id_type: string; sender_type: string };
  body: { content: string };
}

async function setup() {
  const clock = manualClock();
  const emu = await startEmulator({ clock });
  return { emu, clock, token: await tenantToken(emu) };
}

const count = (emu: Awaited<ReturnType<typeof startEmulator>>) =>
  (emu.db.prepare("SELECT COUNT(*) AS n FROM messages").get() as { n: number }).n;

Deno.test("chats list and search: items {chat_id, name, owner_id, external, tenant_key}", async () => {
  const { emu, token } = await setup();
  try {
    const list = await call(emu.url, "GET", "/open-apis/im/v1/chats?page_size=2", { token });
    const items = list.body.data?.items as { chat_id: string; name: string; external: boolean }[];
    assert.equal(items.length, 2);
    assert.equal(list.body.data?.has_more, true);
    assert.ok(items.every((c) => c.chat_id.startsWith("oc_") && c.external === false));
    const found = await call(emu.url, "GET", "/open-apis/im/v1/chats/search?query=launch", { token });
    assert.deepEqual((found.body.data?.items as { chat_id: string }[]).map((c) => c.chat_id), [CHATS.launch]);
  } finally {
    await emu.stop();
  }
});

Deno.test("messages create as bot: message_id om_, sender app, body.content; uuid de-duplicates within 1 hour", async () => {
  const { emu, clock, token } = await setup();
  try {
    const send = (uuid?: string) =>
      call(emu.url, "POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", {
        token,
        body: {
          receive_id: CHATS.engineering,
          msg_type: "text",
          content: JSON.stringify({ text: "deploy done" }),
          uuid,
        },
      });
    const before = count(emu);
    const first = await send("idem-1");
    const m = first.body.data as unknown as Message;
    assert.match(m.message_id, /^om_/);
    assert.equal(m.chat_id, CHATS.engineering);
    assert.equal(m.sender.sender_type, "app");
    assert.equal(m.sender.id, emu.app.appId);
    assert.equal(m.body.content, JSON.stringify({ text: "deploy done" }));
    assert.equal(m.create_time, String(clock.now()));

    const again = await send("idem-1");
    assert.equal((again.body.data as unknown as Message).message_id, m.message_id);
    assert.equal(count(emu), before + 1);

    clock.advance(3_600_001);
    const later = await send("idem-1");
    assert.notEqual((later.body.data as unknown as Message).message_id, m.message_id);
    assert.equal(count(emu), before + 2);
  } finally {
    await emu.stop();
  }
});

Deno.test("messages create by open_id and email land in one p2p chat; bad receive_id → 230001", async () => {
  const { emu, token } = await setup();
  try {
    const send = (type: string, id: string) =>
      call(emu.url, "POST", `/open-apis/im/v1/messages?receive_id_type=${type}`, {
        token,
        body: { receive_id: id, msg_type: "text", content: JSON.stringify({ text: "hello" }) },
      });
    const a = (await send("open_id", USERS.bob.open_id)).body.data as unknown as Message;
    const b = (await send("email", USERS.bob.email)).body.data as unknown as Message;
    assert.equal(a.chat_id, b.chat_id);
    assert.equal((await send("email", "nobody@sandbox.example")).body.code, 230001);
    const badContent = await call(emu.url, "POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", {
      token,
      body: { receive_id: CHATS.engineering, msg_type: "text", content: "not json" },
    });
    assert.equal(badContent.body.code, 230001);
  } finally {
    await emu.stop();
  }
});

Deno.test("messages list pages through a chat (container_id_type=chat) and reply threads with root_id/parent_id", async () => {
  const { emu, token } = await setup();
  try {
    const path =
      `/open-apis/im/v1/messages?container_id_type=chat&container_id=${CHATS.engineering}&page_size=2`;
    const first = await call(emu.url, "GET", path, { token });
    const page1 = first.body.data?.items as Message[];
    assert.equal(page1.length, 2);
    assert.equal(first.body.data?.has_more, true);
    const second = await call(emu.url, "GET", `${path}&page_token=${first.body.data?.page_token}`, { token });
    const page2 = second.body.data?.items as Message[];
    assert.equal(second.body.data?.has_more, false);
    assert.equal(new Set([...page1, ...page2].map((m) => m.message_id)).size, 3);

    const replied = await call(emu.url, "POST", `/open-apis/im/v1/messages/${page1[0].message_id}/reply`, {
      token,
      body: { msg_type: "text", content: JSON.stringify({ text: "ack" }) },
    });
    const r = replied.body.data as unknown as Message;
    assert.equal(r.root_id, page1[0].message_id);
    assert.equal(r.parent_id, page1[0].message_id);
    assert.equal(r.chat_id, CHATS.engineering);
    assert.equal(
      (await call(emu.url, "POST", "/open-apis/im/v1/messages/om_missing/reply", {
        token,
        body: { msg_type: "text", content: JSON.stringify({ text: "x" }) },
      })).body.code,
      230011,
    );
  } finally {
    await emu.stop();
  }
});

Deno.test("a user sends as itself (sender_type user) with im:message.send_as_user", async () => {
  const { emu } = await setup();
  try {
    const user = await userToken(emu);
    const r = await call(emu.url, "POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", {
      token: user.access_token,
      body: { receive_id: CHATS.launch, msg_type: "text", content: JSON.stringify({ text: "from alice" }) },
    });
    const m = r.body.data as unknown as Message;
    assert.equal(m.sender.sender_type, "user");
    assert.equal(m.sender.id, USERS.alice.open_id);
    emu.revokeScopes("user", ["im:message.send_as_user", "im:message"]);
    const denied = await call(emu.url, "POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", {
      token: user.access_token,
      body: { receive_id: CHATS.launch, msg_type: "text", content: JSON.stringify({ text: "again" }) },
    });
    assert.equal(denied.body.code, 99991679);
  } finally {
    await emu.stop();
  }
});

Deno.test("images and files upload (multipart) → image_key / file_key usable in messages", async () => {
  const { emu, token } = await setup();
  try {
    const image = new FormData();
    image.set("image_type", "message");
    image.set(
      "image",
      new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "dot.png", { type: "image/png" }),
    );
    const up = await fetch(`${emu.url}/open-apis/im/v1/images`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: image,
    });
    const { data } = await up.json() as { data: { image_key: string } };
    assert.match(data.image_key, /^img_v3_/);
    const sent = await call(emu.url, "POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", {
      token,
      body: {
        receive_id: CHATS.engineering,
        msg_type: "image",
        content: JSON.stringify({ image_key: data.image_key }),
      },
    });
    assert.equal(sent.body.code, 0);

    const file = new FormData();
    file.set("file_type", "pdf");
    file.set("file_name", "spec.pdf");
    file.set("file", new File([new TextEncoder().encode("%PDF-1.4")], "spec.pdf"));
    const fup = await fetch(`${emu.url}/open-apis/im/v1/files`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: file,
    });
    assert.match((await fup.json() as { data: { file_key: string } }).data.file_key, /^file_v3_/);
    const unknownKey = await call(emu.url, "POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", {
      token,
      body: {
        receive_id: CHATS.engineering,
        msg_type: "file",
        content: JSON.stringify({ file_key: "file_v3_nope" }),
      },
    });
    assert.equal(unknownKey.body.code, 230001);
  } finally {
    await emu.stop();
  }
});
