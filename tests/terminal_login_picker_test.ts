/**
 * Issue 36: `auth login` at a real terminal (tmux) with no flag asks which services to log in for, with a
 * prompt library's multiple-choice list; the login then asks for exactly what the picked service's shortcuts
 * declare. Off a terminal the same command is a `validation` error naming the flags
 * (tests/auth_login_domains_test.ts). Skipped, saying so, where tmux is missing (`.ci/run` installs it).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { SHORTCUT_SERVICES } from "../shortcuts/index.ts";
import { startEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";
import { hasTool, terminal } from "./helpers/terminal.ts";

const ignore = !hasTool("tmux");
if (ignore) console.error("terminal_login_picker_test: skipped, tmux is missing (CI installs it)");

Deno.test(
  { name: "tmux: auth login without flags picks services from a list, then logs in", ignore },
  async () => {
    const emu = await startEmulator({});
    const t = await terminal(120, ["bash", "--norc", "--noprofile"]);
    try {
      const init = await runCli(
        ["config", "init", "--app-id", emu.app.appId, "--app-secret-stdin", "--base-url", emu.url],
        { configDir: t.config, stdin: `${emu.app.appSecret}\n` },
      );
      assert.equal(init.code, 0, init.stderr);
      await t.type(`larkit auth login > ${join(t.dir, "out.json")}; echo __done__`);
      await t.keys("Enter");
      await t.until(/Log in for which services\?/);
      const first = Object.keys(SHORTCUT_SERVICES)[0];
      assert.match(await t.screen(), new RegExp(first));
      await t.keys("Space");
      await t.keys("Enter");
      await t.until(/Open this URL in your browser/);

      const asked = emu.requests().find((r) => r.path === "/oauth/v1/device_authorization")?.body as {
        scope: string;
      };
      const declared = new Set<string>();
      for (const s of await SHORTCUT_SERVICES[first].load()) {
        for (const x of s.scopes.user ?? []) {
          declared.add(x);
        }
      }
      assert.deepEqual(
        asked.scope.split(" ").filter((s) => s !== "offline_access").sort(),
        [...declared].sort(),
      );
      const row = emu.db.prepare("SELECT device_code FROM device_codes WHERE status = 'pending'").get() as {
        device_code: string;
      };
      emu.approveDevice(row.device_code);
      await t.until(/^__done__/m);
      assert.match(await t.screen(), /OK: Authorization successful! User: Alice Chen/);
      const out = JSON.parse(await Deno.readTextFile(join(t.dir, "out.json")));
      assert.equal(out.data.counts.granted, declared.size + 1);
    } finally {
      await t.close();
      await emu.stop();
    }
  },
);
