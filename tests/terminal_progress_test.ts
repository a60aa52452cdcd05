/**
 * Issue 23.3: progress on stderr only when stderr is a terminal and --quiet is absent, one line rewritten in
 * place, never on stdout: --page-all (pages and items so far), transfers (bytes of total, rate, ETA).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { BufferWriter, withIOFrom } from "../cli/provider.ts";
import { diagnostics, transferText } from "../cli/output/diagnostics.ts";
import { runCli as runIn } from "../cli/run.ts";
import { downloadArgv, uploadArgv } from "./helpers/drive_files.ts";
import { emulatorEnv, startEmulator } from "./helpers/emulator.ts";
import { cliProvider } from "./helpers/run_cli.ts";

async function pageAll(extra: string[], stderrIsTTY: boolean) {
  const emu = await startEmulator({});
  try {
    const configDir = await Deno.makeTempDir({ prefix: "larkit-progress-" });
    const base = cliProvider({ configDir, env: emulatorEnv(emu) });
    const err = new BufferWriter({ isTTY: stderrIsTTY });
    const out = new BufferWriter();
    const args = [...extra, "calendar", "calendars", "list", "--as", "bot", "--page-all", "--page-size", "1"];
    const code = await runIn(args, withIOFrom({ ...base, stderr: err, stdout: out }));
    return { code, stderr: err.text(), stdout: out.text() };
  } finally {
    await emu.stop();
  }
}

Deno.test("--page-all on a terminal: one status line rewritten per page, ended before the summary", async () => {
  const res = await pageAll([], true);
  assert.equal(res.code, 0, res.stderr);
  // deno-lint-ignore no-control-regex -- the erase-line sequence is what is checked
  assert.match(res.stderr, /\r\x1b\[2K\[page-all\] 1 page, 1 items so far/);
  // deno-lint-ignore no-control-regex -- the erase-line sequence is what is checked
  assert.match(res.stderr, /\r\x1b\[2K\[page-all\] 2 pages, 2 items so far/);
  assert.match(res.stderr, /items so far\n\[pagination\]/);
  assert.doesNotMatch(res.stdout, /page-all|\r/);
});

Deno.test("no progress when stderr is not a terminal, or with --quiet", async () => {
  const piped = await pageAll([], false);
  assert.equal(piped.code, 0, piped.stderr);
  assert.doesNotMatch(piped.stderr, /page-all|pagination/);
  const quiet = await pageAll(["--quiet"], true);
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.doesNotMatch(quiet.stderr, /page-all|pagination/);
});

Deno.test("a transfer's line: bytes of total, rate and ETA; a status line is ended before any other line", async () => {
  assert.equal(
    transferText(10 * 1048576, 40 * 1048576, 5000),
    "10.0 MiB of 40.0 MiB (25%), 2.0 MiB/s, ETA 15 s",
  );
  assert.equal(transferText(0, 2048, 0), "0 B of 2.0 KiB (0%)");
  const err = new BufferWriter({ isTTY: true });
  const diag = diagnostics(err, { debug: false, color: false });
  await diag.status("uploading 1 of 2");
  await diag.status("uploading 2 of 2");
  await diag.warn("slow");
  assert.equal(err.text(), "\r\x1b[2Kuploading 1 of 2\r\x1b[2Kuploading 2 of 2\nwarning: slow\n");
});

Deno.test("a download on a terminal: a bytes-of-total status line, ended when the body is done", async () => {
  const emu = await startEmulator({});
  try {
    const dir = await Deno.makeTempDir({ prefix: "larkit-dl-progress-" });
    const base = cliProvider({ configDir: join(dir, "config"), env: emulatorEnv(emu), cwd: dir });
    const bytes = new Uint8Array(300_000).fill(7);
    await Deno.writeFile(join(dir, "f.bin"), bytes);
    const out = new BufferWriter();
    const up = await runIn(uploadArgv("f.bin", bytes.length), withIOFrom({ ...base, stdout: out }));
    assert.equal(up.valueOf(), 0);
    const token = JSON.parse(out.text()).data.file_token as string;
    const err = new BufferWriter({ isTTY: true });
    const code = await runIn(
      downloadArgv(token, "copy.bin"),
      withIOFrom({ ...base, stderr: err, stdout: new BufferWriter() }),
    );
    assert.equal(code, 0, err.text());
    // deno-lint-ignore no-control-regex -- the erase-line sequence is what is checked
    assert.match(err.text(), /\r\x1b\[2Kdownloading: 293\.0 KiB of 293\.0 KiB \(100%\)[^\n]*\n/);
  } finally {
    await emu.stop();
  }
});
