/**
 * The daemon's client side against a real remote-control host served on a Unix socket in this process:
 * enable-and-settle, errors carried back as larkit errors, `daemon/shutdown` kept from remote devices.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { testProvider } from "../cli/test_provider.ts";
import { listenUnix } from "../rpc/transports/unix.ts";
import {
  daemonArgv,
  DaemonClient,
  daemonSocketPath,
  enableAndSettle,
  reachDaemon,
  RELAY_BACKOFF_ENV,
  relayTimingFromEnv,
  shutdownMethods,
} from "./daemon.ts";
import { DevRelay } from "./dev_relay.ts";
import type { RelayAccount } from "./enroll.ts";
import { testHost } from "../tests/helpers/relay_host.ts";
import { pairRemoteClient } from "../tests/helpers/pair_device.ts";

async function withDaemon(
  account: RelayAccount,
  fn: (ctx: { client: DaemonClient; relay: DevRelay; shutdowns: () => number }) => Promise<void>,
): Promise<void> {
  const relay = DevRelay.start();
  let shutdowns = 0;
  const { provider: p, host } = testHost(relay.baseUrl, {
    getAccount: () => Promise.resolve(account),
    methods: shutdownMethods(() => shutdowns++),
  });
  const socket = join(p.paths.configDir, "d.sock");
  await Deno.mkdir(p.paths.configDir, { recursive: true });
  const listener = await listenUnix(host.appServer, socket);
  const client = await DaemonClient.connect(socket, "test");
  try {
    await fn({ client, relay, shutdowns: () => shutdowns });
  } finally {
    client.close();
    await listener.close();
    await host.close();
    await relay.close();
  }
}

const USER: RelayAccount = { accountId: "acct-1", accessToken: "tok", kind: "user" };

Deno.test("enableAndSettle waits for connected; a failing relay settles as connecting with the last error", async () => {
  await withDaemon(USER, async ({ client, relay }) => {
    const p = testProvider();
    const up = await enableAndSettle(client, p.clock, 10_000);
    assert.equal(up.timedOut, false);
    assert.deepEqual([up.status.status, up.status.environmentId], ["connected", "env_dev_1"]);
    await client.call("remoteControl/disable");
    relay.faults.rejectHandshakes(503, { body: '{"detail":"Server overloaded; retry later."}', count: 1000 });
    const down = await enableAndSettle(client, p.clock, 10_000);
    assert.equal(down.status.status, "connecting", "the session keeps retrying");
    assert.equal(down.status.error?.type, "network");
    assert.match(down.status.error?.message ?? "", /HTTP 503, body: \{"detail":"Server overloaded/);
    await client.call("remoteControl/disable");
  });
});

Deno.test("enableAndSettle reports timedOut when the relay stays silent", async () => {
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const c of silent) held.push(c);
  })();
  const { provider: p, host } = testHost(`http://127.0.0.1:${silent.addr.port}/`, {
    getAccount: () => Promise.resolve(USER),
  });
  const socket = join(p.paths.stateDir, "d.sock");
  const listener = await listenUnix(host.appServer, socket);
  const client = await DaemonClient.connect(socket, "test");
  try {
    const r = await enableAndSettle(client, p.clock, 200);
    assert.deepEqual([r.timedOut, r.status.status], [true, "connecting"]);
  } finally {
    client.close();
    await listener.close();
    for (const c of held) c.close();
    await host.close();
    silent.close();
    await accepting.catch(() => {});
  }
});

Deno.test("an enable refused by the daemon comes back as the larkit error it stands for", async () => {
  await withDaemon({ accountId: "app", accessToken: "", kind: "app" }, async ({ client }) => {
    await assert.rejects(
      client.call("remoteControl/enable"),
      (e: Error & { type?: string; subtype?: string; hint?: string }) => {
        assert.deepEqual([e.type, e.subtype], ["authentication", "auth"]);
        assert.match(e.message, /requires account authentication/);
        assert.match(e.hint ?? "", /larkit auth login/);
        return true;
      },
    );
  });
});

Deno.test("daemon/shutdown: refused to remote devices, honoured for a local client after its reply", async () => {
  await withDaemon(USER, async ({ client, relay, shutdowns }) => {
    await enableAndSettle(client, testProvider().clock, 10_000);
    // Paired by the local client (remote devices may not start a pairing).
    const phone = await pairRemoteClient(relay, {
      pair: () => client.call("remoteControl/pairing/start", {}) as Promise<{ pairingCode: string }>,
    });
    try {
      const stream = phone.stream("s1");
      await stream.request("initialize", {
        clientInfo: { name: "phone", version: "1" },
        capabilities: { experimentalApi: true },
      });
      await assert.rejects(stream.request("daemon/shutdown"), /not available to remote-control connections/);
      assert.equal(shutdowns(), 0);
    } finally {
      phone.close();
    }
    assert.deepEqual(await client.call("daemon/shutdown"), {});
    assert.equal(shutdowns(), 1);
  });
});

Deno.test("reachDaemon without a command to spawn reports no daemon and starts nothing", async () => {
  const p = testProvider();
  const socket = daemonSocketPath(p.paths);
  assert.equal(await reachDaemon({ socketPath: socket, version: "t", clock: p.clock }), undefined);
});

Deno.test("the daemon's command line keeps the starting command's profile", () => {
  assert.deepEqual(daemonArgv(["larkit"], "/s.sock", "http://127.0.0.1:1/", "work"), [
    "larkit",
    "--profile",
    "work",
    "app-server",
    "--listen",
    "unix:/s.sock",
    "--remote-control",
    "--relay-url",
    "http://127.0.0.1:1/",
  ]);
  assert.deepEqual(daemonArgv(["larkit"], "/s.sock", "http://127.0.0.1:1/", undefined, "/s.log").slice(-2), [
    "--log-file",
    "/s.log",
  ]);
});

Deno.test("LARKIT_RELAY_BACKOFF_MS sets the first reconnect delay; anything but a positive integer is ignored", () => {
  const env = (v?: string) => ({ get: (name: string) => (name === RELAY_BACKOFF_ENV ? v : undefined) });
  assert.deepEqual(relayTimingFromEnv(env("20")), { backoffBaseMs: 20 });
  for (const v of [undefined, "", "0", "-5", "1.5", "soon"]) {
    assert.deepEqual(relayTimingFromEnv(env(v)), {}, String(v));
  }
});
