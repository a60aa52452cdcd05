import assert from "node:assert/strict";
import {
  acceptedByFastPath,
  clientEnvelopeSchema,
  isInitializeRequest,
  parseClientEnvelope,
  parseServerEnvelope,
  scanClientMessage,
  serverEnvelopeSchema,
  toServerEnvelope,
} from "./envelopes.ts";
import { frameMessage } from "./segments.ts";

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

/** A small deterministic generator (xorshift32), so a failure names a reproducible case. */
function generator(seed: number) {
  let x = seed;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  return <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
}

Deno.test("the hand-checked fast path accepts exactly what zod accepts, with the same result", () => {
  const pick = generator(0x5eed);
  const absent = Symbol("absent");
  const numbers = [0, 1, 47, -0, -1, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER, 1e300];
  const values = [absent, ...numbers, "", "s1", "7", null, true, {}, [], { id: 1 }];
  const types = [
    "client_message",
    "client_message_chunk",
    "ack",
    "ping",
    "client_closed",
    "server_message",
    "server_message_chunk",
    "pong",
    "bogus",
    absent,
    3,
  ];
  const fields = [
    "client_id",
    "stream_id",
    "seq_id",
    "cursor",
    "message",
    "segment_id",
    "segment_count",
    "message_size_bytes",
    "message_chunk_base64",
    "status",
  ];
  const address = ["client_id", "stream_id", "seq_id"];
  const chunk = ["segment_id", "segment_count", "message_size_bytes", "message_chunk_base64"];
  const kindFields: Record<string, string[]> = {
    client_message: [...address, "cursor", "message"],
    client_message_chunk: [...address, "cursor", ...chunk],
    ack: [...address, "cursor", "segment_id"],
    ping: [...address, "cursor"],
    client_closed: [...address, "cursor"],
    server_message: [...address, "message"],
    server_message_chunk: [...address, ...chunk],
    pong: [...address, "status"],
  };
  // Valid values per field, chosen most of the time so that many generated envelopes are well formed.
  const good: Record<string, unknown[]> = {
    client_id: ["c1"],
    stream_id: ["s1"],
    seq_id: [0, 3],
    cursor: ["9"],
    message: [{ id: 1, method: "x" }, null, "text"],
    segment_id: [0, 2],
    segment_count: [3],
    message_size_bytes: [68],
    message_chunk_base64: ["eyJ9"],
    status: ["active", "unknown", "odd"],
  };
  const fastAccepted = { client: 0, server: 0 };
  for (let i = 0; i < 20_000; i++) {
    const env: Record<string, unknown> = {};
    const type = pick(types);
    if (type !== absent) env.type = type;
    // Mostly the fields of the kind (or of its counterpart direction), sometimes any field at all.
    const own = typeof type === "string" ? kindFields[type] ?? fields : fields;
    for (const f of pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) === 0 ? fields : own) {
      const v = pick([0, 1, 2, 3, 4, 5]) > 0
        ? pick([absent, ...good[f], ...good[f], ...good[f]])
        : pick(values);
      if (v !== absent) env[f] = v;
    }
    if (pick([0, 1, 2, 3, 4, 5, 6, 7]) === 0) env[pick(["extra", "jsonrpc", "sent_at_ms"])] = 1;
    // Through JSON, as frames arrive (a "__proto__" key becomes an own field there).
    const text = pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) === 0
      ? JSON.stringify(env).replace(/^\{/, '{"__proto__":{"seq_id":1},')
      : JSON.stringify(env);
    for (const direction of ["client", "server"] as const) {
      const schema = direction === "client" ? clientEnvelopeSchema : serverEnvelopeSchema;
      const parse = direction === "client" ? parseClientEnvelope : parseServerEnvelope;
      const zod = schema.safeParse(JSON.parse(text));
      const expected = zod.success ? zod.data : undefined;
      if (acceptedByFastPath(JSON.parse(text), direction)) {
        fastAccepted[direction]++;
        assert.ok(zod.success, `fast path accepted what zod rejects (${direction}): ${text}`);
      }
      assert.deepEqual(parse(text), expected, `${direction}: ${text}`);
    }
  }
  // The fast path is really exercised, on both directions' hot shapes.
  assert.ok(fastAccepted.client > 500 && fastAccepted.server > 200, JSON.stringify(fastAccepted));
});

