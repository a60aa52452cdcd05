/**
 * The real app server (rpc/) behind the relay: a remote client drives initialize → thread/start →
 * turn/start → turn/completed, and reads remote-control status, all through the dev relay on loopback.
 */
import assert from "node:assert/strict";
import { testProvider } from "../cli/provider.ts";
import { DevRelay } from "./dev_relay.ts";
import { createRemoteControlHost } from "./host.ts";
import { RemoteClient } from "./remote_client.ts";

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

Deno.test("a remote turn runs through the relay on the real app server", async () => {
  const relay = DevRelay.start();
  const p = testProvider({ fetch: (input, init) => fetch(input, init), uuids: () => crypto.randomUUID() });
  const host = createRemoteControlHost({
    provider: p,
    baseUrl: relay.baseUrl,
    getAccount: () => Promise.resolve({ accountId: "acct-1", accessToken: "tok", kind: "user" }),
    timing: { backoffBaseMs: 10, backoffCapMs: 40 },
    clientName: "",
    runner: async (argv, rp) => {
      await rp.stdout.write(JSON.stringify({ ok: true, argv }) + "\n");
      return 0;
    },
  });
  try {
    await host.remote.enable();
    await until("connected", () => host.remote.status.current.status === "connected");
    const client = await RemoteClient.connect(relay.clientUrl("phone"), "phone");
    const stream = client.stream("s1");
    const seen: Array<{ method?: string; params?: Record<string, unknown> }> = [];
    stream.onMessage((m) => seen.push(m as { method?: string }));
    await stream.request("initialize", {
      clientInfo: { name: "phone", version: "1" },
      capabilities: { experimentalApi: true },
    });
    stream.send({ jsonrpc: "2.0", method: "initialized" });
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
  const p = testProvider({ fetch: (input, init) => fetch(input, init), uuids: () => crypto.randomUUID() });
  const host = createRemoteControlHost({
    provider: p,
    baseUrl: relay.baseUrl,
    getAccount: () => Promise.resolve({ accountId: "acct-1", accessToken: "tok", kind: "user" }),
    timing: { backoffBaseMs: 10, backoffCapMs: 40 },
    clientName: "",
  });
  try {
    await host.remote.enable();
    await until("connected", () => host.remote.status.current.status === "connected");
    const client = await RemoteClient.connect(relay.clientUrl("phone"), "phone");
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
    assert.equal(relay.serverConnected, false);
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
