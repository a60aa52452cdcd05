/**
 * larkit's long-connection client against the emulator's long connection: endpoint, frames, reassembly,
 * acknowledgements, redelivery and reconnects, in-process (no larkit subprocess).
 */
import assert from "node:assert/strict";
import type { EventEnvelope } from "../cli/event/catalog.ts";
import { type ConnectionStatus, LongConnection } from "../cli/event/connection.ts";
import { type Emulator, fixtures, startEmulator, tenantToken, userToken } from "./helpers/emulator.ts";
import { clock, quickReconnects } from "./helpers/event_hub.ts";
import { until } from "./helpers/until.ts";

function connect(emu: Emulator, opts: { secret?: string; autoAck?: boolean } = {}) {
  const got: EventEnvelope[] = [];
  const acks: (() => void)[] = [];
  const statuses: ConnectionStatus[] = [];
  const conn = new LongConnection({
    openOrigin: emu.url,
    appId: emu.app.appId,
    appSecret: opts.secret ?? emu.app.appSecret,
    fetch: (i, init) => fetch(i, init),
    clock,
    random: Math.random,
    onEvent(e, ack) {
      got.push(e);
      if (opts.autoAck ?? true) ack();
      else acks.push(ack);
    },
    onStatus: (s) => statuses.push(s),
  });
  return { conn, got, acks, statuses };
}

async function withEmu(fn: (emu: Emulator) => Promise<void>): Promise<void> {
  const emu = await startEmulator({});
  quickReconnects(emu, 0.02);
  try {
    await fn(emu);
  } finally {
    await emu.stop();
  }
}

Deno.test("long connection: receives an event, acknowledges it, and the emulator forgets it", async () => {
  await withEmu(async (emu) => {
    const { conn, got, statuses } = connect(emu);
    try {
      await until("connected", () => conn.status.state === "connected");
      const id = emu.events.publish("im.message.receive_v1", { message: { chat_id: "oc_1" } });
      await until("the event", () => got.length === 1);
      assert.equal(got[0].header.event_id, id);
      assert.equal(got[0].header.event_type, "im.message.receive_v1");
      await until("the ack", () => emu.events.unacked() === 0);
      assert.equal(statuses[0].state, "connected");
    } finally {
      await conn.stop();
    }
    assert.equal(conn.status.state, "stopped");
  });
});

Deno.test("long connection: payloads split into fragments are reassembled", async () => {
  await withEmu(async (emu) => {
    emu.events.splitInto = 7;
    const { conn, got } = connect(emu);
    try {
      await until("connected", () => conn.status.state === "connected");
      const text = "多字节 text ".repeat(50);
      emu.events.publish("im.message.receive_v1", { message: { content: text } });
      await until("the event", () => got.length === 1);
      assert.equal((got[0].event.message as { content: string }).content, text);
    } finally {
      await conn.stop();
    }
  });
});

Deno.test("long connection: an unacknowledged event is redelivered after a drop; the client reconnects", async () => {
  await withEmu(async (emu) => {
    const { conn, got, acks } = connect(emu, { autoAck: false });
    try {
      await until("connected", () => conn.status.state === "connected");
      const id = emu.events.publish("task.task.updated_v1", { task_id: "t1" });
      await until("the event", () => got.length === 1);
      emu.events.dropSocket();
      await until("the redelivery", () => got.length === 2);
      assert.equal(got[1].header.event_id, id);
      assert.equal(conn.status.connects, 2);
      acks[1]();
      await until("the ack", () => emu.events.unacked() === 0);
      // The ack of the first delivery went nowhere: its socket is closed. Calling it is harmless.
      acks[0]();
    } finally {
      await conn.stop();
    }
  });
});

Deno.test("long connection: lost acks mean redelivery; delayed acks still land", async () => {
  await withEmu(async (emu) => {
    const { conn, got } = connect(emu);
    try {
      await until("connected", () => conn.status.state === "connected");
      emu.events.loseAcks = true;
      emu.events.publish("task.task.updated_v1", { task_id: "t1" });
      await until("the event", () => got.length === 1);
      // The client's ack must have reached the emulator and been lost before acks count again.
      await until("the lost ack", () => emu.events.acks() === 1);
      // Unacknowledged past redeliverAfterMs: the emulator sends it again by itself.
      emu.events.loseAcks = false;
      emu.events.redeliverAfterMs = 30;
      await until("the redelivery", () => got.length === 2);
      emu.events.ackDelayMs = 30;
      await until("the delayed ack", () => emu.events.unacked() === 0);
    } finally {
      await conn.stop();
    }
  });
});

