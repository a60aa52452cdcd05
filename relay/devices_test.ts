/**
 * Devices on the real app server behind the dev relay, which admits paired devices only (issue 33, A): the
 * `remoteControl/pairing/start|status` and `remoteControl/client/list|revoke` methods from a local client, a
 * device redeeming the code and connecting with its token, its last-seen time, revocation closing its streams
 * at once and refusing it, pairing while disabled, a pair 404 re-enrolling once, and the account's hosts.
 */
import assert from "node:assert/strict";
import { until, within } from "../tests/helpers/until.ts";
import { DevRelay } from "./dev_relay.ts";
import { connectRemote, testHost } from "../tests/helpers/relay_host.ts";
import type { RemoteControlHost } from "./host.ts";
import { redeemPairingCode, RemoteClient } from "./remote_client.ts";

type Message = { id?: number; result?: Record<string, unknown>; error?: { code: number; message: string } };

/** A host on a fresh dev relay, both closed after `fn`; `log` gathers the host's log lines. */
async function withHost(
  fn: (relay: DevRelay, host: RemoteControlHost) => Promise<void>,
  log: string[] = [],
): Promise<void> {
  const relay = DevRelay.start();
  const { host } = testHost(relay.baseUrl, { log: (line) => log.push(line) });
  try {
    await fn(relay, host);
  } finally {
    await host.close();
    await relay.close();
  }
}

/** A local (or, with `origin`, another) in-process client of the host's app server, initialized. */
async function client(
  host: RemoteControlHost,
  origin: "InProcess" | "RemoteControl",
) {
  const received: Message[] = [];
  const conn = host.appServer.connect(origin, {
    send: (m) => Promise.resolve(void received.push(JSON.parse(m))),
    close: () => {},
  });
  let nextId = 1;
  const call = async (method: string, params?: unknown): Promise<Message> => {
    const id = nextId++;
    await conn.receive(
      JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }),
    );
    await until(`${method} answered`, () => received.some((m) => m.id === id));
    return received.find((m) => m.id === id) as Message;
  };
  const init = await call("initialize", {
    clientInfo: { name: "cli", version: "1" },
    capabilities: { experimentalApi: true },
  });
  assert.ok(init.result, JSON.stringify(init));
  return call;
}

