/**
 * Credential extension providers are programs, run as a subprocess with a JSON request on stdin: never
 * imported. The old attack — a `.js` module dropped where turns download files, then listed as a provider —
 * must never run (its marker file stays absent), whether listed through `config set` or written into the
 * config file by hand. The legitimate path (a program outside the state directory) answers, passes, fails
 * clearly, and re-mints a token the suite rejected through `invalidate`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadConfig, saveConfig } from "../cli/config/config_file.ts";
import { testProvider } from "../cli/test_provider.ts";
import { type Emulator, startEmulator, tenantToken } from "./helpers/emulator.ts";
import { runCli, type RunOptions, type RunResult } from "./helpers/run_cli.ts";

async function withHarness(
  fn: (
    h: { emu: Emulator; dir: string; run: (a: string[], o?: RunOptions) => Promise<RunResult> },
  ) => Promise<void>,
): Promise<void> {
  const emu = await startEmulator({});
  const dir = await Deno.makeTempDir({ prefix: "larkit-ext-" });
  try {
    await fn({ emu, dir, run: (args, o = {}) => runCli(args, { configDir: join(dir, "config"), ...o }) });
  } finally {
    await emu.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

async function configure(h: { emu: Emulator; run: (a: string[], o?: RunOptions) => Promise<RunResult> }) {
  const r = await h.run(
    ["config", "init", "--app-id", h.emu.app.appId, "--app-secret-stdin", "--base-url", h.emu.url],
    { stdin: `${h.emu.app.appSecret}\n` },
  );
  assert.equal(r.code, 0, r.stderr);
}

async function writeProgram(path: string, body: string): Promise<string> {
  await Deno.writeTextFile(path, `#!/bin/sh\n${body}\n`);
  await Deno.chmod(path, 0o755);
  return path;
}

/** A module in the old format: importing it writes the marker. It must never be imported. */
function attackModule(marker: string): string {
  return `Deno.writeTextFileSync(${JSON.stringify(marker)}, "imported");
export default function () { Deno.writeTextFileSync(${JSON.stringify(marker)}, "called"); return null; }
`;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("a provider program answers account and token, and re-mints a rejected token via invalidate", async () => {
  await withHarness(async (h) => {
    await configure(h);
    const good = await tenantToken(h.emu);
    const log = join(h.dir, "requests.log");
    const state = join(h.dir, "invalidated");
    // The first token handed out is one the suite rejects; after `invalidate`, the real one.
    const program = await writeProgram(
      join(h.dir, "vault"),
      `req=$(cat)
printf '%s\\n' "$req" >> ${log}
case "$req" in
  *'"invalidate"'*) touch ${state}; printf '{"version":1,"invalidated":true}' ;;
  *'"account"'*) printf '{"version":1,"account":{"name":"vault","appId":"cli_vault","brand":"custom","baseUrl":"${h.emu.url}","identities":["bot"],"scopes":{"bot":["im:chat:read"]}}}' ;;
  *'"token"'*) if [ -e ${state} ]; then t=${good}; else t=t-revoked-by-the-suite; fi
     printf '{"version":1,"token":"%s","expiresAt":9999999999999}' "$t" ;;
esac`,
    );
    assert.equal((await h.run(["config", "set", "credential-providers", program])).code, 0);

    const status = await h.run(["auth", "status", "--verify"]);
    assert.equal(status.code, 0, status.stderr);
    const data = status.json<{ data: Record<string, unknown> }>().data;
    assert.equal(data.source, "extension:vault");
    assert.equal(data.appId, "cli_vault");
    assert.deepEqual(data.verified, ["bot"]);
    const call = await h.run(["api", "GET", "/open-apis/im/v1/chats", "--as", "bot"]);
    assert.equal(call.code, 0, call.stderr);
    const requests = (await Deno.readTextFile(log)).trim().split("\n").map((l) => JSON.parse(l));
    // status: account + token (handed out unverified); the call: account, token, rejected, invalidate, token.
    assert.deepEqual(requests.map((r) => r.action), [
      "account",
      "token",
      "account",
      "token",
      "invalidate",
      "token",
    ]);
    assert.deepEqual(requests[4], {
      version: 1,
      action: "invalidate",
      identity: "bot",
      token: "t-revoked-by-the-suite",
    });
    for (const out of [status.stdout, status.stderr, call.stdout, call.stderr]) {
      assert.ok(!out.includes(good), "the token never leaks");
    }
  });
});

Deno.test("a provider that passes, fails, answers garbage or floods stdout gives a clear error", async () => {
  await withHarness(async (h) => {
    await configure(h);
    const set = async (body: string) => {
      const program = await writeProgram(join(h.dir, `p${crypto.randomUUID()}`), body);
      assert.equal((await h.run(["config", "set", "credential-providers", program])).code, 0);
    };

    await set(`cat >/dev/null; printf '{"version":1,"account":null}'`);
    const passed = await h.run(["auth", "status"]);
    assert.equal(passed.json<{ data: { source: string } }>().data.source, "config");

    await set(`cat >/dev/null; echo "starting" >&2; echo "the vault is locked" >&2; exit 3`);
    const locked = await h.run(["auth", "status"]);
    assert.equal(locked.code, 3);
    assert.match(locked.errorJson().error.message, /failed \(account\): the vault is locked$/);
    assert.match(String(locked.errorJson().error.hint), /credential-providers/);

    await set(`cat >/dev/null; echo 'not json'`);
    const garbage = await h.run(["auth", "status"]);
    assert.equal(garbage.errorJson().error.type, "config");
    assert.match(garbage.errorJson().error.message, /not JSON/);

    await set(`cat >/dev/null; printf '{"version":1,"account":{"identities":[]}}'`);
    const malformed = await h.run(["auth", "status"]);
    assert.equal(malformed.errorJson().error.type, "config");
    assert.match(malformed.errorJson().error.message, /malformed account answer: account\.identities/);

    await set(`cat >/dev/null; head -c 200000 /dev/zero | tr '\\0' x`);
    const flood = await h.run(["auth", "status"]);
    assert.equal(flood.code, 3);
    assert.match(flood.errorJson().error.message, /larger than 65536 bytes; it was stopped/);
  });
});

Deno.test("the import() attack: a module in the state dir or a workspace is never run nor imported", async () => {
  await withHarness(async (h) => {
    await configure(h);
    const configDir = join(h.dir, "config");
    const stateDir = join(configDir, "state");
    const workspace = join(stateDir, "workspaces", "thr_1");
    await Deno.mkdir(workspace, { recursive: true });
    const marker = join(h.dir, "marker");
    const planted = join(workspace, "shared_file.js");
    await Deno.writeTextFile(planted, attackModule(marker));
    await Deno.chmod(planted, 0o755);

    // Through the command: refused before anything is saved.
    const refused = await h.run(["config", "set", "credential-providers", planted]);
    assert.equal(refused.code, 3, refused.stderr);
    assert.equal(refused.errorJson().error.type, "config");
    assert.match(refused.errorJson().error.message, /inside larkit's state directory/);
    assert.equal(
      (await loadConfig(testProvider({ env: { LARKIT_CONFIG_DIR: configDir } })))?.credentialProviders,
      undefined,
    );

    // A symlink from elsewhere into the workspace is judged by where it leads.
    const link = join(h.dir, "innocent.js");
    await Deno.symlink(planted, link);
    assert.equal((await h.run(["config", "set", "credential-providers", link])).code, 3);

    // Written into the config file behind larkit's back: refused again before every run.
    const p = testProvider({ env: { LARKIT_CONFIG_DIR: configDir } });
    const config = await loadConfig(p);
    assert.ok(config);
    for (const entry of [planted, link, "state/workspaces/thr_1/shared_file.js"]) {
      await saveConfig(p, { ...config, credentialProviders: [entry] });
      const r = await h.run(["auth", "status"]);
      assert.equal(r.code, 3, r.stderr);
      assert.equal(r.errorJson().error.type, "config");
    }

    // An old-style module outside the state dir is not a program: a clear error, and still never imported.
    const module = join(h.dir, "vault_provider.ts");
    await Deno.writeTextFile(module, attackModule(marker));
    await saveConfig(p, { ...config, credentialProviders: [module] });
    const notProgram = await h.run(["auth", "status"]);
    assert.equal(notProgram.errorJson().error.type, "config");
    assert.match(notProgram.errorJson().error.message, /cannot be run/);

    assert.equal(await exists(marker), false, "the planted module never ran");
  });
});

Deno.test("a hard link into the state directory is refused as a provider, like a symlink", async () => {
  await withHarness(async (h) => {
    await configure(h);
    const configDir = join(h.dir, "config");
    const workspace = join(configDir, "state", "workspaces", "thr_1");
    await Deno.mkdir(workspace, { recursive: true });
    const marker = join(h.dir, "marker");
    const planted = await writeProgram(
      join(workspace, "downloaded"),
      `touch ${marker}; cat >/dev/null; exit 1`,
    );
    const link = join(h.dir, "innocent");
    await Deno.link(planted, link);
    const refused = await h.run(["config", "set", "credential-providers", link]);
    assert.equal(refused.code, 3, refused.stderr);
    assert.equal(refused.errorJson().error.type, "config");
    assert.match(refused.errorJson().error.message, /hard links/);

    // Written into the config file behind larkit's back: refused before the run, so it never runs.
    const p = testProvider({ env: { LARKIT_CONFIG_DIR: configDir } });
    const config = await loadConfig(p);
    assert.ok(config);
    await saveConfig(p, { ...config, credentialProviders: [link] });
    const run = await h.run(["auth", "status"]);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.errorJson().error.message, /hard links/);
    assert.equal(await exists(marker), false, "the linked program never ran");
  });
});

Deno.test("a provider token with CR/LF, ESC or other control characters is a clear auth error", async () => {
  await withHarness(async (h) => {
    await configure(h);
    for (
      const [what, token] of [["CR/LF", "t-1\\r\\nX-Injected: 1"], ["ESC", "t-1\\u001b[31m"], [
        "NUL",
        "t\\u0000",
      ]]
    ) {
      const program = await writeProgram(
        join(h.dir, `p${crypto.randomUUID()}`),
        `req=$(cat)
case "$req" in
  *'"account"'*) printf '{"version":1,"account":{"name":"vault","appId":"cli_vault","brand":"custom","baseUrl":"${h.emu.url}","identities":["bot"]}}' ;;
  *'"token"'*) printf '%s' '{"version":1,"token":"${token}","expiresAt":9999999999999}' ;;
  *) printf '{"version":1,"invalidated":false}' ;;
esac`,
      );
      assert.equal((await h.run(["config", "set", "credential-providers", program])).code, 0);
      h.emu.clearRequests();
      const call = await h.run(["api", "GET", "/open-apis/im/v1/chats", "--as", "bot"]);
      assert.equal(call.code, 3, `${what}: ${call.stderr}`);
      const error = call.errorJson().error;
      assert.deepEqual([error.type, error.subtype], ["authentication", "auth"], `${what}: ${call.stderr}`);
      assert.match(error.message, /credential provider "vault" returned a bot token with control characters/);
      assert.equal(h.emu.requests().length, 0, `${what}: no request was sent with it`);
    }
  });
});
