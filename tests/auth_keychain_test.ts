/**
 * The OS keychain as the secret store (issue 36), against a real Linux Secret Service: a private session bus
 * (`dbus-daemon`) with `gnome-keyring-daemon` on it, larkit run as processes on that bus. `config set
 * secret-store keychain` moves the app secret and the user's tokens into the keychain (none left in the
 * encrypted files), commands keep working from there, `doctor` says so, and `file` moves them back. Without a
 * Secret Service the switch is refused and nothing moves. Skipped, saying why, where the tools are missing
 * (`.ci/run` installs dbus, gnome-keyring and libsecret-tools) or off Linux.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fixtures, startEmulator } from "./helpers/emulator.ts";
import { seedLogin } from "./helpers/login.ts";
import { errorOf, runMain } from "./helpers/run_main.ts";
import { hasTool } from "./helpers/terminal.ts";

const missing = ["dbus-daemon", "gnome-keyring-daemon", "secret-tool"].filter((t) => !hasTool(t));
const why = Deno.build.os !== "linux"
  ? "the Secret Service test runs on Linux"
  : missing.length
  ? `missing ${missing.join(", ")} (CI installs dbus, gnome-keyring, libsecret-tools)`
  : "";
if (why) console.error(`auth_keychain_test: keychain round trip skipped: ${why}`);

/** A session bus and an unlocked gnome-keyring on it, both children of this test, ended by their pids. */
async function secretService(home: string) {
  const bus = await new Deno.Command("dbus-daemon", {
    args: ["--session", "--fork", "--print-address=1", "--print-pid=1"],
    stdout: "piped",
  }).output();
  const [address, pid] = new TextDecoder().decode(bus.stdout).trim().split("\n");
  const env = { DBUS_SESSION_BUS_ADDRESS: address, HOME: home, XDG_RUNTIME_DIR: home };
  const keyring = new Deno.Command("gnome-keyring-daemon", {
    args: ["--foreground", "--unlock", "--components=secrets"],
    env,
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const w = keyring.stdin.getWriter();
  await w.write(new TextEncoder().encode("test-password"));
  await w.close();
  // Ours owns the service name first: a client asking earlier would have the bus start another keyring by
  // D-Bus activation, one that nobody unlocked. NameHasOwner itself activates nothing.
  for (let i = 0;; i++) {
    const owner = await new Deno.Command("dbus-send", {
      args: [
        "--session",
        "--print-reply",
        "--dest=org.freedesktop.DBus",
        "/org/freedesktop/DBus",
        "org.freedesktop.DBus.NameHasOwner",
        "string:org.freedesktop.secrets",
      ],
      env,
      stdout: "piped",
      stderr: "null",
    }).output();
    if (new TextDecoder().decode(owner.stdout).includes("boolean true")) break;
    // Bounded: 30 s, for a machine busy with other work.
    if (i === 600) throw new Error("the keyring did not register on the session bus");
    await new Promise((r) => setTimeout(r, 50));
  }
  // Ready once a secret can be stored (the login collection unlocked with the password given).
  for (let i = 0;; i++) {
    const probe = new Deno.Command("secret-tool", {
      args: ["store", "--label", "probe", "service", "larkit-probe"],
      env,
      // A keyring that wants a person to answer a prompt would wait forever: that is a failure here.
      signal: AbortSignal.timeout(10_000),
      stdin: "piped",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const pw = probe.stdin.getWriter();
    await pw.write(new TextEncoder().encode("probe"));
    await pw.close();
    const done = await probe.output();
    if (done.success) break;
    if (i === 100) {
      throw new Error(`the Secret Service did not come up: ${new TextDecoder().decode(done.stderr)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    env,
    async stop() {
      keyring.kill("SIGTERM");
      await keyring.status;
      Deno.kill(Number(pid), "SIGTERM");
    },
  };
}

const secretFiles = async (configDir: string) =>
  (await Array.fromAsync(Deno.readDir(join(configDir, "secrets")))).map((e) => e.name).filter((n) =>
    n.startsWith("appsecret") || n.startsWith("uat")
  ).sort();

Deno.test({ name: "keychain round trip through a real Secret Service", ignore: why !== "" }, async () => {
  const emu = await startEmulator({});
  const home = await Deno.makeTempDir({ prefix: "larkit-keychain-" });
  const configDir = join(home, "config");
  const service = await secretService(home);
  const larkit = (args: string[], stdin?: string) =>
    runMain(args, { configDir, env: service.env, ...(stdin === undefined ? {} : { stdin }) });
  try {
    const init = await larkit(
      ["config", "init", "--app-id", emu.app.appId, "--app-secret-stdin", "--base-url", emu.url],
      `${emu.app.appSecret}\n`,
    );
    assert.equal(init.code, 0, init.stderr);
    await seedLogin(emu, configDir);
    assert.equal((await secretFiles(configDir)).length, 2, "app secret and user token start in files");

    const moved = await larkit(["config", "set", "secret-store", "keychain"]);
    assert.equal(moved.code, 0, moved.stderr);
    assert.deepEqual(await secretFiles(configDir), [], "nothing left in the encrypted files");
    const looked = await new Deno.Command("secret-tool", {
      args: ["lookup", "service", `larkit:${configDir}`, "username", `appsecret:${emu.app.appId}`],
      env: service.env,
      stdout: "piped",
    }).output();
    assert.equal(
      new TextDecoder().decode(looked.stdout),
      emu.app.appSecret,
      "the app secret is in the keychain",
    );

    const asUser = await larkit(["contact", "+get-user", "--as", "user"]);
    assert.equal(asUser.code, 0, asUser.stderr);
    assert.equal(asUser.json<{ data: { open_id: string } }>().data.open_id, fixtures.USERS.alice.open_id);
    const asBot = await larkit([
      "contact",
      "+get-user",
      "--as",
      "bot",
      "--user-id",
      fixtures.USERS.bob.open_id,
    ]);
    assert.equal(asBot.code, 0, asBot.stderr);

    const doctor = await larkit(["doctor", "--offline"]);
    const checks = doctor.json<{ checks: { name: string; message: string }[] }>().checks;
    assert.match(
      checks.find((c) => c.name === "secret_store")?.message ?? "",
      /OS keychain \(Secret Service\)/,
    );

    const back = await larkit(["config", "set", "secret-store", "file"]);
    assert.equal(back.code, 0, back.stderr);
    assert.equal((await secretFiles(configDir)).length, 2, "back in the encrypted files");
    const gone = await new Deno.Command("secret-tool", {
      args: ["lookup", "service", `larkit:${configDir}`, "username", `appsecret:${emu.app.appId}`],
      env: service.env,
      stdout: "piped",
    }).output();
    assert.equal(new TextDecoder().decode(gone.stdout), "", "and no longer in the keychain");
    assert.equal((await larkit(["contact", "+get-user", "--as", "user"])).code, 0);
  } finally {
    await service.stop();
    await emu.stop();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test({
  name: "without a Secret Service, secret-store keychain is refused and nothing moves",
  ignore: Deno.build.os !== "linux",
}, async () => {
  const emu = await startEmulator({});
  const home = await Deno.makeTempDir({ prefix: "larkit-nokeychain-" });
  const configDir = join(home, "config");
  // No session bus at all: a headless machine.
  const env = { HOME: home, DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(home, "no-bus")}` };
  try {
    const init = await runMain(
      ["config", "init", "--app-id", emu.app.appId, "--app-secret-stdin", "--base-url", emu.url],
      { configDir, env, stdin: `${emu.app.appSecret}\n` },
    );
    assert.equal(init.code, 0, init.stderr);
    const r = await runMain(["config", "set", "secret-store", "keychain"], { configDir, env });
    const err = errorOf(r);
    assert.equal(err.type, "config");
    assert.match(err.message, /the OS keychain cannot be used/);
    assert.match(String(err.hint), /config set secret-store file/);
    assert.equal((await secretFiles(configDir)).length, 1, "the app secret stays in its file");
    const show = await runMain(["config", "show"], { configDir, env });
    assert.equal(show.code, 0, show.stderr);
  } finally {
    await emu.stop();
    await Deno.remove(home, { recursive: true });
  }
});
