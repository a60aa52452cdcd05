/**
 * The long connection's server side, spoken to with raw frames: events waiting when a socket opens go out only
 * once the client has sent its first frame (or after the grace), and the endpoint refuses inside a 2xx body.
 */
import assert from "node:assert/strict";
import { withEmulator } from "../../tests/helpers/emulator.ts";
import { until } from "../../tests/helpers/until.ts";
import { decodeWire, encodeWire, type WireFrame, wireHeader } from "./wire.ts";

async function endpoint(url: string, appId: string, appSecret: string) {
  const res = await fetch(`${url}/callback/ws/endpoint`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ AppID: appId, AppSecret: appSecret }),
  });
  return { status: res.status, body: await res.json() };
}

Deno.test("long connection: an event waiting when the socket opens is pushed only after the client's first frame", async () => {
  await withEmulator({}, async (emu) => {
    emu.events.readyGraceMs = 3_600_000;
    const id = emu.events.publish("im.chat.updated_v1", { chat_id: "oc_waiting" });
    const { body } = await endpoint(emu.url, emu.app.appId, emu.app.appSecret);
    const frames: { frame: WireFrame; afterPing: boolean }[] = [];
    let pinged = false;
    const ws = new WebSocket(body.data.URL);
    ws.binaryType = "arraybuffer";
    ws.onmessage = (m) => frames.push({ frame: decodeWire(new Uint8Array(m.data)), afterPing: pinged });
    try {
      await new Promise((resolve, reject) => {
        ws.onopen = resolve;
        ws.onerror = reject;
      });
      // The server has taken the socket, and a request made after that has been answered: anything it pushed
      // at open has been written before this answer.
      await until("the server to take the socket", () => emu.events.connections() === 1);
      await (await fetch(`${emu.url}/open-apis/im/v1/chats`)).body?.cancel();
      pinged = true;
      ws.send(encodeWire({
        seqId: 0n,
        logId: 0n,
        service: 7,
        method: 0,
        headers: [["type", "ping"]],
        payload: new Uint8Array(),
      }));
      await until("the waiting event", () => frames.some((f) => wireHeader(f.frame, "message_id") === id));
      const event = frames.find((f) => wireHeader(f.frame, "message_id") === id);
      assert.equal(event?.afterPing, true, "the event was pushed before the client sent anything");
    } finally {
      ws.close();
    }
  });
});

Deno.test("long connection: a client that sends nothing gets the waiting events after the grace", async () => {
  await withEmulator({}, async (emu) => {
    emu.events.readyGraceMs = 1;
    const id = emu.events.publish("im.chat.updated_v1", { chat_id: "oc_waiting" });
    const { body } = await endpoint(emu.url, emu.app.appId, emu.app.appSecret);
    const ids: (string | undefined)[] = [];
    const ws = new WebSocket(body.data.URL);
    ws.binaryType = "arraybuffer";
    ws.onmessage = (m) => ids.push(wireHeader(decodeWire(new Uint8Array(m.data)), "message_id"));
    try {
      await until("the waiting event", () => ids.includes(id));
    } finally {
      ws.close();
    }
  });
});

Deno.test("event endpoint: a wrong secret or a bad body is refused inside a 2xx body with the suite's code", async () => {
  await withEmulator({}, async (emu) => {
    const wrong = await endpoint(emu.url, emu.app.appId, "wrong");
    assert.equal(wrong.status, 200);
    assert.equal(wrong.body.code, 514);
    assert.deepEqual(wrong.body.data, {});
    const res = await fetch(`${emu.url}/callback/ws/endpoint`, { method: "POST", body: "{}" });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).code, 1000040346);
    assert.equal(emu.events.connections(), 0);
  });
});

Deno.test("the seeded app id has the suite's shape (the SDK's WSClient will not start otherwise)", async () => {
  await withEmulator({}, async (emu) => {
    assert.match(emu.app.appId, /^cli_[0-9a-f]{16}$/);
    const { body } = await endpoint(emu.url, emu.app.appId, emu.app.appSecret);
    assert.equal(body.code, 0);
  });
});
