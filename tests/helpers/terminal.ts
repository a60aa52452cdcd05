/**
 * Real terminals for tests: whether a tool is installed (tests needing one skip, saying so, where it is missing)
 * and a private tmux server running one shell with `larkit` on PATH (this checkout, through deno). Every wait is
 * bounded.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { MAIN, REPO } from "./run_main.ts";

/** Whether `tool` is on PATH. */
export function hasTool(tool: string): boolean {
  try {
    return new Deno.Command("sh", { args: ["-c", `command -v ${tool}`], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

const WAIT_MS = 30_000;

/**
 * A `width` x 40 tmux screen running `shell`, in a fresh temporary HOME whose larkit config dir is `config`;
 * `close` kills the server and removes the directory.
 */
export async function terminal(width: number, shell: string[]) {
  const dir = await Deno.makeTempDir({ prefix: "larkit-tmux-" });
  const bin = join(dir, "bin");
  await Deno.mkdir(bin);
  await Deno.writeTextFile(
    join(bin, "larkit"),
    `#!/bin/sh\nexec "${Deno.execPath()}" run -A --quiet --config "${
      join(REPO, "deno.json")
    }" "${MAIN}" "$@"\n`,
    { mode: 0o755 },
  );
  const socket = `larkit-${crypto.randomUUID()}`;
  const config = join(dir, "config");
  const env = {
    PATH: `${bin}:${Deno.env.get("PATH")}`,
    HOME: dir,
    TERM: "xterm-256color",
    LARKIT_CONFIG_DIR: config,
    LARKIT_REMOTE_META: "off",
    DENO_DIR: Deno.env.get("DENO_DIR") ?? "",
    NO_COLOR: "1",
    TZ: "UTC",
  };
  const tmux = async (...args: string[]) => {
    const out = await new Deno.Command("tmux", {
      args: ["-L", socket, ...args],
      env,
      clearEnv: true,
      stderr: "piped",
      stdout: "piped",
    })
      .output();
    return new TextDecoder().decode(out.stdout);
  };
  await tmux("-f", "/dev/null", "new-session", "-d", "-x", String(width), "-y", "40", ...shell);
  await tmux("set-option", "-g", "status", "off");
  const screen = () => tmux("capture-pane", "-p", "-J");
  return {
    dir,
    config,
    screen,
    keys: (...keys: string[]) => tmux("send-keys", ...keys),
    type: (text: string) => tmux("send-keys", "-l", text),
    async until(pattern: RegExp): Promise<string> {
      const deadline = Date.now() + WAIT_MS;
      let text = "";
      while (Date.now() < deadline) {
        text = await screen();
        if (pattern.test(text)) return text;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.fail(`no ${pattern} on the screen within ${WAIT_MS} ms:\n${text}`);
    },
    async close() {
      await tmux("kill-server");
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
