/**
 * The official SDK's event long connection against the emulator, as its README starts it: `new
 * lark.WSClient({appId, appSecret, domain})` and `start({eventDispatcher})`. Events come from API calls (a user's
 * message into a chat the bot is in), are received and acknowledged, including events that were waiting before
 * the client connected and events after the server drops the socket. A wrong secret fails the client for good,
 * as the SDK expects (its error in a 2xx body), instead of retrying forever.
 */
import assert from "node:assert/strict";
import * as lark from "@larksuiteoapi/node-sdk";
import { type Emulator, fixtures, userToken, withEmulator } from "../helpers/emulator.ts";
import { until } from "../helpers/until.ts";

const quiet = { error() {}, warn() {}, info() {}, debug() {}, trace() {} };

interface Received {
  message_id?: string;
  text?: string;
}

/** A user-side client sending into the seeded engineering chat (the bot is a member), as alice. */
async function userSender(emu: Emulator) {
  const client = new lark.Client({
    appId: emu.app.appId,
    appSecret: emu.app.appSecret,
    domain: emu.url,
    logger: quiet,
  });
  const asAlice = lark.withUserAccessToken((await userToken(emu)).access_token);
  return async (text: string): Promise<string> => {
    const res = await client.im.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: fixtures.CHATS.engineering, msg_type: "text", content: JSON.stringify({ text }) },
    }, asAlice);
    assert.equal(res.code, 0, JSON.stringify(res));
    return res.data?.message_id ?? "";
  };
}

function listener(emu: Emulator, received: Received[], appSecret = emu.app.appSecret) {
  let failed: Error | undefined;
  const ws = new lark.WSClient({
    appId: emu.app.appId,
    appSecret,
    domain: emu.url,
    logger: quiet,
    onError: (e) => failed = e,
  });
  const eventDispatcher = new lark.EventDispatcher({ logger: quiet }).register({
    "im.message.receive_v1": (data) => {
      received.push({ message_id: data.message.message_id, text: JSON.parse(data.message.content).text });
    },
  });
  return { ws, start: () => ws.start({ eventDispatcher }), failed: () => failed };
}

Deno.test("SDK WSClient: receives and acks events, those waiting before it connected and those after a drop", async () => {
  await withEmulator({}, async (emu) => {
    // The SDK refuses to start for an app id not shaped like the suite's (`cli_` + 16 hex).
    assert.match(emu.app.appId, /^cli_[0-9a-f]{16}$/);
    // Quick reconnects; no redelivery within the test, so an event the client missed stays missed.
    emu.events.clientConfig = {
      PingInterval: 120,
      ReconnectCount: -1,
      ReconnectInterval: 0.05,
      ReconnectNonce: 0.01,
    };
    emu.events.redeliverAfterMs = 3_600_000;
    const send = await userSender(emu);
    const received: Received[] = [];
    const got = (id: string) => received.some((r) => r.message_id === id);

    // Waiting before the client connects: pushed once it listens, not into the gap before its handler.
    const early = await send("sent before the client started");
    const client = listener(emu, received);
    try {
      await client.start();
      await until("the event that was waiting", () => got(early));
      await until("its ack", () => emu.events.unacked() === 0);

      const live = await send("sent while connected");
      await until("the live event", () => got(live));
      assert.equal(received.find((r) => r.message_id === live)?.text, "sent while connected");

      // The server drops the socket: the SDK reconnects and events keep coming.
      emu.events.dropSocket();
      const after = await send("sent after the drop");
      await until("the event after the drop", () => got(after));
      await until("every ack", () => emu.events.unacked() === 0);
      assert.ok(emu.events.connections() >= 2, `connections: ${emu.events.connections()}`);
      assert.equal(received.filter((r) => r.message_id === after).length, 1);
      assert.equal(client.failed(), undefined);
    } finally {
      client.ws.close({ force: true });
    }
  });
});

Deno.test("SDK WSClient: a wrong secret at the event endpoint fails the client for good", async () => {
  await withEmulator({}, async (emu) => {
    // The endpoint answers as the SDK reads it: HTTP 200, the suite's code in the body, an empty data object.
    const res = await fetch(`${emu.url}/callback/ws/endpoint`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ AppID: emu.app.appId, AppSecret: "wrong" }),
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.code, 514);
    assert.deepEqual(body.data, {});

    const client = listener(emu, [], "wrong");
    try {
      await client.start();
      await until("the SDK's onError", () => client.failed() !== undefined);
      assert.match(client.failed()?.message ?? "", /code=514/);
      assert.equal(emu.events.connections(), 0);
    } finally {
      client.ws.close({ force: true });
    }
  });
});
