/**
 * larkit's sockets and state files are this user's only, whatever the umask or what was put in their place:
 * `app-server --listen unix:PATH` anywhere binds 0600 (checked through main.ts under `umask 000`, where the
 * socket used to be 0777 and any local user could run `command/exec` through it), and a state file that is a
 * hard link or another user's is refused instead of being used (and chmod-ed through its other name).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { listenPrivateUnix, makePrivate } from "../cli/files.ts";
import { LarkitError } from "../cli/output/errors.ts";
import { openStateDb } from "../rpc/state_db.ts";
import { probeSocket } from "../rpc/transports/unix.ts";
import { inherited, MAIN, REPO } from "./helpers/run_main.ts";
import { until } from "./helpers/until.ts";

Deno.test("app-server --listen unix:PATH outside the state dir, under umask 000: the socket is 0600", async () => {
  const dir = await Deno.makeTempDir({ prefix: "larkit-sock-" });
  await Deno.chmod(dir, 0o777);
  const socket = join(dir, "open.sock");
  const child = new Deno.Command("sh", {
    args: [
      "-c",
      'umask 000; exec "$0" run -A --quiet "$1" app-server --listen "unix:$2"',
      Deno.execPath(),
      MAIN,
      socket,
    ],
    cwd: REPO,
    env: { ...inherited(), NO_COLOR: "1", LARKIT_CONFIG_DIR: join(dir, "config"), LARKIT_REMOTE_META: "off" },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  try {
    await until("the socket answers", async () => await probeSocket(socket) === "live", 30_000);
    const info = await Deno.lstat(socket);
    assert.ok(info.isSocket);
    assert.equal(info.mode! & 0o777, 0o600, `mode ${(info.mode! & 0o777).toString(8)}`);
    assert.equal(info.uid, Deno.uid());
    // The socket answers from the moment it is renamed into place; the private directory it was bound in is
    // removed right after, in the same synchronous step of the server, which may not have run yet.
    const names = () => [...Deno.readDirSync(dir)].map((e) => e.name).sort().join(",");
    await until("only the config and the socket are left", () => names() === "config,open.sock", 5_000)
      .catch(() => assert.equal(names(), "config,open.sock"));
  } finally {
    child.kill("SIGTERM");
    await child.output();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a state file that is a hard link is refused, and its other name keeps its mode", async () => {
  const dir = await Deno.makeTempDir({ prefix: "larkit-state-" });
  try {
    const stateDir = join(dir, "state");
    await Deno.mkdir(stateDir, { mode: 0o700 });
    const elsewhere = join(dir, "world-readable.db");
    await Deno.writeTextFile(elsewhere, "");
    await Deno.chmod(elsewhere, 0o644);
    await Deno.link(elsewhere, join(stateDir, "state.db"));
    assert.throws(
      () => openStateDb(stateDir),
      (e) => e instanceof LarkitError && e.type === "config" && /hard links/.test(e.message),
    );
    assert.equal((await Deno.stat(elsewhere)).mode! & 0o777, 0o644, "not chmod-ed through the link");
    assert.equal((await Deno.stat(elsewhere)).size, 0, "nothing written into it");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "a state file or directory owned by another user is refused",
  // Handing a file to another user takes root; elsewhere the check is the same code path as the hard link's.
  ignore: Deno.uid() !== 0,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "larkit-state-" });
    try {
      const file = join(dir, "state.db");
      await Deno.writeTextFile(file, "");
      await Deno.chown(file, 65534, 65534);
      assert.throws(() => makePrivate(file, "file"), /belongs to another user/);
      const other = join(dir, "other");
      await Deno.mkdir(other);
      await Deno.chown(other, 65534, 65534);
      assert.throws(() => makePrivate(other, "dir"), /belongs to another user/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("a socket that cannot be bound privately is no socket: the listener fails closed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "larkit-sock-" });
  try {
    // A directory where the private bind directory cannot be made (a file stands in the parent's place).
    await Deno.writeTextFile(join(dir, "file"), "");
    assert.throws(
      () => listenPrivateUnix(join(dir, "file", "x.sock")),
      (e) =>
        e instanceof LarkitError && e.type === "config" && /cannot listen on .* privately/.test(e.message),
    );
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["file"], "nothing left behind");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
