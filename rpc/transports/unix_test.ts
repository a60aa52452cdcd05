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
