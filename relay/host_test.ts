/**
 * The real app server (rpc/) behind the relay: a remote client drives initialize → thread/start →
 * turn/start → turn/completed, and reads remote-control status, all through the dev relay on loopback.
 */
import assert from "node:assert/strict";
import { testProvider } from "../cli/test_provider.ts";
import { DevRelay } from "./dev_relay.ts";
import { createRemoteControlHost } from "./host.ts";
import { testHost } from "../tests/helpers/relay_host.ts";
import { pairRemoteClient } from "../tests/helpers/pair_device.ts";
import { until } from "../tests/helpers/until.ts";

Deno.test("a remote turn runs through the relay on the real app server", async () => {
  const relay = DevRelay.start();
  const { host } = testHost(relay.baseUrl, {
    runner: async (argv, rp) => {
      await rp.stdout.write(JSON.stringify({ ok: true, argv }) + "\n");
      return 0;
    },
  });
  try {
    await host.remote.enable();
    await until("connected", () => host.remote.status.current.status === "connected");
    const client = await pairRemoteClient(relay, host.remote);
    const stream = client.stream("s1");
    const seen: Array<{ method?: string; params?: Record<string, unknown> }> = [];
    stream.onMessage((m) => seen.push(m as { method?: string }));
    await stream.request("initialize", {
      clientInfo: { name: "phone", version: "1" },
      capabilities: { experimentalApi: true },
    });
    stream.send({ jsonrpc: "2.0", method: "initialized" });
    await until("status notification", () => seen.some((m) => m.method === "remoteControl/status/changed"));
    assert.ok("result" in seen[0], "on a new stream the initialize response comes before any notification");
    const status = await stream.request("remoteControl/status/read") as Record<string, unknown>;
    assert.equal(status.status, "connected");
    assert.equal(status.environmentId, "env_dev_1");
    const { thread } = await stream.request("thread/start", {}) as { thread: { id: string } };
    await stream.request("turn/start", {
      threadId: thread.id,
      input: [{ type: "text", text: "calendar +agenda" }],
    });
    await until("turn/completed", () => seen.some((m) => m.method === "turn/completed"));
    const methods = seen.map((m) => m.method).filter(Boolean);
    assert.ok(methods.includes("remoteControl/status/changed"), methods.join(","));
    assert.ok(methods.indexOf("turn/started") < methods.indexOf("turn/completed"), methods.join(","));
    assert.match(JSON.stringify(seen), /calendar/);
    client.close();
  } finally {
    await host.close();
    await relay.close();
  }
});

Deno.test("remoteControl/* need experimentalApi; disable reports disabled and broadcasts", async () => {
  const relay = DevRelay.start();
  const { host } = testHost(relay.baseUrl);
  try {
    await host.remote.enable();
    await until("connected", () => host.remote.status.current.status === "connected");
    const client = await pairRemoteClient(relay, host.remote);
    const plain = client.stream("plain");
    await plain.request("initialize", { clientInfo: { name: "phone", version: "1" } });
    await assert.rejects(plain.request("remoteControl/status/read"), /requires experimentalApi capability/);
    // Disabling cuts the relay socket, so a local (in-process) client is the one that can hear the answer.
    const received: Array<
      { id?: number; result?: Record<string, unknown>; method?: string; params?: unknown }
    > = [];
    const local = host.appServer.connect("InProcess", {
      send: (m) => Promise.resolve(void received.push(JSON.parse(m))),
      close: () => {},
    });
    await local.receive(JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { clientInfo: { name: "cli", version: "1" }, capabilities: { experimentalApi: true } },
    }));
    // The status follows the initialize response (never before it); wait for it so the order below is fixed.
    await until(
      "status after initialize",
      () => received.some((m) => m.method === "remoteControl/status/changed"),
    );
    assert.equal(received[0].id, 1, "the initialize response comes before any notification");
    await local.receive(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "remoteControl/disable" }));
    await until("disable answered", () => received.some((m) => m.id === 2));
    const disabled = received.find((m) => m.id === 2)?.result;
    assert.deepEqual([disabled?.status, disabled?.environmentId], ["disabled", null]);
    // The relay learns of the close when the closing handshake reaches it, a moment after the answer.
    await until("the relay sees the server socket closed", () => !relay.serverConnected);
    const changes = received.filter((m) => m.method === "remoteControl/status/changed").map((m) =>
      (m.params as { status: string }).status
    );
    assert.deepEqual(changes, ["connected", "disabled"]);
    client.close();
  } finally {
    await host.close();
    await relay.close();
  }
});

/** A local in-process client of `host`: initializes under `name` and records what it hears. */
async function localClient(host: ReturnType<typeof createRemoteControlHost>, name: string) {
  const received: Array<
    { id?: number; result?: Record<string, unknown>; method?: string; params?: unknown }
  > = [];
  const conn = host.appServer.connect("InProcess", {
    send: (m) => Promise.resolve(void received.push(JSON.parse(m))),
    close: () => {},
  });
  let nextId = 1;
  const call = async (method: string) => {
    const id = nextId++;
    await conn.receive(JSON.stringify({ jsonrpc: "2.0", id, method }));
    await until(`${method} answered`, () => received.some((m) => m.id === id));
    return received.find((m) => m.id === id)?.result as Record<string, unknown>;
  };
  const id = nextId++;
  await conn.receive(JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { clientInfo: { name, version: "1" }, capabilities: { experimentalApi: true } },
  }));
  await until("initialized", () => received.some((m) => m.id === id));
  return { received, call };
}

Deno.test("every app server: disabled until enabled; the preference persists and a restart reconnects by itself", async () => {
  const relay = DevRelay.start();
  const p = testProvider({ fetch: (input, init) => fetch(input, init), uuids: () => crypto.randomUUID() });
  const make = () =>
    createRemoteControlHost({
      provider: p,
      baseUrl: () => Promise.resolve(relay.baseUrl),
      getAccount: () => Promise.resolve({ accountId: "acct-1", accessToken: "tok", kind: "user" }),
      timing: { backoffBaseMs: 10, backoffCapMs: 40 },
    });
  try {
    let host = make();
    const first = await localClient(host, "probe");
    assert.equal((await first.call("remoteControl/status/read")).status, "disabled");
    assert.equal(relay.stats.enrollments, 0, "nothing happens before enable");
    assert.equal((await first.call("remoteControl/enable")).status, "connecting");
    await until("connected", () => host.remote.status.current.status === "connected");
    await host.close();
    assert.equal(relay.stats.handshakes, 1);

    host = make();
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(
      relay.stats.handshakes,
      1,
      "no connection before the first local client names the enrollment",
    );
    await localClient(host, "probe");
    await until("reconnected by itself", () => relay.stats.handshakes === 2);
    assert.equal(relay.stats.enrollments, 1, "the persisted enrollment was reused");
    assert.equal(relay.stats.refreshes, 1, "tokens are not persisted: refresh, then handshake");
    await host.close();

    host = make();
    const other = await localClient(host, "other-client");
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(
      (await other.call("remoteControl/status/read")).status,
      "disabled",
      "another client name: its own key",
    );
    assert.equal(relay.stats.handshakes, 2);
    await host.close();

    host = make();
    const again = await localClient(host, "probe");
    await until("connected", () => host.remote.status.current.status === "connected");
    assert.equal((await again.call("remoteControl/disable")).status, "disabled");
    await host.close();
    host = make();
    await localClient(host, "probe");
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(host.remote.status.current.status, "disabled", "disable persisted the preference");
    await host.close();
  } finally {
    await relay.close();
  }
});