Deno.test("long connection: a wrong app secret fails for good, without retrying", async () => {
  await withEmu(async (emu) => {
    const { conn } = connect(emu, { secret: "wrong" });
    await conn.done;
    assert.equal(conn.status.state, "failed");
    assert.match(conn.status.error ?? "", /code 514/);
    assert.equal(emu.events.connections(), 0);
  });
});

Deno.test("long connection: a pong updates the client config", async () => {
  await withEmu(async (emu) => {
    emu.events.clientConfig = {
      PingInterval: 0.05,
      ReconnectCount: 3,
      ReconnectInterval: 0.02,
      ReconnectNonce: 0,
    };
    const { conn } = connect(emu);
    try {
      await until("connected", () => conn.status.state === "connected");
      emu.events.clientConfig = { ...emu.events.clientConfig, ReconnectCount: 9 };
      await until("a pong with the new config", () => conn.config.reconnectCount === 9);
    } finally {
      await conn.stop();
    }
  });
});

Deno.test("emulator pushes: messages, reactions, calendar and task changes become events; the bot's own do not", async () => {
  await withEmu(async (emu) => {
    const { conn, got } = connect(emu);
    try {
      await until("connected", () => conn.status.state === "connected");
      const uat = (await userToken(emu)).access_token;
      const tat = await tenantToken(emu);
      const call = async (token: string, method: string, path: string, body?: unknown) => {
        const res = await fetch(`${emu.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const json = await res.json() as { code: number; msg: string; data: Record<string, unknown> };
        assert.equal(json.code, 0, `${method} ${path}: ${json.msg}`);
        return json.data;
      };
      const chat = fixtures.CHATS.engineering;
      const text = { msg_type: "text", content: JSON.stringify({ text: "hello bot" }), receive_id: chat };
      // The bot's own message is no event for the bot.
      await call(tat, "POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", text);
      const msg = await call(uat, "POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", text);
      const reaction = await call(uat, "POST", `/open-apis/im/v1/messages/${msg.message_id}/reactions`, {
        reaction_type: { emoji_type: "THUMBSUP" },
      });
      await call(
        uat,
        "DELETE",
        `/open-apis/im/v1/messages/${msg.message_id}/reactions/${reaction.reaction_id}`,
      );
      const calendar = encodeURIComponent(fixtures.CALENDARS.bot);
      await call(tat, "POST", `/open-apis/calendar/v4/calendars/${calendar}/events`, {
        summary: "Planning",
        start_time: { timestamp: "1795420800" },
        end_time: { timestamp: "1795424400" },
      });
      const task = await call(uat, "POST", "/open-apis/task/v2/tasks", { summary: "Ship events" });
      const guid = (task.task as { guid: string }).guid;
      await until("five events", () => got.length >= 5);
      assert.deepEqual(got.map((e) => e.header.event_type), [
        "im.message.receive_v1",
        "im.message.reaction.created_v1",
        "im.message.reaction.deleted_v1",
        "calendar.calendar.event.changed_v4",
        "task.task.updated_v1",
      ]);
      const received = got[0].event as { message: { message_id: string; chat_type: string } };
      assert.equal(received.message.message_id, msg.message_id);
      assert.equal(received.message.chat_type, "group");
      assert.equal((got[1].event as { message_id: string }).message_id, msg.message_id);
      assert.equal((got[3].event as { calendar_id: string }).calendar_id, fixtures.CALENDARS.bot);
      assert.equal((got[4].event as { task_id: string }).task_id, guid);
    } finally {
      await conn.stop();
    }
  });
});

Deno.test("long connection: with the suite gone it retries ReconnectCount times, then fails", async () => {
  const emu = await startEmulator({});
  emu.events.clientConfig = {
    PingInterval: 120,
    ReconnectCount: 2,
    ReconnectInterval: 0.01,
    ReconnectNonce: 0.01,
  };
  const { conn, statuses } = connect(emu);
  await until("connected", () => conn.status.state === "connected");
  await emu.stop();
  await conn.done;
  assert.equal(conn.status.state, "failed");
  assert.match(conn.status.error ?? "", /gave up after 2 attempts/);
  assert.equal(conn.status.errorType, "network");
  assert.ok(statuses.some((s) => s.state === "reconnecting"));
});
