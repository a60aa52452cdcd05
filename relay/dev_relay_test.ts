/**
 * The dev relay is as strict as the production relay: server tokens with an expiry, refresh, handshakes
 * authenticated by the server token only, control-frame pings that close silent sockets, `client_closed` when a
 * remote client goes away, and handshake faults with any status and body.
 */
import assert from "node:assert/strict";
// @ts-types="@types/ws"
import WebSocket from "ws";
import { pairDevice } from "../tests/helpers/pair_device.ts";
import { DevRelay, NOT_FOUND_BODY } from "./dev_relay.ts";

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return await fetch(url, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

const ACCOUNT = {
  authorization: "Bearer acct-token",
  "svc-account-id": "acct-1",
  "x-svc-installation-id": "inst-1",
};
const ENROLL = { name: "m", os: "linux", arch: "x86_64", app_server_version: "1", installation_id: "inst-1" };

/**
 * A local server enrolled by hand, as the session enrolls: it starts pairings with its server token (or, on a
 * relay without tokens, the account headers), as `remoteControl/pairing/start` does.
 */
async function enrolledServer(relay: DevRelay) {
  const enrolled =
    await (await post(`${relay.baseUrl}backend-api/wham/remote/control/server/enroll`, ENROLL, ACCOUNT))
      .json();
  const auth = enrolled.remote_control_token === undefined
    ? ACCOUNT
    : { authorization: `Bearer ${enrolled.remote_control_token}` };
  return {
    serverId: enrolled.server_id as string,
    token: enrolled.remote_control_token as string | undefined,
    async pair(): Promise<{ pairingCode: string }> {
      const res = await post(`${relay.baseUrl}backend-api/wham/remote/control/server/pair`, {}, {
        ...auth,
        "x-svc-server-id": enrolled.server_id,
      });
      assert.equal(res.status, 200);
      return { pairingCode: (await res.json()).pairing_code };
    },
  };
}

/** Attempts a server handshake; resolves with the status (101 when upgraded) and the refusal's body. */
function handshake(
  relay: DevRelay,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return handshakeAt(relay.serverUrl, headers);
}

/** Attempts a WebSocket handshake at `url`: the status (101 when upgraded) and the refusal's body. */
function handshakeAt(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const ws = new WebSocket(url, { headers });
  return new Promise((resolve) => {
    ws.on("open", () => {
      ws.close();
      resolve({ status: 101, body: "" });
    });
    ws.on("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (d) => body += d);
      res.on("end", () => {
        ws.terminate();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    ws.on("error", () => {});
  });
}

Deno.test("enroll issues a server token with expires_at; the handshake takes that token only; refresh renews it", async () => {
  const base = { tokenTtlMs: 60_000 };
  const relay = DevRelay.start(base);
  try {
    const enrollUrl = `${relay.baseUrl}backend-api/wham/remote/control/server/enroll`;
    const enrolled = await (await post(enrollUrl, ENROLL, ACCOUNT)).json();
    assert.equal(enrolled.server_id, "srv_dev_1");
    assert.match(enrolled.remote_control_token, /^rc_dev_/);
    assert.ok(Math.abs(Date.parse(enrolled.expires_at) - Date.now() - 60_000) < 5_000);
    const server = {
      "x-svc-server-id": "srv_dev_1",
      "x-svc-name": "bQ==",
      "x-svc-protocol-version": "3",
      "x-svc-installation-id": "inst-1",
    };
    assert.equal((await handshake(relay, { ...server, authorization: "Bearer acct-token" })).status, 401);
    const withAccount = await handshake(relay, {
      ...server,
      ...ACCOUNT,
      authorization: `Bearer ${enrolled.remote_control_token}`,
    });
    assert.equal(withAccount.status, 400, "the account id header is refused on the server socket");
    const ok = await handshake(relay, {
      ...server,
      authorization: `Bearer ${enrolled.remote_control_token}`,
    });
    assert.equal(ok.status, 101);
    relay.faults.expireTokens();
    const expired = await handshake(relay, {
      ...server,
      authorization: `Bearer ${enrolled.remote_control_token}`,
    });
    assert.equal(expired.status, 401);
    const refreshUrl = `${relay.baseUrl}backend-api/wham/remote/control/server/refresh`;
    const refreshed =
      await (await post(refreshUrl, { server_id: "srv_dev_1", installation_id: "inst-1" }, ACCOUNT))
        .json();
    assert.deepEqual([refreshed.server_id, refreshed.environment_id], ["srv_dev_1", "env_dev_1"]);
    assert.notEqual(refreshed.remote_control_token, enrolled.remote_control_token);
    assert.equal(
      (await handshake(relay, { ...server, authorization: `Bearer ${refreshed.remote_control_token}` }))
        .status,
      101,
    );
    const stale = await post(refreshUrl, { server_id: "srv_dev_9", installation_id: "inst-1" }, ACCOUNT);
    assert.deepEqual([stale.status, await stale.text()], [404, NOT_FOUND_BODY]);
  } finally {
    await relay.close();
  }
});

Deno.test("fault switches answer a handshake with any status and body", async () => {
  const relay = DevRelay.start();
  try {
    const cases: [number, string][] = [
      [404, '{"detail":"Not Found"}'],
      [404, NOT_FOUND_BODY],
      [401, '{"detail":"unauthorized"}'],
      [409, '{"detail":"Remote app server already online"}'],
      [503, "Server overloaded; retry later."],
    ];
    for (const [status, body] of cases) relay.faults.rejectHandshakes(status, { body });
    for (const [status, body] of cases) assert.deepEqual(await handshake(relay, {}), { status, body });
    assert.deepEqual(relay.stats.refusals, cases.map(([s]) => s));
  } finally {
    await relay.close();
  }
});

Deno.test("a client id never paired is refused as a revoked one is (403), with or without a token", async () => {
  const relay = DevRelay.start();
  try {
    const server = await enrolledServer(relay);
    const notPaired = { status: 403, body: JSON.stringify({ detail: "client not paired" }) };
    assert.deepEqual(await handshakeAt(relay.clientUrl("phone"), {}), notPaired);
    assert.deepEqual(
      await handshakeAt(relay.clientUrl("phone"), { authorization: "Bearer guess" }),
      notPaired,
    );
    const device = await pairDevice(relay, server);
    assert.equal((await handshakeAt(device.url, { authorization: `Bearer ${device.token}` })).status, 101);
    assert.equal((await handshakeAt(device.url, {})).status, 401, "a paired id without its token");
    const revoke = await fetch(
      `${relay.baseUrl}backend-api/wham/remote/control/environments/env_dev_1/clients/${device.clientId}`,
      { method: "DELETE", headers: ACCOUNT },
    );
    assert.equal(revoke.status, 200, await revoke.text());
    assert.deepEqual(await handshakeAt(device.url, { authorization: `Bearer ${device.token}` }), {
      status: 403,
      body: JSON.stringify({ detail: "client revoked" }),
    });
  } finally {
    await relay.close();
  }
});

Deno.test("allowUnpaired (relay dev --allow-unpaired) lets an unknown id in without a token, never a paired or revoked one", async () => {
  const relay = DevRelay.start({ allowUnpaired: true });
  try {
    const server = await enrolledServer(relay);
    assert.equal((await handshakeAt(relay.clientUrl("by-hand"), {})).status, 101);
    assert.equal(
      (await handshakeAt(relay.clientUrl("by-hand"), { authorization: "Bearer guess" })).status,
      403,
      "a token names a paired device; an unknown one is not let in",
    );
    const device = await pairDevice(relay, server);
    assert.equal(
      (await handshakeAt(device.url, {})).status,
      401,
      "a paired id is not taken over without its token",
    );
    await fetch(
      `${relay.baseUrl}backend-api/wham/remote/control/environments/env_dev_1/clients/${device.clientId}`,
      { method: "DELETE", headers: ACCOUNT },
    ).then((r) => r.body?.cancel());
    assert.equal((await handshakeAt(device.url, {})).status, 403, "a revoked device stays refused");
  } finally {
    await relay.close();
  }
});

Deno.test("a remote client socket that goes away sends client_closed for each of its streams", async () => {
  const relay = DevRelay.start();
  try {
    const device = await pairDevice(relay, await enrolledServer(relay));
    const client = new WebSocket(device.url, { headers: { authorization: `Bearer ${device.token}` } });
    await new Promise((r) => client.on("open", r));
    for (const stream_id of ["s1", "s2"]) {
      client.send(JSON.stringify({ type: "ping", stream_id }));
    }
    client.send(JSON.stringify({ type: "client_closed", stream_id: "s2" }));
    await new Promise((r) => setTimeout(r, 50));
    client.close();
    await new Promise((r) => client.on("close", r));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(relay.stats.clientClosedSent, 1, "only s1 was still open");
  } finally {
    await relay.close();
  }
});

Deno.test("the relay pings with control frames and closes a socket that stops answering", async () => {
  const relay = DevRelay.start({ idleTimeoutSeconds: 1 });
  try {
    const server = await enrolledServer(relay);
    const [politeDevice, silentDevice] = [await pairDevice(relay, server), await pairDevice(relay, server)];
    const polite = new WebSocket(politeDevice.url, {
      headers: { authorization: `Bearer ${politeDevice.token}` },
    });
    const silent = new WebSocket(silentDevice.url, {
      headers: { authorization: `Bearer ${silentDevice.token}` },
      autoPong: false,
    });
    let pinged = 0;
    silent.on("ping", () => pinged++);
    const closed = { polite: false, silent: false };
    polite.on("close", () => closed.polite = true);
    silent.on("close", () => closed.silent = true);
    const deadline = Date.now() + 10_000;
    while (!closed.silent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(closed.silent, true, "the silent socket was closed");
    assert.ok(pinged >= 1, "it was pinged first");
    assert.equal(closed.polite, false, "the socket that answers pings stays");
    polite.close();
    await new Promise((r) => polite.on("close", r));
  } finally {
    await relay.close();
  }
});

Deno.test("client frames reach the server stamped with the socket's client_id and a cursor, however they named the client", async () => {
  const relay = DevRelay.start({ tokens: false });
  try {
    const enrolled = await enrolledServer(relay);
    const server = new WebSocket(relay.serverUrl, {
      headers: {
        ...ACCOUNT,
        "x-svc-server-id": enrolled.serverId,
        "x-svc-name": "bQ==",
        "x-svc-protocol-version": "3",
      },
    });
    const received: unknown[] = [];
    const three = Promise.withResolvers<void>();
    server.on("message", (data) => {
      received.push(JSON.parse(String(data)));
      if (received.length === 3) three.resolve();
    });
    await new Promise((r) => server.on("open", r));
    const phone = await pairDevice(relay, enrolled);
    const client = new WebSocket(phone.url, { headers: { authorization: `Bearer ${phone.token}` } });
    await new Promise((r) => client.on("open", r));
    // As written by RemoteClient (its own id, passed through as sent), by a client naming another (overwritten),
    // and by one naming none (added).
    client.send(` {"type":"ping","client_id":"${phone.clientId}","stream_id":"s1"} `);
    client.send(JSON.stringify({ type: "ping", client_id: "someone-else", stream_id: "s1" }));
    client.send(JSON.stringify({ type: "ack", stream_id: "s1", seq_id: 4 }));
    await three.promise;
    const client_id = phone.clientId;
    assert.deepEqual(received, [
      { type: "ping", client_id, stream_id: "s1", cursor: "1" },
      { type: "ping", client_id, stream_id: "s1", cursor: "2" },
      { type: "ack", client_id, stream_id: "s1", seq_id: 4, cursor: "3" },
    ]);
    client.close();
    server.close();
  } finally {
    await relay.close();
  }
});
