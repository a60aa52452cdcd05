/**
 * A chunked upload through larkit against the emulator's on-disk file store: a part whose answer is lost after
 * the emulator stored it is sent again (a part is addressed by upload id and sequence number) and stored once;
 * the assembled file is byte-identical, lives on disk rather than in SQLite, and downloads from there.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

Deno.test("chunked upload with a lost part answer: retried, assembled on disk byte for byte, downloaded from there", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    try {
      const size = 20 * 1024 * 1024 + 4321;
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 17 + (i >> 10)) & 0xff;
      await Deno.writeFile(join(cwd, "big.bin"), bytes);
      emu.faults.dropConnection({
        path: "/open-apis/drive/v1/files/upload_part",
        times: 1,
        after: "after-handling",
      });

      const up = await larkit(["drive", "+upload", "--file", "big.bin"], { cwd });
      assert.equal(up.code, 0, up.stderr);
      const token = up.json<{ data: { file_token: string } }>().data.file_token;
      const parts = suiteCalls(emu).filter((c) => c.path.endsWith("/upload_part")).length;
      assert.equal(parts, 7, "six blocks, the first sent twice");

      // The bytes are a file in the store; SQLite keeps the size only.
      const row = emu.db.prepare("SELECT * FROM blobs WHERE key = ?").get(token) as Record<string, unknown>;
      assert.equal(row.size, size);
      assert.equal("bytes" in row, false);
      assert.equal((await Deno.stat(join(emu.files.dir, token))).size, size);
      const left = emu.db.prepare("SELECT COUNT(*) AS n FROM upload_parts").get() as { n: number };
      assert.equal(left.n, 0, "the parts are dropped once assembled");
      assert.deepEqual([...Deno.readDirSync(join(emu.files.dir, "parts"))], []);

      const down = await larkit(["drive", "+download", "--file-token", token, "--output", "copy.bin"], {
        cwd,
      });
      assert.equal(down.code, 0, down.stderr);
      assert.deepEqual(await Deno.readFile(join(cwd, "copy.bin")), bytes);
    } finally {
      await Deno.remove(cwd, { recursive: true });
    }
  });
});
