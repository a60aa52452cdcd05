/**
 * A relay that misbehaves, as an attacker or a broken deployment would: frames whose cursor or ids carry header
 * syntax (issue 33, B.4), and a relay that pings but never answers larkit's pings (B.6). The session must stay
 * able to reconnect in the first case and drop the socket in the second.
 */
import assert from "node:assert/strict";
// @ts-types="@types/ws"
import { WebSocketServer } from "ws";
import type { AppServer, Connection, Origin, Outbound } from "../rpc/connection.ts";
import { testSession } from "../tests/helpers/relay_host.ts";
import { until } from "../tests/helpers/until.ts";
import { DevRelay } from "./dev_relay.ts";
import type { SessionTiming } from "./session.ts";
import { type OpenSocket, openWsSocket } from "./socket.ts";

class CountingApp implements AppServer {
  opened = 0;
  connect(origin: Origin, out: Outbound): Connection {
    this.opened++;
    return {
      id: String(this.opened),
      origin,
      receive: async (text) => {
        const msg = JSON.parse(text) as { id?: number };
        if (msg.id !== undefined) await out.send(JSON.stringify({ id: msg.id, result: {} }));
      },
      close: () => {},
    };
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function session(
  relay: DevRelay,
  opts: { log: string[]; app?: AppServer; timing?: Partial<SessionTiming>; openSocket?: OpenSocket },
) {
  return testSession(relay.baseUrl, opts.app ?? new CountingApp(), {
    timing: opts.timing,
    log: (line) => opts.log.push(line),
    openSocket: opts.openSocket,
  });
}

const INITIALIZE = { id: 1, method: "initialize", params: { clientInfo: { name: "x", version: "1" } } };

Deno.test("a relay frame whose cursor or ids hold CR/LF is refused and logged; reconnecting still works", async () => {
  const relay = DevRelay.start();
  const log: string[] = [];
  const app = new CountingApp();
  const s = session(relay, { log, app });
  try {
    await s.enable();
    await until("connected", () => s.status.current.status === "connected");
    relay.faults.sendRawFrame(JSON.stringify({
      type: "ack",
      client_id: "c1",
      stream_id: "s1",
      seq_id: 1,
      cursor: "7\r\nx-injected: 1",
    }));
    relay.faults.sendRawFrame(JSON.stringify({
      type: "client_message",
      client_id: "c1\r\nx-injected: 1",
      stream_id: "s1",
      message: INITIALIZE,
    }));
    relay.faults.sendRawFrame(JSON.stringify({
      type: "client_message",
      client_id: "c2",
      stream_id: "s\u001b]0;title\u0007",
      message: INITIALIZE,
    }));
    await until("three refusals logged", () => log.filter((l) => /not a plain token/.test(l)).length === 3);
    assert.ok(log.some((l) => l.includes("cursor is not a plain token")), log.join("\n"));
    assert.ok(log.some((l) => l.includes("client_id is not a plain token")), log.join("\n"));
    assert.ok(log.some((l) => l.includes("stream_id is not a plain token")), log.join("\n"));
    assert.equal(app.opened, 0, "no stream opened under a bad id");

    // A good cursor after the bad one is still taken, and the next handshakes succeed with it.
    relay.faults.sendRawFrame(
      JSON.stringify({ type: "ack", client_id: "c1", stream_id: "s1", seq_id: 1, cursor: "8" }),
    );
    await until("the good frame handled", () => log.length > 0 && relay.serverConnected);
    for (let round = 2; round <= 3; round++) {
      relay.faults.dropServerSocket();
      await until(`handshake ${round}`, () => relay.stats.handshakes === round, 5_000);
      const headers = relay.stats.handshakeHeaders.at(-1) ?? {};
      assert.equal(headers["x-injected"], undefined);
      assert.notEqual(headers["x-svc-subscribe-cursor"], "7\r\nx-injected: 1");
    }
    await until("connected again", () => s.status.current.status === "connected", 5_000);
  } finally {
    await s.close();
    await relay.close();
  }
});

Deno.test("a relay that pings but never answers larkit's pings is dropped after the pong timeout", async () => {
  const relay = DevRelay.start();
  // The socket goes to a server that pings every 20 ms and never pongs (ws answers pings by itself unless told).
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, autoPong: false });
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
  const port = (wss.address() as { port: number }).port;
  let connections = 0;
  let closed = 0;
  const timers: ReturnType<typeof setInterval>[] = [];
  wss.on("connection", (ws) => {
    connections++;
    timers.push(setInterval(() => ws.ping(), 20));
    ws.on("close", () => closed++);
  });
  const openSocket: OpenSocket = (_url, headers, o) => openWsSocket(`ws://127.0.0.1:${port}/`, headers, o);
  const log: string[] = [];
  // Injectable: a 100 ms ping interval and a 400 ms threshold instead of 10 s and 60 s.
  const s = session(relay, { log, openSocket, timing: { pingIntervalMs: 100, pongTimeoutMs: 400 } });
  try {
    await s.enable();
    await until("connected", () => connections === 1 && s.status.current.status === "connected", 5_000);
    await until("the silent relay dropped", () => closed >= 1, 5_000);
    assert.ok(log.some((l) => l.includes("pong timeout")), log.join("\n"));
    await until("a reconnect", () => connections >= 2, 5_000);
  } finally {
    for (const t of timers) clearInterval(t);
    await s.close();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    for (const c of wss.clients) c.terminate();
    await relay.close();
  }
});
