import assert from "node:assert/strict";
import { testProvider } from "../../cli/test_provider.ts";
import { createAppServer } from "../server.ts";
import { handshakeStatus } from "../../tests/helpers/ws_handshake.ts";
import { listenWebSocket } from "./websocket.ts";

Deno.test("the WebSocket listener refuses non-loopback addresses", () => {
  const p = testProvider();
  const server = createAppServer({ provider: p });
  assert.throws(
    () => listenWebSocket(server, { hostname: "0.0.0.0", port: 0, clock: p.clock }),
    /loopback only/,
  );
  return server.close();
});

Deno.test("WebSocket: one message per frame, origin WebSocket, oversized frames rejected", async () => {
  const p = testProvider();
  const server = createAppServer({ provider: p });
  const listener = listenWebSocket(server, {
    hostname: "127.0.0.1",
    port: 0,
    clock: p.clock,
    maxMessageBytes: 200,
  });
  const ws = new WebSocket(`ws://127.0.0.1:${listener.port}`);
  const replies: {
    id?: number | null;
    result?: { connection: { origin: string } };
    error?: { code: number };
  }[] = [];
  const got = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => replies.length >= n ? resolve() : setTimeout(check, 5);
      check();
    });
  ws.onmessage = (e) => replies.push(JSON.parse(e.data));
  await new Promise((r) => ws.onopen = r);
  ws.send(
    JSON.stringify({ id: 1, method: "initialize", params: { clientInfo: { name: "ws", version: "1" } } }),
  );
  await got(1);
  assert.equal(replies[0].result?.connection.origin, "WebSocket");
  ws.send(JSON.stringify({ id: 2, method: "x", params: { pad: "y".repeat(300) } }));
  await got(2);
  assert.equal(replies[1].error?.code, -32700);
  const closed = new Promise((r) => ws.onclose = r);
  ws.close();
  await closed;
  await listener.close();
  await server.close();
});

Deno.test("WebSocket handshake: foreign Host or Origin get 403, a missing or wrong token 401, the right one 101", async () => {
  const p = testProvider();
  let opened = 0;
  const server = createAppServer({ provider: p, log: (event) => event === "connection_opened" && opened++ });
  const token = "a".repeat(64);
  const listener = listenWebSocket(server, {
    hostname: "127.0.0.1",
    port: 0,
    clock: p.clock,
    token,
    allowedOrigins: ["http://localhost:3000"],
  });
  const host = `127.0.0.1:${listener.port}`;
  try {
    assert.equal(await handshakeStatus(listener.port, { Host: `evil.example:${listener.port}` }), 403);
    assert.equal(
      await handshakeStatus(listener.port, {
        Host: `rebind.attacker.test`,
        Authorization: `Bearer ${token}`,
      }),
      403,
    );
    assert.equal(await handshakeStatus(listener.port, { Host: host, Origin: "https://evil.example" }), 403);
    assert.equal(
      await handshakeStatus(listener.port, { Host: host, Origin: "null", Authorization: `Bearer ${token}` }),
      403,
    );
    assert.equal(await handshakeStatus(listener.port, { Host: host }), 401);
    assert.equal(
      await handshakeStatus(listener.port, { Host: host, Authorization: `Bearer ${"b".repeat(64)}` }),
      401,
    );
    assert.equal(await handshakeStatus(listener.port, { Host: host }, `/?token=${token.slice(1)}`), 401);
    assert.equal(opened, 0, "no refused handshake became a connection");
    assert.equal(await handshakeStatus(listener.port, { Host: host, Authorization: `Bearer ${token}` }), 101);
    assert.equal(
      await handshakeStatus(
        listener.port,
        { Host: `localhost:${listener.port}`, Origin: "http://localhost:3000" },
        `/?token=${token}`,
      ),
      101,
    );
    for (let i = 0; i < 100 && opened < 2; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(opened, 2);
  } finally {
    await listener.close();
    await server.close();
  }
});

Deno.test("WebSocket handshake: odd Host headers get 400 and leave no stack trace on stderr", async () => {
  const p = testProvider();
  const server = createAppServer({ provider: p });
  const refused: string[] = [];
  const listener = listenWebSocket(server, {
    hostname: "127.0.0.1",
    port: 0,
    clock: p.clock,
    token: "a".repeat(64),
    onRefused: (reason) => refused.push(reason),
  });
  // Deno.serve's default error handler prints the handler's exception (a stack) with console.error.
  const printed: unknown[] = [];
  const realError = console.error;
  console.error = (...args: unknown[]) => printed.push(args);
  try {
    for (
      const host of [
        "localhost:abc",
        "127.0.0.1:99999",
        "127.0.0.1 foo",
        "[::1",
        "localhost%00",
        "localhost:",
      ]
    ) {
      assert.equal(await handshakeStatus(listener.port, { Host: host }, "/?token=x"), 400, host);
    }
    assert.deepEqual(printed, []);
    assert.ok(refused.every((r) => r === "malformed Host header"), JSON.stringify(refused));
  } finally {
    console.error = realError;
    await listener.close();
    await server.close();
  }
});
