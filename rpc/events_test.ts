import assert from "node:assert/strict";
import { errors } from "../cli/output/errors.ts";
import { RpcError } from "./errors.ts";
import { type EventFeed, eventMethods } from "./events.ts";
import { DEFAULT_POLICY } from "./policy.ts";
import type { MethodContext } from "./server.ts";
import type { Origin } from "./connection.ts";

type Sink = Parameters<EventFeed["subscribe"]>[1];

function fakeFeed() {
  const sinks: Sink[] = [];
  let closed = 0;
  const feed: EventFeed = {
    subscribe(_filter, sink) {
      sinks.push(sink);
      return Promise.resolve({ close: () => void closed++ });
    },
  };
  return { feed, sinks, closed: () => closed };
}

function context(id: string, origin: Origin, sent: unknown[][], fail = false): MethodContext {
  return {
    connection: { id, origin, experimentalApi: false, initialized: true },
    broadcast: () => Promise.resolve(),
    notify: (method, params) => {
      if (fail) return Promise.reject(new Error("closed"));
      sent.push([method, params]);
      return Promise.resolve();
    },
  };
}

Deno.test("event/subscribe: events become event/received to the subscriber; unsubscribe is its own", async () => {
  const { feed, sinks, closed } = fakeFeed();
  const { methods } = eventMethods(feed);
  const sent: unknown[][] = [];
  const ctx = context("conn-a", "Stdio", sent);
  const reply = await methods["event/subscribe"]!({
    threadId: "t1",
    keys: ["im.message.receive_v1"],
    params: {},
  }, ctx);
  const { subscriptionId } = reply as { subscriptionId: string };
  assert.equal(await sinks[0].deliver({ header: { event_id: "e1" } }), true);
  assert.deepEqual(sent, [["event/received", {
    threadId: "t1",
    subscriptionId,
    event: { header: { event_id: "e1" } },
  }]]);

  const other = context("conn-b", "Stdio", []);
  assert.throws(() => methods["event/unsubscribe"]!({ subscriptionId }, other), RpcError);
  assert.deepEqual(methods["event/unsubscribe"]!({ subscriptionId }, ctx), {});
  assert.equal(closed(), 1);
  assert.equal(await sinks[0].deliver({}), false, "nothing is delivered after unsubscribing");
});

Deno.test("event/subscribe: a subscriber that is gone ends its subscription; the feed ending is told", async () => {
  const { feed, sinks, closed } = fakeFeed();
  const { methods, close } = eventMethods(feed);
  await methods["event/subscribe"]!(
    { threadId: "t", keys: [], params: {} },
    context("gone", "Stdio", [], true),
  );
  assert.equal(await sinks[0].deliver({}), false);
  assert.equal(closed(), 1);

  const sent: unknown[][] = [];
  const reply = await methods["event/subscribe"]!(
    { threadId: "t2", keys: [], params: {} },
    context("c", "Stdio", sent),
  );
  sinks[1].ended("the event hub stopped");
  assert.deepEqual(sent, [["event/subscription/ended", {
    threadId: "t2",
    subscriptionId: (reply as { subscriptionId: string }).subscriptionId,
    reason: "the event hub stopped",
  }]]);
  close();
});

Deno.test("event/subscribe: no hub is a -32600 with the larkit error's type and hint as data", async () => {
  const feed: EventFeed = {
    subscribe: () =>
      Promise.reject(errors.config("no event hub runs for app cli_x", { hint: "larkit event consume" })),
  };
  const { methods } = eventMethods(feed);
  await assert.rejects(
    async () =>
      await methods["event/subscribe"]!({ threadId: "t", keys: [], params: {} }, context("c", "Stdio", [])),
    (e: RpcError) =>
      e.code === -32600 && (e.data as { type: string }).type === "config" && /no event hub/.test(e.message),
  );
});

Deno.test("event/subscribe: refused to remote origins when the server forbids the event service", async () => {
  const { feed, sinks } = fakeFeed();
  const { methods } = eventMethods(feed, { ...DEFAULT_POLICY, forbiddenServices: ["event"] });
  const params = { threadId: "t", keys: [], params: {} };
  await assert.rejects(
    async () => await methods["event/subscribe"]!(params, context("r", "RemoteControl", [])),
    /forbidden for remote connections/,
  );
  assert.equal(sinks.length, 0, "the hub was never asked");
  await methods["event/subscribe"]!(params, context("l", "Stdio", []));
  assert.equal(sinks.length, 1, "local connections are not remote");
});
