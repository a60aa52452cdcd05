/**
 * Uploads and downloads as the official SDK sends them: a multipart part without `filename=` is the file, with
 * its exact bytes; a message's resource, an uploaded image and an uploaded file download as those bytes; a
 * reaction added is listed.
 */
import assert from "node:assert/strict";
import { tenantToken, userToken, withEmulator } from "../tests/helpers/emulator.ts";
import { CHATS } from "./fixtures.ts";
import { parseMultipart } from "./multipart.ts";
import { call } from "./test_http.ts";

/** Bytes that are not valid UTF-8, so a text round trip would change them. */
const BINARY = Uint8Array.from({ length: 600 }, (_, i) => (i * 131 + 7) % 256);
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

/** A multipart body as form-data (the SDK's encoder) writes a Buffer: no file name, its own Content-Type. */
function multipart(
  fields: Record<string, string>,
  file: { name: string; bytes: Uint8Array; filename?: string },
) {
  const boundary = "----sdkboundary0123456789";
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  const named = file.filename === undefined ? "" : `; filename="${file.filename}"`;
  parts.push(
    enc.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"${named}\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    ),
    file.bytes,
    enc.encode(`\r\n--${boundary}--\r\n`),
  );
  const body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) body.set(p, (at += p.length) - p.length);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

async function upload(url: string, path: string, token: string, form: ReturnType<typeof multipart>) {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": form.type },
    body: form.body,
  });
  return { status: res.status, body: await res.json() };
}

async function download(url: string, path: string, token: string) {
  const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) return { status: res.status, body: await res.json() };
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
}

Deno.test("multipart: parts with and without a file name, text fields, exact bytes", () => {
  const form = multipart({ file_type: "stream", file_name: "a.bin" }, { name: "file", bytes: BINARY });
  const parsed = parseMultipart(form.type, form.body);
  assert.equal(parsed.get("file_type"), "stream");
  const file = parsed.get("file");
  assert.ok(file instanceof File);
  assert.equal(file.name, "");
  const named = parseMultipart(
    form.type,
    multipart({}, { name: "file", bytes: BINARY, filename: "x.bin" }).body,
  ).get("file");
  assert.ok(named instanceof File && named.name === "x.bin");
  assert.throws(() => parseMultipart("multipart/form-data", form.body));
  assert.throws(() => parseMultipart(form.type, new TextEncoder().encode("no boundary here")));
});

Deno.test("uploads without a file name keep their bytes; a message's resource downloads as them", async () => {
  await withEmulator({}, async (emu) => {
    const token = await tenantToken(emu);
    const file = await upload(
      emu.url,
      "/open-apis/im/v1/files",
      token,
      multipart({ file_type: "stream", file_name: "a.bin" }, { name: "file", bytes: BINARY }),
    );
    assert.equal(file.body.code, 0, JSON.stringify(file.body));
    const fileKey = file.body.data.file_key;
    const image = await upload(
      emu.url,
      "/open-apis/im/v1/images",
      token,
      multipart({ image_type: "message" }, { name: "image", bytes: PNG }),
    );
    assert.equal(image.body.code, 0, JSON.stringify(image.body));
    const imageKey = image.body.data.image_key;

    const send = (msg_type: string, content: unknown) =>
      call(emu.url, "POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", {
        token,
        body: { receive_id: CHATS.engineering, msg_type, content: JSON.stringify(content) },
      });
    const fileMessage = (await send("file", { file_key: fileKey })).body.data?.message_id as string;
    const imageMessage = (await send("image", { image_key: imageKey })).body.data?.message_id as string;

    const resource = (m: string, key: string, type: string) =>
      download(emu.url, `/open-apis/im/v1/messages/${m}/resources/${key}?type=${type}`, token);
    assert.deepEqual((await resource(fileMessage, fileKey, "file")).bytes, BINARY);
    assert.deepEqual((await resource(imageMessage, imageKey, "image")).bytes, PNG);
    // A key the message does not refer to, and an unknown message, are refused.
    assert.equal((await resource(fileMessage, imageKey, "image")).body?.code, 234003);
    assert.equal((await resource("om_missing", fileKey, "file")).body?.code, 230011);
    // The uploads themselves download as their bytes too.
    assert.deepEqual((await download(emu.url, `/open-apis/im/v1/files/${fileKey}`, token)).bytes, BINARY);
    assert.deepEqual((await download(emu.url, `/open-apis/im/v1/images/${imageKey}`, token)).bytes, PNG);
    assert.equal(
      (await download(emu.url, "/open-apis/im/v1/files/file_v3_missing", token)).body?.code,
      234003,
    );

    // Drive's media upload takes the same unnamed part.
    const user = (await userToken(emu)).access_token;
    const media = await upload(
      emu.url,
      "/open-apis/drive/v1/medias/upload_all",
      user,
      multipart(
        {
          file_name: "m.bin",
          parent_type: "docx_file",
          parent_node: "doxcnAny",
          size: String(BINARY.length),
        },
        { name: "file", bytes: BINARY },
      ),
    );
    assert.equal(media.body.code, 0, JSON.stringify(media.body));
    const got = await download(
      emu.url,
      `/open-apis/drive/v1/medias/${media.body.data.file_token}/download`,
      user,
    );
    assert.deepEqual(got.bytes, BINARY);
  });
});

Deno.test("reactions: one added is listed, one removed is not", async () => {
  await withEmulator({}, async (emu) => {
    const token = (await userToken(emu)).access_token;
    const sent = await call(emu.url, "POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", {
      token,
      body: { receive_id: CHATS.engineering, msg_type: "text", content: JSON.stringify({ text: "react" }) },
    });
    const m = sent.body.data?.message_id as string;
    const add = (emoji_type: string) =>
      call(emu.url, "POST", `/open-apis/im/v1/messages/${m}/reactions`, {
        token,
        body: { reaction_type: { emoji_type } },
      });
    const up = (await add("THUMBSUP")).body.data?.reaction_id as string;
    const smile = (await add("SMILE")).body.data?.reaction_id as string;
    const list = async (q = "") =>
      ((await call(emu.url, "GET", `/open-apis/im/v1/messages/${m}/reactions${q}`, { token })).body.data
        ?.items as { reaction_id: string }[]).map((r) => r.reaction_id);
    assert.deepEqual((await list()).sort(), [up, smile].sort());
    assert.deepEqual(await list("?reaction_type=SMILE"), [smile]);
    await call(emu.url, "DELETE", `/open-apis/im/v1/messages/${m}/reactions/${smile}`, { token });
    assert.deepEqual(await list(), [up]);
  });
});