Deno.test("a segment frame read without JSON.parse gives what parsing and validating it gives, for every variant", () => {
  const json = JSON.stringify({ id: 7, result: "é".repeat(60_000) + "x".repeat(100_001) });
  const frames = frameMessage("server", json, { client_id: "dev-1", stream_id: "s.1", seq_id: 12 });
  assert.ok(Array.isArray(frames) && frames.length > 1);
  const canonical = frames.map((f) => f.text);
  const first = canonical[0];
  const b64At = first.indexOf('"message_chunk_base64":"') + 24;
  const variants = [
    ...canonical,
    // Whitespace, escapes and other characters inside the base64.
    first.slice(0, b64At + 8) + " " + first.slice(b64At + 8),
    first.slice(0, b64At + 8) + "\n" + first.slice(b64At + 8),
    first.slice(0, b64At + 8) + "\\u0041" + first.slice(b64At + 9),
    first.slice(0, b64At + 8) + "\\/" + first.slice(b64At + 9),
    first.slice(0, b64At + 8) + "*" + first.slice(b64At + 9),
    first.slice(0, b64At) + first.slice(b64At + 2),
    first.replace(/"message_chunk_base64":"[^"]*"/, '"message_chunk_base64":""'),
    first.replace(/"message_chunk_base64":"[^"]*"/, '"message_chunk_base64":"QQ"'),
    first.replace(/"message_chunk_base64":"[^"]*"/, '"message_chunk_base64":"QQ=="'),
    // Numbers JSON or the schema refuses, or reads differently.
    first.replace('"segment_id":0', '"segment_id":00'),
    first.replace('"segment_id":0', '"segment_id":-0'),
    first.replace('"segment_id":0', '"segment_id":0.5'),
    first.replace('"segment_id":0', '"segment_id":1e2'),
    first.replace('"seq_id":12', '"seq_id":9007199254740993'),
    first.replace('"seq_id":12', '"seq_id":9999999999999999'),
    ...addressVariants(first),
    first.replace("server_message_chunk", "client_message_chunk"),
    first.slice(0, -1),
  ];
  for (const text of variants) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    assert.deepEqual(parseServerEnvelope(text), toServerEnvelope(parsed), text.slice(0, 120));
  }
});

/**
 * The address of a frame ending `"client_id":"dev-1","stream_id":"s.1","seq_id":12}` made into what a scan must
 * leave to the full parse: ids with an escape or characters outside plain tokens, another field order, an extra
 * or a missing field, text after the object.
 */
function addressVariants(frame: string): string[] {
  return [
    frame.replace('"client_id":"dev-1"', '"client_id":"dev\\u002d1"'),
    frame.replace('"client_id":"dev-1"', '"client_id":"dev 1"'),
    frame.replace('"client_id":"dev-1"', '"client_id":""'),
    frame.replace('"client_id":"dev-1","stream_id":"s.1"', '"stream_id":"s.1","client_id":"dev-1"'),
    frame.replace('"seq_id":12}', '"seq_id":12,"extra":1}'),
    frame.replace(',"seq_id":12}', "}"),
    frame.replace('"seq_id":12}', '"seq_id":12} '),
  ];
}

Deno.test("a client_message read without parsing its envelope gives what parsing it gives, and its message's own text", () => {
  const message =
    '{"jsonrpc":"2.0","id":3,"method":"thread/list","params":{"note":",\\"client_id\\":\\"x\\"}"}}';
  const canonical =
    `{"type":"client_message","message":${message},"client_id":"dev-1","stream_id":"s.1","seq_id":12}`;
  const withCursor = canonical.slice(0, -1) + ',"cursor":"41"}';
  const variants = [
    canonical,
    withCursor,
    // Spaces inside the message, which the app server gets as written; a message that is not an object.
    canonical.replace('"id":3', '"id" : 3'),
    canonical.replace(message, " 7 "),
    canonical.replace(message, '"text"'),
    // A second field hidden in the message's place, or duplicated: the message text is no single value.
    canonical.replace(message, '1,"message":2'),
    canonical.replace(message, '1,"client_id":"evil"'),
    withCursor.replace(',"cursor"', ',"seq_id":13,"cursor"'),
    canonical.replace(message, "{"),
    canonical.replace(message, ""),
    ...addressVariants(canonical),
    // A cursor outside plain tokens, numbers read differently, a space before the first field.
    withCursor.replace('"cursor":"41"', '"cursor":"4\\n1"'),
    canonical.replace('"seq_id":12', '"seq_id":012'),
    canonical.replace('"seq_id":12', '"seq_id":-1'),
    canonical.replace('"seq_id":12', '"seq_id":1.5'),
    canonical.replace('"seq_id":12', '"seq_id":9007199254740993'),
    canonical.replace('{"type":"client_message",', '{ "type":"client_message",'),
    canonical.replace("client_message", "client_closed"),
    canonical.slice(0, -1),
  ];
  let scanned = 0;
  for (const text of variants) {
    const got = scanClientMessage(text);
    if (!got) continue;
    scanned++;
    assert.deepEqual(got.env, parseClientEnvelope(text), text);
    assert.deepEqual(JSON.parse(got.messageText), got.env.message, text);
  }
  assert.equal(
    scanned,
    5,
    "the canonical forms, with and without a cursor, and the three other messages are read",
  );
  assert.equal(scanClientMessage(canonical)?.messageText, message);
  assert.equal(scanClientMessage(variants[2])?.messageText, message.replace('"id":3', '"id" : 3'));
});
