import assert from "node:assert/strict";
import { isInitializeRequest, parseClientEnvelope, parseServerEnvelope } from "./envelopes.ts";

Deno.test("client envelopes parse by their snake_case type tag with flattened fields", () => {
  const msg = parseClientEnvelope(
    '{"type":"client_message","client_id":"c1","stream_id":"s1","seq_id":0,"cursor":"7","message":{"id":1,"method":"initialize"}}',
  );
  assert.deepEqual(msg, {
    type: "client_message",
    client_id: "c1",
    stream_id: "s1",
    seq_id: 0,
    cursor: "7",
    message: { id: 1, method: "initialize" },
  });
  const ack = parseClientEnvelope(
    '{"type":"ack","client_id":"c1","stream_id":"s1","seq_id":47,"segment_id":1}',
  );
  assert.equal(ack?.type === "ack" && ack.segment_id, 1);
  assert.equal(parseClientEnvelope('{"type":"ping","client_id":"c1"}')?.type, "ping");
  assert.equal(
    parseClientEnvelope('{"type":"client_closed","client_id":"c1","stream_id":"s2"}')?.type,
    "client_closed",
  );
  const chunk = parseClientEnvelope(
    '{"type":"client_message_chunk","client_id":"c1","stream_id":"s1","seq_id":6,"segment_id":0,"segment_count":3,"message_size_bytes":68,"message_chunk_base64":"eyJ9"}',
  );
  assert.equal(chunk?.type, "client_message_chunk");
});

Deno.test("unparseable frames, unknown types and missing client_id are rejected as undefined", () => {
  assert.equal(parseClientEnvelope("not json"), undefined);
  assert.equal(parseClientEnvelope('{"type":"bogus","client_id":"c1"}'), undefined);
  assert.equal(parseClientEnvelope('{"type":"ping"}'), undefined);
  assert.equal(parseClientEnvelope('{"type":"ack","client_id":"c1","seq_id":-1}'), undefined);
  assert.equal(
    parseClientEnvelope('{"type":"server_message","client_id":"c","stream_id":"s","seq_id":1}'),
    undefined,
  );
});

Deno.test("server envelopes require client_id, stream_id and seq_id", () => {
  assert.equal(
    parseServerEnvelope('{"type":"pong","status":"active","client_id":"c1","stream_id":"s1","seq_id":3}')
      ?.type,
    "pong",
  );
  assert.equal(
    parseServerEnvelope('{"type":"pong","status":"active","client_id":"c1","seq_id":3}'),
    undefined,
  );
  assert.equal(
    parseServerEnvelope('{"type":"pong","status":"odd","client_id":"c1","stream_id":"s","seq_id":3}'),
    undefined,
  );
});

Deno.test("a frame outside the protocol (the old private keepalive) does not parse; initialize detection", () => {
  assert.equal(parseClientEnvelope('{"type":"keepalive","client_id":"c","sent_at_ms":5}'), undefined);
  assert.equal(isInitializeRequest({ id: 1, method: "initialize" }), true);
  assert.equal(isInitializeRequest({ method: "initialize" }), false);
  assert.equal(isInitializeRequest({ id: 1, method: "thread/start" }), false);
});
