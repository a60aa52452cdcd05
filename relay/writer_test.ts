import assert from "node:assert/strict";
import type { WireFrame } from "./segments.ts";
import type { RelaySocket } from "./socket.ts";
import { FramePump } from "./writer.ts";

/** A socket that holds every write until the test says it left for the network. */
function heldSocket() {
  const sent: string[] = [];
  const pending: (() => void)[] = [];
  const socket: RelaySocket = {
    isOpen: true,
    send: (text, written) => {
      sent.push(text);
      pending.push(written ?? (() => {}));
    },
    ping: () => {},
    terminate: () => {},
    listen: () => {},
  };
  return { socket, sent, flush: () => pending.splice(0).forEach((w) => w()) };
}

const frame = (seqId: number, text: string): WireFrame => ({ seqId, text });

Deno.test("streams take turns, a frame each; a stream's frames keep their order", () => {
  const { socket, sent, flush } = heldSocket();
  // A two-character write-ahead: one frame at a time, each handed over once the previous one was written.
  const pump = new FramePump(2);
  pump.attach(socket, new Map());
  pump.write([frame(1, "a1"), frame(1, "a2"), frame(1, "a3")], "a");
  pump.write([frame(1, "b1"), frame(2, "b2")], "b");
  assert.deepEqual(sent, ["a1"]);
  for (let i = 0; i < 4; i++) flush();
  assert.deepEqual(sent, ["a1", "a2", "b1", "a3", "b2"]);
});

Deno.test("the write-ahead bounds what waits in the socket; a written frame lets the next one go", () => {
  const { socket, sent, flush } = heldSocket();
  const pump = new FramePump(4);
  pump.attach(socket, new Map());
  pump.write([frame(1, "a1"), frame(1, "a2"), frame(1, "a3")], "a");
  assert.deepEqual(sent, ["a1", "a2"]);
  assert.equal(pump.waiting, 1);
  flush();
  assert.deepEqual(sent, ["a1", "a2", "a3"]);
  assert.equal(pump.waiting, 0);
});

Deno.test("a new socket starts from the backlog it is given; frames of a detached socket are not kept", () => {
  const first = heldSocket();
  const pump = new FramePump(4);
  pump.attach(first.socket, new Map());
  pump.write([frame(1, "a1"), frame(1, "a2"), frame(1, "a3")], "a");
  pump.detach();
  first.flush();
  assert.deepEqual(first.sent, ["a1", "a2"], "a late write callback of the old socket writes nothing more");
  pump.write([frame(2, "x")], "a");
  assert.equal(pump.waiting, 0, "without a socket nothing waits here (the outbound buffer keeps it)");
  const second = heldSocket();
  pump.attach(second.socket, new Map([["a", [frame(1, "a1")]]]));
  pump.write([frame(2, "a4")], "a");
  assert.deepEqual(second.sent, ["a1", "a4"]);
});

Deno.test("a frame that can give its bytes is written as bytes when the socket takes them", () => {
  const texts: string[] = [];
  const bytes: Uint8Array[] = [];
  const socket: RelaySocket = {
    isOpen: true,
    send: (text, written) => (texts.push(text), written?.()),
    sendBytes: (utf8, written) => (bytes.push(utf8), written?.()),
    ping: () => {},
    terminate: () => {},
    listen: () => {},
  };
  const pump = new FramePump();
  pump.attach(socket, new Map());
  pump.write([{ seqId: 1, segmentId: 0, text: "seg", bytes: () => new TextEncoder().encode("seg") }], "a");
  pump.write([frame(2, "plain")], "a");
  assert.deepEqual(bytes.map((b) => new TextDecoder().decode(b)), ["seg"]);
  assert.deepEqual(texts, ["plain"]);
});
