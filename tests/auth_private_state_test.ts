/**
 * larkit's own state is private whatever the umask: run under `umask 022` (a subprocess, the umask is
 * per process), the config and secrets directories are 0700 and every file in them 0600; directories and
 * files left looser by an older larkit are tightened; recordings are 0600. A config dir that is a file is a
 * `config` error, not a crash (in-process).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { withEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";
import { inherited, MAIN, REPO } from "./helpers/run_main.ts";

async function runUmask022(args: string[], env: Record<string, string>, stdin?: string) {
  const child = new Deno.Command("/bin/sh", {
    args: ["-c", 'umask 022; exec "$@"', "sh", Deno.execPath(), "run", "-A", "--quiet", MAIN, ...args],
    cwd: REPO,
    env: { ...inherited(), NO_COLOR: "1", LARKIT_REMOTE_META: "off", ...env },
    clearEnv: true,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

const modeOf = async (path: string) => (await Deno.stat(path)).mode! & 0o777;

async function modes(root: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  const walk = async (dir: string) => {
    found[dir.slice(root.length) || "/"] = (await modeOf(dir)).toString(8);
    for await (const e of Deno.readDir(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory) await walk(path);
      else found[path.slice(root.length)] = (await modeOf(path)).toString(8);
    }
  };
  await walk(root);
  return found;
}

Deno.test("under umask 022 config, secrets and recordings are private; looser ones are tightened", async () => {
  await withEmulator({}, async (emu) => {
    const root = await Deno.makeTempDir({ prefix: "larkit-modes-" });
    try {
      const configDir = join(root, "config");
      const env = { LARKIT_CONFIG_DIR: configDir };
      const init = await runUmask022(
        ["config", "init", "--app-id", emu.app.appId, "--app-secret-stdin", "--base-url", emu.url],
        env,
        `${emu.app.appSecret}\n`,
      );
      assert.equal(init.code, 0, init.stderr);
      const recording = join(root, "rec");
      const rec = await runUmask022([
        "--record",
        recording,
        "api",
        "GET",
        "/open-apis/im/v1/chats",
        "--as",
        "bot",
      ], env);
      assert.equal(rec.code, 0, rec.stderr);
      for (const [path, mode] of Object.entries(await modes(configDir))) {
        const isDir = path === "/" || !path.includes(".");
        assert.equal(mode, isDir ? "700" : "600", `${path} is ${mode}`);
      }
      for (const [path, mode] of Object.entries(await modes(recording))) {
        assert.equal(mode, path === "/" ? "700" : "600", `recording ${path} is ${mode}`);
      }

      // An older larkit (or a careless copy) left everything readable: the next run tightens it.
      await Deno.chmod(configDir, 0o755);
      await Deno.chmod(join(configDir, "config.json"), 0o644);
      await Deno.chmod(join(configDir, "secrets"), 0o755);
      await Deno.chmod(join(configDir, "secrets", "master.key"), 0o644);
      const again = await runUmask022(["config", "set", "lang", "en"], env);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(await modeOf(configDir), 0o700);
      assert.equal(await modeOf(join(configDir, "config.json")), 0o600);
      const bot = await runUmask022(["api", "GET", "/open-apis/im/v1/chats", "--as", "bot"], env);
      assert.equal(bot.code, 0, bot.stderr);
      // The secrets are tightened when they are next used.
      assert.equal(await modeOf(join(configDir, "secrets")), 0o700);
      assert.equal(await modeOf(join(configDir, "secrets", "master.key")), 0o600);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
});

Deno.test("LARKIT_CONFIG_DIR pointing at a file is a config error, not internal", async () => {
  const root = await Deno.makeTempDir({ prefix: "larkit-modes-" });
  try {
    const file = join(root, "not-a-dir");
    await Deno.writeTextFile(file, "");
    const commands = [
      ["auth", "status"],
      ["config", "set", "lang", "en"],
      ["config", "init", "--app-id", "cli_x", "--app-secret-stdin"],
      ["calendar", "calendars", "list"],
      ["api", "GET", "/open-apis/calendar/v4/calendars"],
    ];
    for (const args of commands) {
      // In-process: the umask is not what this is about.
      const r = await runCli(args, { configDir: root, env: { LARKIT_CONFIG_DIR: file }, stdin: "secret\n" });
      const error = JSON.parse(r.stderr).error;
      assert.equal(error.type, "config", `${args.join(" ")}: ${r.stderr}`);
      assert.match(error.message, /not a directory/);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
