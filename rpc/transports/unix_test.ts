import assert from "node:assert/strict";
import { join } from "node:path";
import { testProvider } from "../../cli/test_provider.ts";
import { createAppServer } from "../server.ts";
import { listenUnix, probeSocket } from "./unix.ts";

Deno.test("a stale socket file is removed and listened on; a live one is refused", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "rpc.sock");
  // Deno unlinks a socket file on close, so a stale one (what a killed server leaves) is made by moving the
  // file away from its listener before closing it.
  const dead = Deno.listen({ transport: "unix", path: join(dir, "tmp.sock") });
  await Deno.rename(join(dir, "tmp.sock"), path);
  dead.close();
  assert.equal(await probeSocket(path), "stale");

  const server = createAppServer({ provider: testProvider(), runner: () => Promise.resolve(0) });
  const listener = await listenUnix(server, path);
  assert.equal(await probeSocket(path), "live");
  await assert.rejects(() => listenUnix(server, path), /in use/);
  await listener.close();
  assert.equal(await probeSocket(path), "absent");
  await server.close();
});

Deno.test("the socket is 0600 under umask 000, and never visible under another mode on the way", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "rpc.sock");
  const server = createAppServer({ provider: testProvider(), runner: () => Promise.resolve(0) });
  const old = Deno.umask(0o000);
  try {
    const listener = await listenUnix(server, path);
    assert.equal((await Deno.lstat(path)).mode! & 0o777, 0o600);
    assert.deepEqual(
      [...Deno.readDirSync(dir)].map((e) => e.name),
      ["rpc.sock"],
      "the bind directory is gone",
    );
    assert.equal(await probeSocket(path), "live");
    await listener.close();
  } finally {
    Deno.umask(old);
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
