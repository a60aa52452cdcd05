/**
 * Files through the API layers, end to end against the suite emulator: multipart upload with `--file` (generated
 * command and raw `api`), download with `--output` streamed to a file inside the working directory, and
 * `--page-all --format ndjson` writing items while later pages are still being fetched.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { downloadArgv, UPLOAD, uploadArgv, uploadForm } from "./helpers/drive_files.ts";
import { pageAllNdjsonArgv, seedMessages } from "./helpers/bulk_messages.ts";
import { type Emulator, emulatorEnv, fixtures, startEmulator } from "./helpers/emulator.ts";
import { spawnMain } from "./helpers/run_main.ts";
import { runCli } from "./helpers/run_cli.ts";

const { CHATS } = fixtures;

function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let at = 0; at < n; at += 65_536) crypto.getRandomValues(out.subarray(at, Math.min(n, at + 65_536)));
  return out;
}

function storedBytes(emu: Emulator, fileToken: string): Uint8Array | undefined {
  return emu.files.read(fileToken);
}

async function withWorkspace(fn: (emu: Emulator, dir: string) => Promise<void>): Promise<void> {
  const emu = await startEmulator({});
  const dir = await Deno.makeTempDir({ prefix: "larkit-files-" });
  try {
    await fn(emu, dir);
  } finally {
    await emu.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("--file uploads the file's bytes as multipart, from a generated command and from raw api", async () => {
  await withWorkspace(async (emu, dir) => {
    const bytes = randomBytes(300_000);
    await Deno.writeFile(join(dir, "report.bin"), bytes);

    const generated = await runCli([
      "drive",
      "files",
      "upload_all",
      "--file",
      "file=report.bin",
      "--data",
      uploadForm("report.bin", bytes.length),
    ], { env: emulatorEnv(emu), cwd: dir });
    assert.equal(generated.code, 0, generated.stderr);
    const token = generated.json<{ data: { file_token: string } }>().data.file_token;
    assert.deepEqual(storedBytes(emu, token), bytes);

    const raw = await runCli([
      "api",
      "POST",
      UPLOAD,
      "--file",
      "file=report.bin",
      "--data",
      uploadForm("copy.bin", bytes.length),
    ], { env: emulatorEnv(emu), cwd: dir });
    assert.equal(raw.code, 0, raw.stderr);
    const rawToken = raw.json<{ data: { file_token: string } }>().data.file_token;
    assert.notEqual(rawToken, token);
    assert.deepEqual(storedBytes(emu, rawToken), bytes);
  });
});

Deno.test("--output streams a binary body to a relative path (0644, atomic) and reports it", async () => {
  await withWorkspace(async (emu, dir) => {
    const bytes = randomBytes(1_500_000);
    await Deno.writeFile(join(dir, "big.bin"), bytes);
    const up = await runCli(uploadArgv("big.bin", bytes.length), { env: emulatorEnv(emu), cwd: dir });
    assert.equal(up.code, 0, up.stderr);
    const token = up.json<{ data: { file_token: string } }>().data.file_token;

    const r = await runCli(downloadArgv(token, "downloads/big.copy"), { env: emulatorEnv(emu), cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const out = r.json<
      { ok: boolean; data: { saved_path: string; size_bytes: number; content_type: string } }
    >();
    const saved = join(await Deno.realPath(dir), "downloads", "big.copy");
    assert.deepEqual(out.data, {
      saved_path: saved,
      size_bytes: bytes.length,
      content_type: "application/octet-stream",
    });
    assert.deepEqual(await Deno.readFile(saved), bytes);
    assert.equal((await Deno.stat(saved)).mode! & 0o777, 0o644);
    const left = [...Deno.readDirSync(join(dir, "downloads"))].map((e) => e.name);
    assert.deepEqual(left, ["big.copy"]);
  });
});

Deno.test("--output outside the working directory is a validation error and nothing is sent", async () => {
  await withWorkspace(async (emu, dir) => {
    await Deno.symlink(await Deno.makeTempDir(), join(dir, "elsewhere"));
    for (
      const output of ["/tmp/stolen.bin", "../stolen.bin", "sub/../../stolen.bin", "elsewhere/stolen.bin"]
    ) {
      emu.clearRequests();
      const r = await runCli(downloadArgv("boxcn_any", output), { env: emulatorEnv(emu), cwd: dir });
      assert.equal(r.code, 2, `${output}: ${r.stderr}`);
      const err = r.errorJson().error;
      assert.equal(err.type, "validation");
      assert.match(err.message, /^--output: /);
      assert.deepEqual(emu.requests().filter((q) => q.path.includes("/download")), [], output);
    }
  });
});

Deno.test("--page-all --format ndjson writes the first items before the last page is fetched", async () => {
  await withWorkspace(async (emu, dir) => {
    const inChat = seedMessages(emu, CHATS.random, 1_000, "stream");
    const pages = Math.ceil(inChat / 50);
    // Slow pages leave the test a wide window (18 pages × 60 ms after the first line is written) in which later
    // pages have provably not been served yet; the reader and the slow pages share this process's event loop.
    emu.faults.delay({ path: "/open-apis/im/v1/messages", ms: 60 });
    emu.clearRequests();
    const child = spawnMain(
      pageAllNdjsonArgv(CHATS.random),
      { ...emulatorEnv(emu), LARKIT_CONFIG_DIR: join(dir, "config") },
      { stderr: "null" },
    );
    const served = () => emu.requests().filter((q) => q.path === "/open-apis/im/v1/messages").length;
    let text = "";
    let servedAtFirstLine: number | undefined;
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      if (servedAtFirstLine === undefined && chunk.includes("\n")) servedAtFirstLine = served();
      text += chunk;
    }
    assert.equal((await child.status).code, 0);
    assert.ok(
      servedAtFirstLine !== undefined && servedAtFirstLine < pages,
      `${servedAtFirstLine} of ${pages}`,
    );
    const lines = text.trimEnd().split("\n");
    assert.equal(lines.length, inChat);
    assert.equal(served(), pages);
  });
});

Deno.test("@file and --file read only inside the working tree: outside paths are validation errors, nothing sent", async () => {
  const emu = await startEmulator({});
  const outside = await Deno.makeTempDir({ prefix: "larkit-outside-" });
  const work = await Deno.makeTempDir({ prefix: "larkit-work-" });
  try {
    await Deno.writeTextFile(join(outside, "body.json"), "{}");
    await Deno.symlink(join(outside, "body.json"), join(work, "link.json"));
    emu.clearRequests();
    const cases: [string[], RegExp][] = [
      [["--data", `@${join(outside, "body.json")}`], /--data: file path must be relative/],
      [["--data", "@link.json"], /--data: file is outside the current directory/],
      [["--file", "../x.bin"], /--file: file (is outside the current directory|not found)/],
    ];
    for (const [flags, message] of cases) {
      const r = await runCli(["api", "POST", "/open-apis/im/v1/images", ...flags], {
        env: emulatorEnv(emu),
        cwd: work,
      });
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.errorJson().error.type, "validation");
      assert.match(r.errorJson().error.message, message);
    }
    assert.deepEqual(emu.requests(), []);
  } finally {
    await emu.stop();
  }
});
