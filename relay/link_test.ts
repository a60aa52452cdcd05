import assert from "node:assert/strict";
import { errors } from "../cli/output/errors.ts";
import type { Failure } from "./enrollment.ts";
import { backoffDelay, type LinkTiming, RelayLink } from "./link.ts";
import type { OpenSocket, RelaySocket, SocketHandlers } from "./socket.ts";
import { StatusBoard } from "./status.ts";
import { FakeClock } from "../tests/helpers/fake_clock.ts";

class FakeSocket implements RelaySocket {
  isOpen = true;
  pings = 0;
  terminated = false;
  handlers: SocketHandlers | undefined;
  send(): void {}
  ping(): void {
    this.pings++;
  }
  terminate(): void {
    if (this.terminated) return;
    this.terminated = true;
    this.isOpen = false;
    this.handlers?.onClose();
  }
  listen(h: SocketHandlers): void {
    this.handlers = h;
  }
}

const TIMING: LinkTiming = {
  backoffBaseMs: 100,
  backoffCapMs: 1_000,
  stableMs: 5_000,
  pingIntervalMs: 10_000,
  pongTimeoutMs: 60_000,
  connectTimeoutMs: 1_000,
};

function link(opts: { open: OpenSocket; classify?: (e: unknown) => Failure; clock: FakeClock }) {
  const status = new StatusBoard({
    status: "connecting",
    serverName: "s",
    installationId: "i",
    environmentId: null,
  });
  const events: string[] = [];
  const texts: string[] = [];
  const l = new RelayLink({
    url: "ws://127.0.0.1:1/",
    clock: opts.clock,
    // A constant jitter unit of 0.5: every delay is its nominal value.
    random: { uuid: () => "u", bytes: (n) => new Uint8Array(n).fill(0x80) },
    timing: TIMING,
    openSocket: opts.open,
    status,
    log: () => {},
    credentials: () => Promise.resolve({ headers: { authorization: "Bearer t" }, environmentId: "env-1" }),
    classify: opts.classify ?? ((e) => ({ error: errors.network(String(e)) })),
    onText: (t) => texts.push(t),
    onUp: () => events.push("up"),
    onDown: () => events.push("down"),
  });
  return { link: l, status, events, texts };
}

Deno.test("backoff doubles from the base up to the cap, with ±10% jitter", () => {
  assert.equal(backoffDelay(0, TIMING, 0.5), 100);
  assert.equal(backoffDelay(3, TIMING, 0.5), 800);
  assert.equal(backoffDelay(4, TIMING, 0.5), 1_000);
  assert.equal(backoffDelay(60, TIMING, 0.5), 1_000);
  assert.equal(backoffDelay(0, TIMING, 0), 90);
  assert.equal(backoffDelay(0, TIMING, 0.999), 110);
});

Deno.test("pings every interval; a socket silent past the pong timeout is dropped and the link reconnects", async () => {
  const clock = new FakeClock();
  const sockets: FakeSocket[] = [];
  const { link: l, status, events } = link({
    clock,
    open: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return Promise.resolve(s);
    },
  });
  l.start();
  await clock.advance(0);
  assert.equal(status.current.status, "connected");
  assert.equal(status.current.environmentId, "env-1");
  assert.deepEqual(events, ["up"]);
  // A pong (activity) at 30 s keeps the socket: the timeout runs from the last sign of life.
  await clock.advance(30_000);
  sockets[0].handlers?.onActivity();
  const heardAt = clock.now();
  assert.equal(l.lastInboundAt, heardAt);
  await clock.advance(59_000);
  assert.equal(sockets[0].terminated, false);
  assert.ok(sockets[0].pings >= 8, `${sockets[0].pings} pings`);
  await clock.advance(1_000);
  assert.equal(sockets[0].terminated, true, "silent for 60 s after the last pong");
  assert.deepEqual(events, ["up", "down"]);
  // Up for longer than stableMs: the backoff starts over at the base.
  await clock.advance(TIMING.backoffBaseMs);
  assert.equal(sockets.length, 2);
  assert.equal(status.current.status, "connected");
  await l.stop();
  assert.equal(sockets[1].terminated, true, "stop drops the socket at once");
});

Deno.test("failed attempts back off exponentially and leave connecting with the error; stop ends the wait", async () => {
  const clock = new FakeClock();
  let attempts = 0;
  const { link: l, status } = link({
    clock,
    open: () => {
      attempts++;
      return Promise.reject(new Error("refused"));
    },
  });
  l.start();
  await clock.advance(0);
  assert.equal(status.current.status, "connecting");
  assert.match(status.current.error?.message ?? "", /refused/);
  await clock.advance(100 + 200 + 400);
  assert.equal(attempts, 4);
  assert.deepEqual(clock.slept.filter((ms) => ms >= 100), [100, 200, 400, 800]);
  await l.stop();
  assert.equal(l.running, false);
});

Deno.test("a failure that needs no wait is retried at once, but never twice in a row", async () => {
  const clock = new FakeClock();
  let attempts = 0;
  const { link: l } = link({
    clock,
    open: () => {
      attempts++;
      return Promise.reject(new Error("forgotten"));
    },
    classify: () => ({ error: errors.notFound("relay forgot the server"), immediate: true }),
  });
  l.start();
  await clock.advance(0);
  assert.equal(attempts, 2, "the first failure is retried at once, the second waits");
  await clock.advance(100);
  assert.equal(attempts, 4);
  await l.stop();
});
