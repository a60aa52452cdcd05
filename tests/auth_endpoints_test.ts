/**
 * A base URL off the suite's domains would receive every bearer token and the app secret, so it is refused
 * unless confirmed at a terminal; the trap (a recording network) proves nothing was ever sent there.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig, saveConfig } from "../cli/config/config_file.ts";
import type { FetchFn } from "../cli/provider.ts";
import { testProvider } from "../cli/test_provider.ts";
import { withEmulator } from "./helpers/emulator.ts";
import { errorOf, loopbackFetch, runCli, type RunOptions } from "./helpers/run_cli.ts";

Deno.test("config set base-url refuses untrusted hosts, and no request ever reaches them", async () => {
  await withEmulator({}, async (emu) => {
    const dir = await Deno.makeTempDir({ prefix: "larkit-endpoint-" });
    const configDir = join(dir, "config");
    const hosts: string[] = [];
    const trap: FetchFn = (input, init) => {
      hosts.push(new URL(input instanceof Request ? input.url : input).host);
      return loopbackFetch(input, init);
    };
    const run = (args: string[], opts: RunOptions & { inTurn?: boolean } = {}) =>
      runCli(args, {
        ...opts,
        configDir,
        fetch: trap,
        approver: opts.inTurn ? () => Promise.resolve("accept") : undefined,
      });
    const chats = ["api", "GET", "/open-apis/im/v1/chats", "--as", "bot"];
    try {
      const init = await run(
        ["config", "init", "--app-id", emu.app.appId, "--app-secret-stdin", "--base-url", emu.url],
        { stdin: `${emu.app.appSecret}\n` },
      );
      assert.equal(init.code, 0, init.stderr);

      for (
        const url of ["http://evil.example", "https://evil.example", "https://open.feishu.cn.evil.example"]
      ) {
        const r = await run(["config", "set", "base-url", url]);
        assert.equal(r.code, 2, r.stderr);
        assert.equal(errorOf(r).type, "validation");
        if (url.startsWith("https")) assert.match(errorOf(r).hint ?? "", /--allow-untrusted-endpoint/);
      }
      const p = testProvider({ env: { LARKIT_CONFIG_DIR: configDir } });
      assert.equal((await loadConfig(p))?.profiles[0].baseUrl, emu.url, "nothing was saved");
      assert.equal((await run(chats)).code, 0);

      // Inside an agent-server turn the confirmation itself is refused.
      const turn = await run(
        ["config", "set", "base-url", "https://evil.example", "--allow-untrusted-endpoint"],
        { inTurn: true },
      );
      assert.notEqual(turn.code, 0);
      assert.equal((await loadConfig(p))?.profiles[0].baseUrl, emu.url);
      // Nor may a turn pick another endpoint or a provider program, trusted or not.
      for (const args of [["base-url", "http://127.0.0.1:1"], ["credential-providers", "/bin/true"]]) {
        const refused = await run(["config", "set", ...args], { inTurn: true });
        assert.equal(errorOf(refused).subtype, "permission", refused.stderr);
      }
      assert.equal((await loadConfig(p))?.profiles[0].baseUrl, emu.url);
      assert.equal((await loadConfig(p))?.credentialProviders, undefined);

      // Edited into the file by hand: every command fails before a request leaves.
      const config = await loadConfig(p);
      assert.ok(config);
      await saveConfig(p, {
        ...config,
        profiles: config.profiles.map((x) => ({ ...x, baseUrl: "https://evil.example" })),
      });
      const edited = await run(chats);
      assert.equal(edited.code, 2);
      assert.equal(errorOf(edited).type, "validation");
      assert.ok(!hosts.includes("evil.example"), `requests went to: ${hosts.join(", ")}`);
      await saveConfig(p, config);

      // Confirmed at a terminal: recorded for that origin, and used.
      const confirmed = await run([
        "config",
        "set",
        "base-url",
        "https://evil.example",
        "--allow-untrusted-endpoint",
      ]);
      assert.equal(confirmed.code, 0, confirmed.stderr);
      assert.equal((await loadConfig(p))?.profiles[0].confirmedEndpoint, "https://evil.example");
      await run(chats);
      assert.ok(hosts.includes("evil.example"), "the confirmed host is used");

      // A new base URL drops the old confirmation.
      assert.equal((await run(["config", "set", "base-url", emu.url])).code, 0);
      assert.equal((await loadConfig(p))?.profiles[0].confirmedEndpoint, undefined);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("config init and profile add take an untrusted base URL only with --allow-untrusted-endpoint", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-endpoint-" });
  const p = testProvider({ env: { LARKIT_CONFIG_DIR: configDir } });
  const init = [
    "config",
    "init",
    "--app-id",
    "cli_x",
    "--app-secret-stdin",
    "--base-url",
    "https://proxy.example",
  ];
  const refused = await runCli(init, { configDir, stdin: "s\n" });
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(String(errorOf(refused).hint), /--allow-untrusted-endpoint/);
  assert.equal(await loadConfig(p), undefined, "nothing saved");

  const confirmed = await runCli([...init, "--allow-untrusted-endpoint"], { configDir, stdin: "s\n" });
  assert.equal(confirmed.code, 0, confirmed.stderr);
  assert.equal((await loadConfig(p))?.profiles[0].confirmedEndpoint, "https://proxy.example");
  const shown = await runCli(["config", "show"], { configDir });
  assert.equal(shown.code, 0, shown.stderr);

  const loopback = await runCli(
    [
      "profile",
      "add",
      "--name",
      "emu",
      "--app-id",
      "cli_y",
      "--app-secret-stdin",
      "--base-url",
      "http://127.0.0.1:1",
    ],
    { configDir, stdin: "s\n" },
  );
  assert.equal(loopback.code, 0, loopback.stderr);
  const emuProfile = (await loadConfig(p))?.profiles.find((x) => x.name === "emu");
  assert.equal(emuProfile?.confirmedEndpoint, undefined, "a loopback origin needs no confirmation");
  await Deno.remove(configDir, { recursive: true });
});
