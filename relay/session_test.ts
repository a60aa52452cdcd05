/**
 * End-to-end on loopback: session ⇄ dev relay ⇄ remote client, with a scripted app server standing in for
 * rpc/ (initialize → {}, echo → params, big → a string of the requested size).
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { LarkitError } from "../cli/output/errors.ts";
import { abortableSleep } from "../cli/provider.ts";
import type { AppServer, Connection, Origin, Outbound } from "../rpc/connection.ts";
import { DevRelay } from "./dev_relay.ts";
import type { RelayAccount } from "./enroll.ts";
import type { RemoteClient, RemoteStream } from "./remote_client.ts";
import type { RemoteControlSession } from "./session.ts";
import { EnrollmentStore } from "./store.ts";
import { normalizeRelayBaseUrl } from "./url.ts";
import { pairRemoteClient } from "../tests/helpers/pair_device.ts";
import { testSession } from "../tests/helpers/relay_host.ts";
import { until } from "../tests/helpers/until.ts";

class ScriptedAppServer implements AppServer {
  received = 0;
  origins: Origin[] = [];
  connect(origin: Origin, out: Outbound): Connection {
    this.origins.push(origin);
    const id = String(this.origins.length);
    return {
      id,
      origin,
      receive: async (text) => {
        this.received++;
        const msg = JSON.parse(text) as { id?: number; method?: string; params?: { size?: number } };
        if (msg.id === undefined) return;
        const result = msg.method === "big"
          ? "x".repeat(msg.params?.size ?? 0)
          : msg.method === "echo"
          ? msg.params
          : {};
        await out.send(JSON.stringify({ id: msg.id, result }));
      },
      close: () => {},
    };
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

const FAST = {
  backoffBaseMs: 10,
  backoffCapMs: 40,
  stableMs: 1000,
  pingIntervalMs: 200,
  pongTimeoutMs: 2000,
};

interface Harness {
  relay: DevRelay;
  session: RemoteControlSession;
  store: EnrollmentStore;
  app: ScriptedAppServer;
  states: string[];
  [Symbol.asyncDispose](): Promise<void>;
}

function harness(
  opts: {
    account?: (o?: { refresh?: boolean }) => RelayAccount;
    acceptToken?: (t: string) => boolean;
    tokens?: boolean;
    /** Shifts the session's clock (the relay keeps real time): tokens look expired to the session. */
    clockOffset?: () => number;
    log?: string[];
  } = {},
): Harness {
  const relay = DevRelay.start({ acceptToken: opts.acceptToken, tokens: opts.tokens });
  const store = new EnrollmentStore(new DatabaseSync(":memory:"));
  const app = new ScriptedAppServer();
  const account = opts.account ??
    (() => ({ accountId: "acct-1", accessToken: "tok-1", kind: "user" as const }));
  const session = testSession(relay.baseUrl, app, {
    getAccount: (o) => Promise.resolve(account(o)),
    store,
    clock: { now: () => Date.now() + (opts.clockOffset?.() ?? 0), sleep: abortableSleep },
    timing: FAST,
    log: (line) => opts.log?.push(line),
  });
  const states: string[] = [];
  session.status.subscribe((s) => states.push(`${s.status}:${s.environmentId}`));
  return {
    relay,
    session,
    store,
    app,
    states,
    async [Symbol.asyncDispose]() {
      await session.close();
      await relay.close();
    },
  };
}

/** A newly paired device's stream, initialized. */
async function openStream(h: Harness, streamId: string): Promise<[RemoteClient, RemoteStream]> {
  const client = await pairRemoteClient(h.relay, h.session);
  const stream = client.stream(streamId);
  await stream.request("initialize", { clientInfo: { name: "phone", version: "1" } });
  return [client, stream];
}

