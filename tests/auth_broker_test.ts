/**
 * The token broker (issue 36): `auth serve` holds a logged-in profile; a sandboxed larkit whose config dir is
 * empty runs through it with LARKIT_AUTH_BROKER, gets a token per request within the policy, is refused
 * outside it with a `permission` error naming the policy, and ends with no secret on its filesystem. The
 * broker's socket is 0600 even under a umask of 0, and it logs every grant and refusal.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { describePolicy, refusal } from "../cli/auth/broker.ts";
import { type Emulator, fixtures, startEmulator } from "./helpers/emulator.ts";
import { initAndLogin } from "./helpers/login.ts";
import { errorOf, runCli, type RunResult } from "./helpers/run_cli.ts";
import { until } from "./helpers/until.ts";

const { bob } = fixtures.USERS;

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...await filesUnder(path));
    else out.push(path);
  }
  return out;
}

function issued(emu: Emulator): string[] {
  const rows = (sql: string) => (emu.db.prepare(sql).all() as { token: string }[]).map((r) => r.token);
  return [emu.app.appSecret, ...rows("SELECT token FROM refresh_tokens")];
}

Deno.test("a sandboxed run gets tokens from the broker within its policy, and holds no secret", async () => {
  const emu = await startEmulator({});
  const home = await Deno.makeTempDir({ prefix: "larkit-broker-home-" });
  const sandbox = await Deno.makeTempDir({ prefix: "larkit-broker-box-" });
  const socket = join(await Deno.makeTempDir({ prefix: "lkb-" }), "b.sock");
  const stop = new AbortController();
  let serving: Promise<RunResult> | undefined;
  try {
    await initAndLogin(emu, home);
    // A umask that would leave the socket open to everyone: the broker sets 0600 itself.
    const umask = Deno.umask(0o000);
    try {
      serving = runCli(
        ["auth", "serve", "--socket", socket, "--allow-service", "contact,authen", "--read-only"],
        { configDir: home, signal: stop.signal },
      );
      await until("the broker listens", async () => (await Deno.lstat(socket).catch(() => null)) !== null);
    } finally {
      Deno.umask(umask);
    }
    assert.equal((await Deno.stat(socket)).mode! & 0o777, 0o600);

    const env = { LARKIT_AUTH_BROKER: `unix:${socket}` };
    const boxed = (args: string[]) => runCli(args, { configDir: sandbox, env });
    const read = await boxed(["contact", "+get-user", "--user-id", bob.open_id, "--as", "user"]);
    assert.equal(read.code, 0, read.stderr);
    // As the user, +get-user reads users/basic_batch, which answers with the id asked for as `user_id`.
    assert.equal(read.json<{ data: { user_id: string } }>().data.user_id, bob.open_id);
    const me = await boxed(["contact", "+get-user", "--as", "user"]);
    assert.equal(me.json<{ identity: string }>().identity, "user");

    const status = await boxed(["auth", "status"]);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.json<{ data: { source: string } }>().data.source, /^broker:/);

    const otherService = errorOf(await boxed(["calendar", "+agenda", "--as", "user"]));
    assert.deepEqual([otherService.type, otherService.subtype], ["authorization", "permission"]);
    assert.match(otherService.message, /policy \(--allow-service contact,authen --read-only\)/);
    assert.match(otherService.message, /service calendar is not allowed/);

    const write = errorOf(
      await boxed([
        "api",
        "PATCH",
        `/open-apis/contact/v3/users/${bob.open_id}`,
        "--data",
        '{"name":"B"}',
        "--as",
        "user",
      ]),
    );
    assert.equal(write.subtype, "permission");
    assert.match(write.message, /only reads are allowed/);

    // The sandbox saw tokens for single requests only: no secret, no refresh token, no key on its disk.
    const secrets = issued(emu);
    for (const file of await filesUnder(sandbox)) {
      const text = new TextDecoder().decode(await Deno.readFile(file));
      for (const s of secrets) assert.ok(!text.includes(s), `${file} holds a secret`);
      assert.ok(!file.endsWith(".enc") && !file.endsWith("master.key"), file);
    }
  } finally {
    stop.abort();
    await serving;
    await emu.stop();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(sandbox, { recursive: true });
  }
  const log = (await serving!).stderr;
  assert.match(
    log,
    /broker: granted user token for POST \/open-apis\/contact\/v3\/users\/basic_batch \(contact\.users\.basic_batch, read\)/,
  );
  assert.match(
    log,
    /broker: refused user token for POST \/open-apis\/calendar\/\S+ \(calendar\.calendars\.primary, read\): service calendar/,
  );
  assert.equal(await Deno.lstat(socket).catch(() => null), null, "the socket is removed at the end");
});

Deno.test("the broker without a reachable socket is an auth error, never a fallback to local credentials", async () => {
  const dir = await Deno.makeTempDir({ prefix: "larkit-broker-none-" });
  const r = await runCli(["contact", "+get-user", "--as", "bot", "--user-id", bob.open_id], {
    configDir: dir,
    env: {
      LARKIT_AUTH_BROKER: `unix:${join(dir, "nobody.sock")}`,
      LARKIT_APP_ID: "cli_x",
      LARKIT_APP_SECRET: "s",
    },
  });
  const err = errorOf(r);
  assert.equal(err.subtype, "auth");
  assert.match(err.message, /token broker .* does not answer/);
  const bad = errorOf(
    await runCli(["auth", "status"], { configDir: dir, env: { LARKIT_AUTH_BROKER: "tcp:1" } }),
  );
  assert.equal(bad.type, "config");
  // The sandbox cannot pick another user than the broker's: refused, not silently ignored.
  const other = errorOf(
    await runCli(["--user", "Bob Li", "auth", "status"], {
      configDir: dir,
      env: { LARKIT_AUTH_BROKER: `unix:${join(dir, "nobody.sock")}` },
    }),
  );
  assert.match(other.message, /--user \/ LARKIT_USER does not apply through the token broker/);
});

Deno.test("the policy: services and read-only, and a token without a request only when unrestricted", () => {
  const policy = { services: ["contact"], readOnly: true };
  assert.equal(describePolicy(policy), "--allow-service contact --read-only");
  assert.equal(refusal(policy, { service: "contact", risk: "read" }), undefined);
  assert.match(String(refusal(policy, { service: "im", risk: "read" })), /service im/);
  assert.match(String(refusal(policy, { service: "contact", risk: "write" })), /only reads/);
  assert.match(String(refusal(policy, undefined)), /without a request/);
  assert.equal(refusal({ readOnly: false }, undefined), undefined);
});
