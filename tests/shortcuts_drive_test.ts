/**
 * Drive shortcuts end to end: uploads (one request up to 20 MB, the chunked protocol above) and downloads to
 * a path inside the working directory, against the suite emulator.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fixtures } from "./helpers/emulator.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

interface Uploaded {
  data: { file_token: string; file_name: string; size: number };
  meta: { upload_method: string };
}
interface Downloaded {
  data: { saved_path: string; size_bytes: number };
}

Deno.test("drive +upload: a small file in one upload_all; +download saves it atomically under --output", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeTextFile(join(cwd, "notes.txt"), "hello drive\n");
    const up = await larkit([
      "drive",
      "+upload",
      "--file",
      "notes.txt",
      "--folder-token",
      fixtures.DRIVE.folder,
    ], { cwd });
    assert.equal(up.code, 0, up.stderr);
    const uploaded = up.json<Uploaded>();
    assert.deepEqual(
      { name: uploaded.data.file_name, size: uploaded.data.size, method: uploaded.meta.upload_method },
      { name: "notes.txt", size: 12, method: "upload_all" },
    );
    assert.deepEqual(suiteCalls(emu).map((c) => c.path), ["/open-apis/drive/v1/files/upload_all"]);

    const down = await larkit([
      "drive",
      "+download",
      "--file-token",
      uploaded.data.file_token,
      "--output",
      "out/copy.txt",
    ], {
      cwd,
    });
    assert.equal(down.code, 0, down.stderr);
    assert.deepEqual(down.json<Downloaded>().data.saved_path, join("out", "copy.txt"));
    assert.equal(await Deno.readTextFile(join(cwd, "out", "copy.txt")), "hello drive\n");
    assert.deepEqual([...Deno.readDirSync(join(cwd, "out"))].map((e) => e.name), ["copy.txt"]);
  });
});

Deno.test("drive +upload: a file over 20 MB goes prepare → one part per block → finish, and round-trips", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    const size = 20 * 1024 * 1024 + 1234;
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 12)) & 0xff;
    await Deno.writeFile(join(cwd, "big.bin"), bytes);
    const up = await larkit(["drive", "+upload", "--file", "big.bin", "--name", "archive.bin"], { cwd });
    assert.equal(up.code, 0, up.stderr);
    const uploaded = up.json<Uploaded>();
    assert.equal(uploaded.meta.upload_method, "chunked");
    const calls = suiteCalls(emu).map((c) => c.path.replace("/open-apis/drive/v1/files/", ""));
    assert.deepEqual(calls, [
      "upload_prepare",
      "upload_part",
      "upload_part",
      "upload_part",
      "upload_part",
      "upload_part",
      "upload_part",
      "upload_finish",
    ]);

    const down = await larkit(["drive", "+download", "--file-token", uploaded.data.file_token], { cwd });
    assert.equal(down.code, 0, down.stderr);
    assert.equal(down.json<Downloaded>().data.saved_path, "archive.bin");
    assert.deepEqual(await Deno.readFile(join(cwd, "archive.bin")), bytes);
  });
});

Deno.test("drive dry-runs name the upload method and the download target, and send nothing", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeTextFile(join(cwd, "a.txt"), "x");
    const up = await larkit(["drive", "+upload", "--file", "a.txt", "--dry-run"], { cwd });
    assert.equal(up.code, 0, up.stderr);
    const plan = up.json<
      { data: { api: { url: string; body: Record<string, unknown> }[]; upload_method: string } }
    >();
    assert.equal(plan.data.upload_method, "upload_all");
    assert.equal(plan.data.api[0].url, `${emu.url}/open-apis/drive/v1/files/upload_all`);
    assert.deepEqual(plan.data.api[0].body, {
      file_name: "a.txt",
      parent_type: "explorer",
      parent_node: "",
      size: "1",
      file: "@a.txt",
    });
    const down = await larkit(["drive", "+download", "--file-token", fixtures.DRIVE.readme, "--dry-run"], {
      cwd,
    });
    assert.equal(down.code, 0, down.stderr);
    assert.equal(down.json<{ data: { output: string } }>().data.output, "<file name from the response>");
    assert.deepEqual(emu.requests(), []);
  });
});

Deno.test("drive bad input: paths outside the working directory, a missing file, an existing output", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    const absolute = await larkit([
      "drive",
      "+download",
      "--file-token",
      fixtures.DRIVE.readme,
      "--output",
      "/tmp/x",
    ], {
      cwd,
    });
    assert.equal(absolute.code, 2);
    assert.match(absolute.errorJson().error.message, /--output: must be a relative path/);
    const escape = await larkit([
      "drive",
      "+download",
      "--file-token",
      fixtures.DRIVE.readme,
      "--output",
      "../x",
    ], { cwd });
    assert.match(escape.errorJson().error.message, /--output: path is outside the current directory/);
    const missing = await larkit(["drive", "+upload", "--file", "nope.txt"], { cwd });
    assert.equal(missing.code, 2);
    assert.equal(missing.errorJson().error.message, "--file: file not found: nope.txt");
    assert.deepEqual(suiteCalls(emu), []);

    const first = await larkit(["drive", "+download", "--file-token", fixtures.DRIVE.readme], { cwd });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.json<Downloaded>().data.saved_path, "README.txt");
    const again = await larkit(["drive", "+download", "--file-token", fixtures.DRIVE.readme], { cwd });
    assert.equal(again.code, 2);
    assert.match(again.errorJson().error.hint ?? "", /--overwrite/);
    const forced = await larkit(
      ["drive", "+download", "--file-token", fixtures.DRIVE.readme, "--overwrite"],
      { cwd },
    );
    assert.equal(forced.code, 0, forced.stderr);
    const unknown = await larkit(["drive", "+download", "--file-token", "boxcnNoSuchFile"], { cwd });
    assert.deepEqual([unknown.errorJson().error.type, unknown.errorJson().error.subtype], [
      "api",
      "not_found",
    ]);
  });
});
