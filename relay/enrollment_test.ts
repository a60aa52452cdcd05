import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { FakeClock } from "../tests/helpers/fake_clock.ts";
import { RelayEnrollment } from "./enrollment.ts";
import { HandshakeRefused } from "./socket.ts";
import { StatusBoard } from "./status.ts";
import { EnrollmentStore } from "./store.ts";
import { normalizeRelayBaseUrl } from "./url.ts";

/** A relay's enroll and refresh endpoints: each enrollment gets the next server id; tokens live 10 minutes. */
function relay(clock: FakeClock) {
  const calls: string[] = [];
  let servers = 0;
  const known = new Set<string>();
  let tokens = 0;
  const token = () => ({
    remote_control_token: `tok-${++tokens}`,
    expires_at: new Date(clock.now() + 600_000).toISOString(),
  });
  const answer = (input: Request | URL | string, init?: RequestInit): Response => {
    const path = new URL(String(input)).pathname.split("/").at(-1) as string;
    calls.push(path);
    const body = JSON.parse(String(init?.body));
    if (path === "enroll") {
      const id = `srv-${++servers}`;
      known.add(id);
      return Response.json({ server_id: id, environment_id: `env-${id}`, ...token() });
    }
    if (!known.has(body.server_id)) return Response.json({ detail: "not found" }, { status: 404 });
    return Response.json({ server_id: body.server_id, environment_id: `env-${body.server_id}`, ...token() });
  };
  return {
    fetch: (i: Request | URL | string, init?: RequestInit) => Promise.resolve(answer(i, init)),
    calls,
    known,
  };
}

function setup(store = new EnrollmentStore(new DatabaseSync(":memory:"))) {
  const clock = new FakeClock();
  const r = relay(clock);
  const status = new StatusBoard({
    status: "connecting",
    serverName: "box",
    installationId: "inst",
    environmentId: null,
  });
  const logs: string[] = [];
  const e = new RelayEnrollment({
    urls: normalizeRelayBaseUrl("http://127.0.0.1:9/"),
    getAccount: () => Promise.resolve({ accountId: "acct", accessToken: "user-token", kind: "user" }),
    store,
    clock,
    fetch: r.fetch,
    server: { name: "box", os: "linux", arch: "x86_64", appServerVersion: "1" },
    clientName: "",
    installationId: "inst",
    tokenRefreshSkewMs: 30_000,
    status,
    log: (l) => logs.push(l),
    closed: new AbortController().signal,
  });
  const handshake = (cursor?: string) =>
    e.handshake("", { recover: false }, cursor, new AbortController().signal);
  return { e, clock, relay: r, status, store, handshake, logs };
}

Deno.test("the first handshake enrolls; its token is presented, never the account, until it nears expiry", async () => {
  const { clock, relay, status, handshake } = setup();
  const first = await handshake();
  assert.deepEqual(relay.calls, ["enroll"]);
  assert.equal(first.environmentId, "env-srv-1");
  assert.equal(status.current.environmentId, "env-srv-1");
  assert.equal(first.headers.authorization, "Bearer tok-1");
  assert.equal(first.headers["x-svc-server-id"], "srv-1");
  assert.equal(first.headers["svc-account-id"], undefined);
  assert.equal(first.headers["x-svc-protocol-version"], "3");
  assert.equal(atob(first.headers["x-svc-name"]), "box");
  await clock.advance(600_000 - 31_000);
  assert.equal((await handshake()).headers.authorization, "Bearer tok-1", "31 s left: kept");
  await clock.advance(2_000);
  assert.equal((await handshake()).headers.authorization, "Bearer tok-2", "29 s left: refreshed");
  assert.deepEqual(relay.calls, ["enroll", "refresh"]);
});

Deno.test("a stored enrollment is reused with a fresh token; only a plain cursor becomes a header", async () => {
  const store = new EnrollmentStore(new DatabaseSync(":memory:"));
  const before = setup(store);
  await before.handshake();
  const after = setup(store);
  after.relay.known.add("srv-1");
  const h = await after.handshake("cursor-1");
  assert.deepEqual(after.relay.calls, ["refresh"]);
  assert.equal(h.headers["x-svc-server-id"], "srv-1");
  assert.equal(h.headers["x-svc-subscribe-cursor"], "cursor-1");
  assert.equal((await after.handshake("bad\r\ncursor")).headers["x-svc-subscribe-cursor"], undefined);
});

Deno.test("a refused handshake: 401 forgets the token, the relay's 'not found' 404 the enrollment, other 404s nothing", async () => {
  const { e, relay, handshake, store, status } = setup();
  await handshake();
  const auth = e.classify(new HandshakeRefused(401, ""));
  assert.equal(auth.error.subtype, "auth");
  await handshake();
  assert.deepEqual(relay.calls, ["enroll", "refresh"], "the next attempt refreshes the token first");

  const generic = e.classify(new HandshakeRefused(404, "nginx says no"));
  assert.equal(generic.immediate, undefined);
  assert.match(generic.error.message, /enrollment kept/);
  assert.equal((await handshake()).headers["x-svc-server-id"], "srv-1");

  const gone = e.classify(new HandshakeRefused(404, '{"detail":"Remote app server not found"}'));
  assert.equal(gone.immediate, true);
  assert.equal(status.current.environmentId, null);
  assert.equal(
    store.load({
      websocketUrl: normalizeRelayBaseUrl("http://127.0.0.1:9/").websocket,
      accountId: "acct",
      clientName: "",
    }),
    undefined,
  );
  assert.equal((await handshake()).headers["x-svc-server-id"], "srv-2", "enrolled again");

  const network = e.classify(new Error("connection refused"));
  assert.equal(network.error.type, "network");
});

Deno.test("a refresh answered 404 (stale enrollment) enrolls again in the same attempt", async () => {
  const { clock, relay, handshake } = setup();
  await handshake();
  relay.known.clear();
  await clock.advance(600_000);
  const h = await handshake();
  assert.deepEqual(relay.calls, ["enroll", "refresh", "enroll"]);
  assert.equal(h.headers["x-svc-server-id"], "srv-2");
});
