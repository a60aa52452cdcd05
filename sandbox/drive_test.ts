import assert from "node:assert/strict";
import { startEmulator } from "./server.ts";
import { tenantToken } from "../tests/helpers/emulator.ts";
import { call } from "./test_http.ts";
import { DRIVE } from "./fixtures.ts";
import { BLOCK_SIZE } from "./routes/drive.ts";
import { adler32 } from "./file_store.ts";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

type Emu = Awaited<ReturnType<typeof startEmulator>>;

async function multipart(emu: Emu, token: string, path: string, fields: Record<string, string | File>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const res = await fetch(`${emu.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return await res.json() as { code: number; data?: Record<string, unknown> };
}

Deno.test("upload_all (multipart file_name, parent_type, parent_node, size, file) → file_token; download returns the bytes", async () => {
  const emu = await startEmulator();
  try {
    const token = await tenantToken(emu);
    const bytes = new TextEncoder().encode("quarterly numbers\n");
    const up = await multipart(emu, token, "/open-apis/drive/v1/files/upload_all", {
      file_name: "numbers.txt",
      parent_type: "explorer",
      parent_node: DRIVE.folder,
      size: String(bytes.length),
      file: new File([bytes], "numbers.txt"),
    });
    const fileToken = String(up.data?.file_token);
    assert.match(fileToken, /^boxcn/);
    const res = await fetch(`${emu.url}/open-apis/drive/v1/files/${fileToken}/download`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-disposition") ?? "", /attachment; filename="numbers.txt"/);
    assert.deepEqual(new Uint8Array(await res.arrayBuffer()), bytes);

    const bad = await multipart(emu, token, "/open-apis/drive/v1/files/upload_all", {
      file_name: "x.txt",
      parent_type: "explorer",
      parent_node: DRIVE.folder,
      size: "99",
      file: new File([bytes], "x.txt"),
    });
    assert.equal(bad.code, 1062009);
    const missing = await call(emu.url, "GET", "/open-apis/drive/v1/files/boxcnMissing/download", { token });
    assert.equal(missing.body.code, 1061007);
  } finally {
    await emu.stop();
  }
});

Deno.test("chunked upload: upload_prepare {upload_id, block_size, block_num} → upload_part × n → upload_finish", async () => {
  const emu = await startEmulator();
  try {
    const token = await tenantToken(emu);
    const size = BLOCK_SIZE + 10;
    const bytes = new Uint8Array(size).map((_, i) => i % 251);
    const prep = await call(emu.url, "POST", "/open-apis/drive/v1/files/upload_prepare", {
      token,
      body: { file_name: "big.bin", parent_type: "explorer", parent_node: DRIVE.folder, size },
    });
    const { upload_id, block_size, block_num } = prep.body.data as {
      upload_id: string;
      block_size: number;
      block_num: number;
    };
    assert.equal(block_size, BLOCK_SIZE);
    assert.equal(block_num, 2);
    const early = await call(emu.url, "POST", "/open-apis/drive/v1/files/upload_finish", {
      token,
      body: { upload_id, block_num },
    });
    assert.equal(early.body.code, 1062010);
    for (let seq = 0; seq < block_num; seq++) {
      const chunk = bytes.subarray(seq * block_size, Math.min(size, (seq + 1) * block_size));
      const r = await multipart(emu, token, "/open-apis/drive/v1/files/upload_part", {
        upload_id,
        seq: String(seq),
        size: String(chunk.length),
        file: new File([chunk], "part"),
      });
      assert.equal(r.code, 0);
    }
    const done = await call(emu.url, "POST", "/open-apis/drive/v1/files/upload_finish", {
      token,
      body: { upload_id, block_num },
    });
    const fileToken = String(done.body.data?.file_token);
    const res = await fetch(`${emu.url}/open-apis/drive/v1/files/${fileToken}/download`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.deepEqual(new Uint8Array(await res.arrayBuffer()), bytes);

    const listed = await call(emu.url, "GET", `/open-apis/drive/v1/files?folder_token=${DRIVE.folder}`, {
      token,
    });
    const names = (listed.body.data?.files as { name: string }[]).map((f) => f.name);
    assert.ok(names.includes("big.bin") && names.includes("README.txt") && names.includes("Team handbook"));
    assert.equal(listed.body.data?.has_more, false);
  } finally {
    await emu.stop();
  }
});

Deno.test("checksum: Adler-32 as the suite computes it; a part whose checksum differs is refused with 1062008", async () => {
  // The reference value of Adler-32("Wikipedia") is 0x11E60398.
  assert.equal(adler32(new TextEncoder().encode("Wikipedia")), String(0x11e60398));
  assert.equal(adler32(new Uint8Array(0)), "1");
  const emu = await startEmulator();
  try {
    const token = await tenantToken(emu);
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 7) % 256);
    const fields = { file_name: "c.bin", parent_type: "explorer", parent_node: DRIVE.folder };
    const wrong = await multipart(emu, token, "/open-apis/drive/v1/files/upload_all", {
      ...fields,
      size: String(bytes.length),
      checksum: "12345",
      file: new File([bytes], "c.bin"),
    });
    assert.equal(wrong.code, 1062008);
    const right = await multipart(emu, token, "/open-apis/drive/v1/files/upload_all", {
      ...fields,
      size: String(bytes.length),
      checksum: adler32(bytes),
      file: new File([bytes], "c.bin"),
    });
    assert.equal(right.code, 0);
    assert.deepEqual(emu.files.read(String(right.data?.file_token)), bytes);
  } finally {
    await emu.stop();
  }
});

Deno.test("stored bytes live on disk: under <dataDir>/files (kept across a restart), else in a temporary directory removed at stop", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "larkit-emu-store-" });
  try {
    const emu = await startEmulator({ dataDir });
    let fileToken = "";
    try {
      const token = await tenantToken(emu);
      const up = await multipart(emu, token, "/open-apis/drive/v1/files/upload_all", {
        file_name: "kept.txt",
        parent_type: "explorer",
        parent_node: DRIVE.folder,
        size: "5",
        file: new File(["kept\n"], "kept.txt"),
      });
      fileToken = String(up.data?.file_token);
      assert.equal(await Deno.readTextFile(join(dataDir, "files", fileToken)), "kept\n");
    } finally {
      await emu.stop();
    }
    const again = await startEmulator({ dataDir });
    try {
      const res = await fetch(`${again.url}/open-apis/drive/v1/files/${fileToken}/download`, {
        headers: { authorization: `Bearer ${await tenantToken(again)}` },
      });
      assert.equal(await res.text(), "kept\n");
    } finally {
      await again.stop();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
  const inMemory = await startEmulator();
  const dir = inMemory.files.dir;
  assert.ok((await Deno.stat(dir)).isDirectory);
  await inMemory.stop();
  await assert.rejects(() => Deno.stat(dir), Deno.errors.NotFound);
});

Deno.test("a data dir written when bytes were kept in SQLite: they move to the file store on start", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "larkit-emu-migrate-" });
  try {
    const old = new DatabaseSync(join(dataDir, "sandbox.db"));
    old.exec(`CREATE TABLE blobs (key TEXT PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL,
      file_type TEXT NOT NULL, bytes BLOB NOT NULL, owner TEXT NOT NULL, parent TEXT NOT NULL,
      create_time INTEGER NOT NULL);
      CREATE TABLE upload_parts (upload_id TEXT NOT NULL, seq INTEGER NOT NULL, bytes BLOB NOT NULL,
      PRIMARY KEY (upload_id, seq));`);
    old.prepare("INSERT INTO blobs VALUES ('boxcnOld', 'drive', 'old.txt', 'file', ?, 'ou_x', ?, 0)")
      .run(new TextEncoder().encode("from sqlite\n"), DRIVE.folder);
    old.close();
    const emu = await startEmulator({ dataDir, seed: false });
    try {
      assert.equal(new TextDecoder().decode(emu.files.read("boxcnOld")), "from sqlite\n");
      const row = emu.db.prepare("SELECT size FROM blobs WHERE key = 'boxcnOld'").get() as { size: number };
      assert.equal(row.size, 12);
    } finally {
      await emu.stop();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