Deno.test("a remote stream opens a RemoteControl connection and round-trips through the relay", async () => {
  await using h = harness();
  assert.equal((await h.session.enable()).status, "connecting");
  await until("connected", () => h.session.status.current.status === "connected");
  const [client, stream] = await openStream(h, "s1");
  assert.deepEqual(await stream.request("echo", { n: 1 }), { n: 1 });
  assert.deepEqual(h.app.origins, ["RemoteControl"]);
  const headers = h.relay.stats.handshakeHeaders[0];
  assert.equal(headers["x-svc-server-id"], "srv_dev_1");
  assert.equal(headers["x-svc-protocol-version"], "3");
  assert.equal(headers["x-svc-name"], new TextEncoder().encode("test-host").toBase64());
  assert.equal(headers["svc-account-id"], undefined, "the handshake never carries the account id");
  assert.equal(
    headers["authorization"],
    `Bearer ${h.relay.issuedTokens[0]}`,
    "the relay-issued server token",
  );
  assert.equal(h.relay.stats.refreshes, 0, "the token from enroll is fresh");
  assert.ok(headers["x-svc-installation-id"]);
  assert.equal(headers["x-svc-subscribe-cursor"], undefined);
  await until("acks drain the buffer", () => h.session.pendingEnvelopes() === 0);
  client.close();
});

Deno.test("a 5 MB result arrives segmented and intact", async () => {
  await using h = harness();
  await h.session.enable();
  const [client, stream] = await openStream(h, "s1");
  const result = await stream.request("big", { size: 5 * 1024 * 1024 });
  assert.equal(result, "x".repeat(5 * 1024 * 1024));
  assert.ok(h.relay.stats.chunkFramesForwarded >= 52, `${h.relay.stats.chunkFramesForwarded} chunk frames`);
  client.close();
});

Deno.test("20 socket kills during a 1,000-message exchange: every message once, in order", async () => {
  await using h = harness();
  await h.session.enable();
  const [client, stream] = await openStream(h, "s1");
  const seen: number[] = [];
  stream.onMessage((m) => {
    const r = (m as { result?: { i?: number } }).result;
    if (r?.i !== undefined) seen.push(r.i);
  });
  let drops = 0;
  for (let i = 1; i <= 1000; i++) {
    stream.send({ jsonrpc: "2.0", id: i + 1, method: "echo", params: { i } });
    if (i % 50 === 25) {
      await until("some replies", () => seen.length >= i - 40);
      h.relay.faults.dropServerSocket();
      drops++;
      await new Promise((r) => setTimeout(r, 3));
    }
  }
  await until("1000 replies", () => seen.length >= 1000, 30_000);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(drops, 20);
  assert.deepEqual(seen, Array.from({ length: 1000 }, (_, k) => k + 1));
  assert.equal(h.app.received, 1001, "each request reached the app server exactly once");
  assert.ok(h.relay.stats.handshakes >= 21, `${h.relay.stats.handshakes} handshakes`);
  assert.ok(
    h.relay.stats.handshakeHeaders.slice(1).some((x) => x["x-svc-subscribe-cursor"] !== undefined),
    "reconnects carry the subscribe cursor",
  );
  client.close();
});

Deno.test("a relay without tokens (the seed's): the handshake carries the account headers", async () => {
  await using h = harness({ tokens: false });
  await h.session.enable();
  await until("connected", () => h.session.status.current.status === "connected");
  const headers = h.relay.stats.handshakeHeaders[0];
  assert.equal(headers["svc-account-id"], "acct-1");
  assert.equal(headers["authorization"], "Bearer tok-1");
  h.relay.faults.dropServerSocket();
  await until("reconnected", () => h.relay.stats.handshakes === 2);
  assert.equal(h.relay.stats.enrollments, 1);
  assert.equal(h.relay.stats.refreshes, 0);
});

function keyOf(h: Harness) {
  return {
    websocketUrl: normalizeRelayBaseUrl(h.relay.baseUrl).websocket,
    accountId: "acct-1",
    clientName: "",
  };
}

Deno.test("a 404 'Remote app server not found' deletes the enrollment and enrolls again at once", async () => {
  await using h = harness();
  await h.session.enable();
  await until("connected", () => h.session.status.current.status === "connected");
  assert.equal(h.store.load(keyOf(h))?.serverId, "srv_dev_1");
  h.relay.faults.forgetServers();
  h.relay.faults.dropServerSocket();
  await until("re-enrolled", () => h.store.load(keyOf(h))?.serverId === "srv_dev_2");
  await until("reconnected", () => h.relay.serverConnected);
  assert.equal(h.session.status.current.environmentId, "env_dev_2");
  assert.equal(h.relay.stats.enrollments, 2);
});

