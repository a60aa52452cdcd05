import assert from "node:assert/strict";
import { decodeFrame, encodeFrame, type Frame, FRAME_DATA, FrameError, header } from "./frame.ts";

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(" ");

Deno.test("frame: encodes the fields in protobuf wire format, byte for byte", () => {
  const bytes = encodeFrame({
    seqId: 1n,
    logId: 2n,
    service: 3,
    method: FRAME_DATA,
    headers: [{ key: "type", value: "event" }],
    payload: new TextEncoder().encode("{}"),
  });
  // Worked out by hand from the proto2 schema: tags 0x08/0x10/0x18/0x20 are varints, 0x2a a nested header
  // (13 bytes: 0x0a "type", 0x12 "event"), 0x42 the payload bytes.
  assert.equal(
    hex(bytes),
    "08 01 10 02 18 03 20 01 2a 0d 0a 04 74 79 70 65 12 05 65 76 65 6e 74 42 02 7b 7d",
  );
});

Deno.test("frame: round-trips every field, including uint64 ids beyond 2^53 and UTF-8 text", () => {
  const f: Frame = {
    seqId: 18446744073709551615n,
    logId: 9007199254740993n,
    service: 123456,
    method: 0,
    headers: [
      { key: "type", value: "ping" },
      { key: "message_id", value: "消息-1" },
      { key: "empty", value: "" },
    ],
    payloadEncoding: "",
    payloadType: "json",
    payload: new Uint8Array([0, 1, 255]),
    logIdNew: "log-new",
  };
  const back = decodeFrame(encodeFrame(f));
  assert.deepEqual(back, f);
  assert.equal(header(back, "message_id"), "消息-1");
  assert.equal(header(back, "absent"), undefined);
});

Deno.test("frame: a negative int32 survives (10-byte two's complement varint)", () => {
  const back = decodeFrame(encodeFrame({ seqId: 0n, logId: 0n, service: -5, method: 1, headers: [] }));
  assert.equal(back.service, -5);
});

Deno.test("frame: unknown fields of every wire type are skipped", () => {
  const known = encodeFrame({ seqId: 7n, logId: 0n, service: 1, method: 1, headers: [] });
  const extra = new Uint8Array([
    0x50,
    0x2a, // field 10 varint 42
    0x5a,
    0x02,
    0x68,
    0x69, // field 11 bytes "hi"
    0x65,
    1,
    2,
    3,
    4, // field 12 fixed32
    0x69,
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8, // field 13 fixed64
  ]);
  const joined = new Uint8Array([...extra, ...known]);
  assert.equal(decodeFrame(joined).seqId, 7n);
});

Deno.test("frame: truncated and malformed buffers are FrameErrors", () => {
  const good = encodeFrame({
    seqId: 1n,
    logId: 1n,
    service: 1,
    method: 1,
    headers: [{ key: "a", value: "b" }],
    payload: new Uint8Array(10),
  });
  // Cutting between two fields leaves valid protobuf (8: after the four required fields, 16: after the
  // header); every cut inside a field must fail.
  for (let cut = 1; cut < good.length; cut++) {
    if (cut === 8 || cut === 16) {
      assert.doesNotThrow(() => decodeFrame(good.subarray(0, cut)));
      continue;
    }
    assert.throws(() => decodeFrame(good.subarray(0, cut)), FrameError, `cut at ${cut}`);
  }
  assert.throws(() => decodeFrame(new Uint8Array([0x08, 0x01])), /required field 2/);
  assert.throws(() => decodeFrame(new Uint8Array([0x0b])), /wire type 3/);
  // A header with a key only.
  assert.throws(
    () => decodeFrame(new Uint8Array([0x08, 0, 0x10, 0, 0x18, 0, 0x20, 0, 0x2a, 0x03, 0x0a, 0x01, 0x61])),
    /key or value/,
  );
  // Invalid UTF-8 in a string field.
  assert.throws(
    () => decodeFrame(new Uint8Array([0x08, 0, 0x10, 0, 0x18, 0, 0x20, 0, 0x32, 0x01, 0xff])),
    /UTF-8/,
  );
});
