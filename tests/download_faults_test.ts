/**
 * Downloads under faults, end to end against the suite emulator: a body cut off mid-transfer is a retryable
 * `network` error with nothing partial left behind (generated `--output` and `drive +download`), and a generated
 * command's `--output` never replaces an existing file without `--overwrite`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { downloadArgv, uploadArgv } from "./helpers/drive_files.ts";
import { type Emulator, emulatorEnv, startEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";

const DOWNLOAD_PREFIX = "/open-apis/drive/v1/files/";

async function withWorkspace(
  fn: (emu: Emulator, dir: string, token: string) => Promise<void>,
): Promise<void> {
  const emu = await startEmulator({});
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "larkit-dl-" }));
  try {
    const bytes = new Uint8Array(600_000).map((_, i) => i % 251);
    await Deno.writeFile(join(dir, "big.bin"), bytes);
    const up = await runCli(uploadArgv("big.bin", bytes.length), { env: emulatorEnv(emu), cwd: dir });
    assert.equal(up.code, 0, up.stderr);
    await fn(emu, dir, up.json<{ data: { file_token: string } }>().data.file_token);
  } finally {
    await emu.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

const listing = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

Deno.test("a download cut off mid-body is a retryable network error and leaves no partial file", async () => {
  await withWorkspace(async (emu, dir, token) => {
    await Deno.mkdir(join(dir, "out"));
    for (
      const args of [
        downloadArgv(token, "out/a.bin"),
        ["drive", "+download", "--file-token", token, "--output", "out/b.bin"],
      ]
    ) {
      emu.faults.cutBody({ times: 1, afterBytes: 100_000, path: DOWNLOAD_PREFIX });
      const r = await runCli(args, { env: emulatorEnv(emu), cwd: dir });
      assert.equal(r.code, 4, `${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stdout, "");
      const error = r.errorJson().error;
      assert.deepEqual([error.type, error.subtype, error.retryable], ["network", "network", true], r.stderr);
      assert.match(error.message, /cut off after \d+ bytes/);
      const target = args[args.length - 1].replace("out/", "");
      assert.ok(!listing(join(dir, "out")).some((n) => n.startsWith(target)), "no partial or temporary file");
      // The hint is honest: the same command now succeeds.
      const again = await runCli(args, { env: emulatorEnv(emu), cwd: dir });
      assert.equal(again.code, 0, again.stderr);
    }
    assert.equal((await Deno.stat(join(dir, "out", "a.bin"))).size, 600_000);
    assert.equal((await Deno.stat(join(dir, "out", "b.bin"))).size, 600_000);
  });
});

Deno.test("a generated command's --output refuses an existing file without --overwrite, before sending", async () => {
  await withWorkspace(async (emu, dir, token) => {
    await Deno.writeTextFile(join(dir, "keep.bin"), "mine");
    const args = downloadArgv(token, "keep.bin");
    emu.clearRequests();
    const refused = await runCli(args, { env: emulatorEnv(emu), cwd: dir });
    assert.equal(refused.code, 2, refused.stderr);
    assert.deepEqual([refused.errorJson().error.type, refused.errorJson().error.subtype], [
      "validation",
      "validation",
    ]);
    assert.match(refused.errorJson().error.hint ?? "", /--overwrite/);
    assert.equal(await Deno.readTextFile(join(dir, "keep.bin")), "mine");
    assert.deepEqual(emu.requests().filter((q) => q.path.startsWith(DOWNLOAD_PREFIX)), []);

    const replaced = await runCli([...args, "--overwrite"], { env: emulatorEnv(emu), cwd: dir });
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.equal((await Deno.stat(join(dir, "keep.bin"))).size, 600_000);
  });
});