Deno.test("any other 404 keeps the enrollment and retries the same server id", async () => {
  await using h = harness();
  await h.session.enable();
  await until("connected", () => h.session.status.current.status === "connected");
  h.relay.faults.rejectHandshakes(404, { body: '{"detail":"Not Found"}' });
  h.relay.faults.rejectHandshakes(404, { body: '{"detail":"Remote app server not found","x":1}' });
  h.relay.faults.rejectHandshakes(404, { body: "" });
  h.relay.faults.dropServerSocket();
  await until("reconnected", () => h.relay.stats.handshakes === 2);
  assert.deepEqual(h.relay.stats.refusals, [404, 404, 404]);
  assert.equal(h.relay.stats.enrollments, 1);
  assert.equal(h.store.load(keyOf(h))?.serverId, "srv_dev_1");
  assert.ok(h.relay.stats.handshakeHeaders.every((x) => x["x-svc-server-id"] === "srv_dev_1"));
});

Deno.test("a 401 on the handshake: status connecting with the error, token refreshed, then connected", async () => {
  await using h = harness();
  const seen: string[] = [];
  h.session.status.subscribe((s) => s.error && seen.push(`${s.status}:${s.error.message}`));
  await h.session.enable();
  await until("connected", () => h.session.status.current.status === "connected");
  h.relay.faults.rejectHandshakes(401, { body: '{"detail":"unauthorized"}', count: 2 });
  h.relay.faults.dropServerSocket();
  await until("reconnected", () => h.relay.stats.handshakes === 2);
  assert.equal(h.relay.stats.refreshes, 2, "each 401 forgets the server token; each retry refreshes it");
  assert.ok(seen.length >= 1 && seen.every((x) => /^connecting:.*HTTP 401/.test(x)), seen.join("\n"));
  // The relay counts a handshake when it upgrades; the session reports "connected" a moment later.
  await until("connected again", () => h.session.status.current.status === "connected");
  const last = h.relay.stats.handshakeHeaders.at(-1);
  assert.equal(last?.["authorization"], `Bearer ${h.relay.issuedTokens.at(-1)}`);
});

Deno.test("a token that expired mid-session is refreshed at the next reconnect (the socket stayed up)", async () => {
  let offset = 0;
  await using h = harness({ clockOffset: () => offset });
  await h.session.enable();
  await until("connected", () => h.session.status.current.status === "connected");
  offset = 2 * 60 * 60_000; // two hours later for the session: its one-hour token has expired
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(h.relay.stats.refreshes, 0, "no refresh while connected");
  h.relay.faults.dropServerSocket();
  await until("reconnected", () => h.relay.stats.handshakes === 2);
  assert.equal(h.relay.stats.refreshes, 1);
  assert.deepEqual(h.relay.stats.refusals, [], "refreshed before the handshake, not after a 401");
  assert.equal(h.relay.stats.handshakeHeaders[1]["authorization"], `Bearer ${h.relay.issuedTokens[1]}`);
});

Deno.test("a refresh answered 404 (stale enrollment) re-enrolls in the same attempt", async () => {
  let offset = 0;
  await using h = harness({ clockOffset: () => offset });
  await h.session.enable();
  await until("connected", () => h.session.status.current.status === "connected");
  offset = 2 * 60 * 60_000;
  h.relay.faults.forgetServers();
  h.relay.faults.dropServerSocket();
  await until("reconnected", () => h.relay.stats.handshakes === 2);
  assert.equal(h.relay.stats.enrollments, 2);
  assert.equal(h.store.load(keyOf(h))?.serverId, "srv_dev_2");
  assert.deepEqual(h.relay.stats.refusals, []);
});