Deno.test("pair -> a new device connects with the code; list shows its last-seen time; revoke closes its streams and refuses it", async () => {
  const relay = DevRelay.start();
  const { host } = testHost(relay.baseUrl);
  const phones: RemoteClient[] = [];
  try {
    const call = await client(host, "InProcess");
    await call("remoteControl/enable");
    await until("connected", () => host.remote.status.current.status === "connected");

    const started = await call("remoteControl/pairing/start", { manualCode: true });
    const code = started.result as {
      pairingCode: string;
      manualPairingCode: string;
      environmentId: string;
      expiresAt: number;
    };
    assert.match(code.pairingCode, /^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    assert.match(code.manualPairingCode, /^\d{6}$/);
    assert.equal(code.environmentId, "env_dev_1");
    assert.ok(Number.isInteger(code.expiresAt), "expiresAt in Unix seconds");
    assert.deepEqual(
      (await call("remoteControl/pairing/status", { pairingCode: code.pairingCode })).result,
      {
        claimed: false,
      },
    );

    // Without pairing, a device is refused at the relay, as a revoked one is.
    await assert.rejects(RemoteClient.connect(relay.clientUrl("intruder"), "intruder"), /403/);

    const paired = await redeemPairingCode(fetch, relay.pairUrl, {
      pairing_code: code.pairingCode,
      display_name: "Ada's phone",
      device_type: "phone",
      platform: "ios",
    });
    assert.equal(paired.environment_id, "env_dev_1");
    await assert.rejects(
      redeemPairingCode(fetch, relay.pairUrl, { pairing_code: code.pairingCode }),
      /410/,
      "a code is redeemed once",
    );
    assert.deepEqual(
      (await call("remoteControl/pairing/status", { pairingCode: code.pairingCode })).result,
      {
        claimed: true,
      },
    );
    await assert.rejects(
      RemoteClient.connect(relay.clientUrl(paired.client_id), paired.client_id, { token: "wrong" }),
      /401/,
    );
    const phone = await RemoteClient.connect(relay.clientUrl(paired.client_id), paired.client_id, {
      token: paired.client_token,
    });
    phones.push(phone);
    const s1 = phone.stream("s1");
    const s2 = phone.stream("s2");
    await within(
      "initialize s1",
      s1.request("initialize", { clientInfo: { name: "phone", version: "1" } }),
    );
    await within(
      "initialize s2",
      s2.request("initialize", { clientInfo: { name: "phone", version: "1" } }),
    );
    const session = await host.remote.session();
    assert.equal(session.streamCounts().open, 2);

    const listed = (await call("remoteControl/client/list")).result as {
      data: { clientId: string; displayName: string; deviceType: string; lastSeenAt: number | null }[];
      nextCursor: string | null;
    };
    assert.equal(listed.nextCursor, null);
    assert.equal(listed.data.length, 1);
    assert.deepEqual(
      [listed.data[0].clientId, listed.data[0].displayName, listed.data[0].deviceType],
      [paired.client_id, "Ada's phone", "phone"],
    );
    assert.equal(typeof listed.data[0].lastSeenAt, "number", "last seen when it connected and sent");

    const revoked = await call("remoteControl/client/revoke", { clientId: paired.client_id });
    assert.deepEqual(revoked.result, {});
    await until("its streams closed at once on the server", () => session.streamCounts().open === 0, 5_000);
    await assert.rejects(
      RemoteClient.connect(relay.clientUrl(paired.client_id), paired.client_id, {
        token: paired.client_token,
      }),
      /403/,
      "a revoked device is refused",
    );
    assert.deepEqual(((await call("remoteControl/client/list")).result as { data: unknown[] }).data, []);
  } finally {
    for (const p of phones) p.close();
    await host.close();
    await relay.close();
  }
});

Deno.test("pairing works while remote control is disabled: the enrollment is made, no socket is opened", async () => {
  await withHost(async (relay, host) => {
    const call = await client(host, "InProcess");
    const code = (await call("remoteControl/pairing/start")).result as {
      pairingCode: string;
      environmentId: string;
    };
    assert.equal(code.environmentId, "env_dev_1");
    assert.equal(relay.stats.enrollments, 1);
    assert.equal(relay.stats.handshakes, 0, "pairing needs no relay socket");
    assert.equal(host.remote.status.current.status, "disabled");
    // Enabling afterwards reuses that enrollment: the paired device reaches this machine.
    const paired = await redeemPairingCode(fetch, relay.pairUrl, { pairing_code: code.pairingCode });
    await call("remoteControl/enable");
    await until("connected", () => host.remote.status.current.status === "connected");
    assert.equal(relay.stats.enrollments, 1);
    const phone = await RemoteClient.connect(relay.clientUrl(paired.client_id), paired.client_id, {
      token: paired.client_token,
    });
    try {
      await within(
        "initialize",
        phone.stream("s").request("initialize", { clientInfo: { name: "p", version: "1" } }),
      );
    } finally {
      phone.close();
    }
  });
});

Deno.test("a one-off device call (followPreference: false) never connects, even where the preference says enabled", async () => {
  const relay = DevRelay.start();
  // One provider for both hosts: the second reads the preference the first saved.
  const { provider, host: first } = testHost(relay.baseUrl);
  try {
    await connectRemote(first.remote);
  } finally {
    await first.close();
  }
  assert.equal(relay.stats.handshakes, 1);
  const oneOff = testHost(relay.baseUrl, { provider, followPreference: false }).host;
  try {
    const code = await oneOff.remote.pair();
    assert.equal(code.environmentId, "env_dev_1");
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(relay.stats.handshakes, 1, "no relay socket for a one-off command");
    assert.equal(oneOff.remote.status.current.status, "disabled");
  } finally {
    await oneOff.close();
    await relay.close();
  }
});

Deno.test("a pair answered 404 clears the stale enrollment, enrolls again once and retries", async () => {
  const log: string[] = [];
  await withHost(async (relay, host) => {
    const call = await client(host, "InProcess");
    const first = (await call("remoteControl/pairing/start")).result as { environmentId: string };
    assert.equal(first.environmentId, "env_dev_1");
    relay.faults.forgetServers();
    const second = (await call("remoteControl/pairing/start")).result as { environmentId: string };
    assert.equal(second.environmentId, "env_dev_2", "paired under the new enrollment");
    assert.equal(relay.stats.enrollments, 2, "enrolled again exactly once");
    assert.ok(log.some((l) => l.includes("pairing: the relay no longer knows this server")), log.join("\n"));
  }, log);
});

Deno.test("listing devices of a machine never enrolled enrolls nothing (stop asks this)", async () => {
  await withHost(async (relay, host) => {
    const call = await client(host, "InProcess");
    assert.deepEqual((await call("remoteControl/client/list")).result, { data: [], nextCursor: null });
    const revoke = await call("remoteControl/client/revoke", { clientId: "cli_dev_1" });
    assert.match(revoke.error?.message ?? "", /this machine is not enrolled/);
    assert.equal(relay.stats.enrollments, 0);
  });
});

Deno.test("pairing and revoking are refused to remote-control connections", async () => {
  await withHost(async (relay, host) => {
    const call = await client(host, "RemoteControl");
    for (
      const [method, params] of [["remoteControl/pairing/start", {}], ["remoteControl/client/revoke", {
        clientId: "x",
      }]] as const
    ) {
      const answer = await call(method, params);
      assert.match(answer.error?.message ?? "", /not available to remote-control connections/, method);
    }
    assert.equal(relay.stats.enrollments, 0);
  });
});

Deno.test("hosts: the account's machines with this one marked current; delete forgets one and revokes its devices", async () => {
  await withHost(async (relay, host) => {
    await host.remote.enable();
    await until("connected", () => host.remote.status.current.status === "connected");
    const code = await host.remote.pair();
    const paired = await redeemPairingCode(fetch, relay.pairUrl, { pairing_code: code.pairingCode });
    const hosts = await host.remote.listHosts();
    assert.deepEqual(hosts.map((h) => [h.environmentId, h.online, h.current, h.name]), [[
      "env_dev_1",
      true,
      true,
      "test-host",
    ]]);
    await host.remote.deleteHost("env_dev_1");
    assert.deepEqual(await host.remote.listHosts(), []);
    await assert.rejects(
      RemoteClient.connect(relay.clientUrl(paired.client_id), paired.client_id, {
        token: paired.client_token,
      }),
      /403/,
      "the deleted machine's devices are revoked",
    );
    await assert.rejects(host.remote.deleteHost("env_dev_1"), /HTTP 404/);
  });
});