Deno.test("app-only credentials are refused with the account-authentication error", async () => {
  await using h = harness({ account: () => ({ accountId: "app", accessToken: "t", kind: "app" }) });
  await assert.rejects(h.session.enable(), (e: LarkitError) => {
    assert.deepEqual([e.type, e.subtype], ["authentication", "auth"]);
    assert.match(e.message, /remote control requires account authentication/);
    assert.match(e.hint ?? "", /larkit auth login/);
    return true;
  });
  assert.equal(h.session.status.current.status, "disabled");
  assert.equal(h.relay.stats.enrollments, 0);
});

Deno.test("an enroll 401 never ends the loop: connecting with the error and a hint, retrying with backoff", async () => {
  const refreshes: boolean[] = [];
  await using h = harness({
    account: (o) => (refreshes.push(!!o?.refresh), { accountId: "a", accessToken: "stale", kind: "user" }),
    acceptToken: () => false,
  });
  await h.session.enable();
  await until("several attempts", () => refreshes.filter(Boolean).length >= 3);
  const s = h.session.status.current;
  assert.equal(s.status, "connecting");
  assert.match(s.error?.message ?? "", /HTTP 401/);
  assert.match(s.error?.hint ?? "", /larkit auth login/);
  assert.equal(h.relay.stats.enrollments, 0);
});

Deno.test("oversized and corrupt segments are dropped while the socket and other streams keep working", async () => {
  await using h = harness();
  await h.session.enable();
  const [c1, s1] = await openStream(h, "s1");
  const [c2, s2] = await openStream(h, "s2");
  const handshakes = h.relay.stats.handshakes;
  h.relay.faults.sendOversizedSegment(c1.clientId, "s1", 50);
  h.relay.faults.sendCorruptSegment(c1.clientId, "s1", 51);
  h.relay.faults.sendCorruptSegment(c2.clientId, "s2", 52);
  assert.deepEqual(await s1.request("echo", { still: 1 }), { still: 1 });
  assert.deepEqual(await s2.request("echo", { still: 2 }), { still: 2 });
  assert.equal(h.relay.stats.handshakes, handshakes, "the socket was not closed");
  assert.equal(h.app.received, 4, "no garbage reached the app server");
  c1.close();
  c2.close();
});

Deno.test("status transitions: connecting → connected → connecting on a drop → connected → disabled", async () => {
  await using h = harness();
  await h.session.enable();
  await until("connected", () => h.session.status.current.status === "connected");
  h.relay.faults.dropServerSocket();
  await until("reconnected", () => h.states.filter((s) => s.startsWith("connected")).length === 2);
  await h.session.disable();
  assert.deepEqual(h.states, [
    "connecting:null",
    "connecting:env_dev_1",
    "connected:env_dev_1",
    "connecting:env_dev_1",
    "connected:env_dev_1",
    "disabled:null",
  ]);
  assert.equal(h.session.status.current.environmentId, null);
});

Deno.test("pings are answered with pong; client_closed closes the stream; unknown streams get nothing", async () => {
  await using h = harness();
  await h.session.enable();
  const [client, s1] = await openStream(h, "s1");
  const pongs: unknown[] = [];
  s1.onMessage((m) => (m as { pong?: string }).pong && pongs.push(m));
  s1.ping();
  await until("pong", () => pongs.length === 1);
  assert.deepEqual(pongs, [{ pong: "active" }]);
  s1.closeStream();
  const stray = client.stream("s9");
  stray.send({ jsonrpc: "2.0", id: 1, method: "echo", params: {} });
  s1.ping();
  await until("pong unknown", () => pongs.length === 2);
  assert.deepEqual(pongs[1], { pong: "unknown" });
  assert.equal(h.app.received, 1, "only the initialize reached the app server");
  client.close();
});

Deno.test("a remote client's socket going away closes every stream it had open on the server", async () => {
  await using h = harness();
  await h.session.enable();
  const client = await pairRemoteClient(h.relay, h.session);
  for (const id of ["a", "b", "c"]) await client.stream(id).request("initialize", {});
  assert.equal(h.session.streamCounts().open, 3);
  client.close();
  await until("streams closed", () => h.session.streamCounts().open === 0);
  await until("buffers freed", () => h.session.streamCounts().buffered === 0);
  assert.equal(h.relay.stats.clientClosedSent, 3);
});
