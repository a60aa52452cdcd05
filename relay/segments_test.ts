import assert from "node:assert/strict";
import { LarkitError } from "../cli/output/errors.ts";
import { parseServerEnvelope, type ServerChunkEnvelope } from "./envelopes.ts";
import {
  type ChunkObservation,
  frameMessage,
  type ObservedChunk,
  parseParts,
  Reassembler,
  SEGMENT_MAX_BYTES,
} from "./segments.ts";

const address = { client_id: "c1", stream_id: "s1", seq_id: 9 };

function bigMessage(bytes: number): string {
  return JSON.stringify({ id: 1, result: { data: "é".repeat(bytes / 2) } });
}

function chunksOf(json: string): { env: ServerChunkEnvelope; text: string }[] {
  const frames = frameMessage("server", json, address);
  if (frames instanceof LarkitError) throw frames;
  return frames.map((f) => {
    const env = parseServerEnvelope(f.text);
    assert.equal(env?.type, "server_message_chunk");
    return { env: env as ServerChunkEnvelope, text: f.text };
  });
}

function feed(r: Reassembler, chunks: { env: ObservedChunk; text: string }[]): ChunkObservation[] {
  return chunks.map((c) => r.observe("c1", c.env, new TextEncoder().encode(c.text).length));
}

Deno.test("a small message travels as one server_message frame", () => {
  const frames = frameMessage("server", '{"id":1,"result":{}}', address);
  assert.ok(!(frames instanceof LarkitError));
  assert.deepEqual(frames, [{
    seqId: 9,
    text:
      '{"type":"server_message","message":{"id":1,"result":{}},"client_id":"c1","stream_id":"s1","seq_id":9}',
  }]);
});

Deno.test("a large message splits into ≤150 KiB frames sharing seq_id and reassembles byte for byte", () => {
  const json = bigMessage(1_000_000);
  const chunks = chunksOf(json);
  const size = new TextEncoder().encode(json).length;
  assert.equal(chunks.length, Math.ceil(size / 102400));
  chunks.forEach((c, i) => {
    assert.ok(new TextEncoder().encode(c.text).length <= SEGMENT_MAX_BYTES);
    assert.equal(c.env.seq_id, 9);
    assert.equal(c.env.segment_id, i);
    assert.equal(c.env.message_size_bytes, size);
  });
  const r = new Reassembler();
  const seen = feed(r, chunks);
  const last = seen.at(-1);
  assert.ok(seen.slice(0, -1).every((s) => s.kind === "pending"));
  assert.ok(last?.kind === "complete");
  assert.equal(last.parts.join(""), json);
  assert.equal(r.pendingBytes(), 0);
  assert.equal(feed(r, chunks.slice(0, 1))[0].kind, "ignored", "replay of a completed message");
});

Deno.test("messages over 100 MiB are refused before sending", () => {
  const result = frameMessage("server", `"${"a".repeat(100 * 1024 * 1024 + 1)}"`, address);
  assert.ok(result instanceof LarkitError);
  assert.match(result.message, /reassembly limit/);
});

Deno.test("every malformed chunk is rejected and discards the partial assembly", () => {
  const chunks = chunksOf(bigMessage(300_000));
  const bad: Array<[string, Partial<ObservedChunk>, number?]> = [
    ["segment_count 0", { segment_count: 0 }],
    ["segment_count over 1024", { segment_count: 1025 }],
    ["segment_id beyond count", { segment_id: 99 }],
    ["size 0", { message_size_bytes: 0 }],
    ["size over 100 MiB", { message_size_bytes: 100 * 1024 * 1024 + 1 }],
    ["empty base64", { message_chunk_base64: "" }],
    ["bad base64", { message_chunk_base64: "@@@" }],
    ["metadata change", { message_size_bytes: 5 }],
    ["out of order", { segment_id: 2 }],
    ["missing stream", { stream_id: undefined }],
  ];
  for (const [name, change, frameBytes] of bad) {
    const r = new Reassembler();
    assert.equal(feed(r, chunks.slice(0, 1))[0].kind, "pending");
    const mutated = { ...chunks[1].env, ...change };
    const seen = r.observe("c1", mutated, frameBytes ?? 1000);
    assert.equal(seen.kind, "rejected", name);
    if (change.stream_id === undefined && "stream_id" in change) continue;
    assert.equal(r.pendingBytes(), 0, `${name}: partial assembly discarded`);
  }
});

Deno.test("an oversized chunk frame is dropped without discarding the assembly in progress, reported once", () => {
  const chunks = chunksOf(bigMessage(300_000));
  const r = new Reassembler();
  assert.equal(feed(r, chunks.slice(0, 1))[0].kind, "pending");
  // Another stream of the same client sends an oversized message: its segments are dropped, quietly after the first.
  const other = { ...chunks[0].env, stream_id: "s2", seq_id: 9 };
  assert.equal(r.observe("c1", other, SEGMENT_MAX_BYTES + 1).kind, "rejected");
  assert.equal(r.observe("c1", { ...other, segment_id: 1 }, 1000).kind, "ignored");
  assert.equal(r.observe("c1", { ...other, segment_id: 2 }, 1000).kind, "ignored");
  // The same stream's oversized duplicate does not disturb it either.
  assert.equal(r.observe("c1", chunks[0].env, SEGMENT_MAX_BYTES + 1).kind, "rejected");
  const rest = feed(r, chunks.slice(1));
  assert.equal(rest.at(-1)?.kind, "complete");
});

Deno.test("a re-initialize restarts replay detection: an earlier seq_id is accepted again", () => {
  const chunks = chunksOf(bigMessage(300_000));
  const r = new Reassembler();
  assert.equal(feed(r, chunks).at(-1)?.kind, "complete");
  assert.equal(feed(r, chunks.slice(0, 1))[0].kind, "ignored");
  r.restart("c1", chunks[0].env.stream_id as string);
  assert.equal(feed(r, chunks).at(-1)?.kind, "complete");
});

Deno.test("wrong total size and a decoded overflow are rejected", () => {
  const r = new Reassembler();
  const one = { stream_id: "s1", seq_id: 1, segment_id: 0, segment_count: 1 };
  const short = r.observe("c1", { ...one, message_size_bytes: 10, message_chunk_base64: "YWJj" }, 100);
  assert.deepEqual(short, { kind: "rejected", reason: "reassembled size differs from message_size_bytes" });
  const over = r.observe(
    "c1",
    { ...one, seq_id: 2, message_size_bytes: 2, message_chunk_base64: "YWJj" },
    100,
  );
  assert.deepEqual(over, { kind: "rejected", reason: "segments exceed message_size_bytes" });
});

Deno.test("duplicate segments are ignored without resetting; a new stream of the client resets", () => {
  const chunks = chunksOf(bigMessage(300_000));
  const r = new Reassembler();
  feed(r, chunks.slice(0, 2));
  assert.equal(feed(r, chunks.slice(1, 2))[0].kind, "ignored");
  const done = feed(r, chunks.slice(2)).at(-1);
  assert.equal(done?.kind, "complete");
  const r2 = new Reassembler();
  feed(r2, chunks.slice(0, 2));
  assert.equal(r2.observe("c1", { ...chunks[0].env, stream_id: "s2" }, 1000).kind, "pending");
  assert.equal(r2.observe("c1", chunks[2].env, 1000).kind, "rejected", "old stream's assembly is gone");
});

Deno.test("one client's bad chunk leaves another client's assembly intact", () => {
  const chunks = chunksOf(bigMessage(300_000));
  const r = new Reassembler();
  feed(r, chunks.slice(0, 1));
  assert.equal(r.observe("c2", { ...chunks[0].env, message_chunk_base64: "!!" }, 1000).kind, "rejected");
  assert.equal(feed(r, chunks.slice(1)).at(-1)?.kind, "complete");
});

Deno.test("segments are decoded as they arrive: invalid UTF-8 rejects the message at that segment", () => {
  const r = new Reassembler();
  const chunk = (segment_id: number, bytes: number[]) => ({
    stream_id: "s1",
    seq_id: 4,
    segment_id,
    segment_count: 2,
    message_size_bytes: 4,
    message_chunk_base64: new Uint8Array(bytes).toBase64(),
  });
  // "é" (c3 a9) split across the two segments still decodes.
  assert.equal(r.observe("c1", chunk(0, [0x22, 0xc3]), 100).kind, "pending");
  const done = r.observe("c1", chunk(1, [0xa9, 0x22]), 100);
  assert.deepEqual(done, { kind: "complete", seqId: 4, parts: ['"é"'] });
  const bad = new Reassembler();
  assert.equal(bad.observe("c1", chunk(0, [0x22, 0xff]), 100).kind, "rejected");
  assert.equal(bad.observe("c1", chunk(1, [0x22, 0x22]), 100).kind, "ignored", "reported once");
});

Deno.test("a segment's bytes are exactly its text's UTF-8, for ASCII and non-ASCII messages of every tail length", () => {
  const utf8 = new TextEncoder();
  for (const base of ["a", "é", "😀 ok"]) {
    for (const extra of [0, 1, 2]) {
      const json = JSON.stringify("x".repeat(extra) + base.repeat(Math.ceil(400_000 / base.length)));
      const frames = frameMessage("server", json, { client_id: "c", stream_id: "s", seq_id: 3 });
      assert.ok(!(frames instanceof LarkitError) && frames.length > 1);
      for (const f of frames) {
        assert.ok(f.bytes, "segments offer bytes");
        assert.deepEqual(f.bytes(), utf8.encode(f.text));
      }
    }
  }
});

Deno.test("ASCII segments skip the decoder until the first non-ASCII one, which decodes from there on", () => {
  const r = new Reassembler();
  const parts = [[0x22, 0x61], [0x62, 0xc3], [0xa9, 0x63], [0x64, 0x22]];
  const chunk = (segment_id: number) => ({
    stream_id: "s1",
    seq_id: 5,
    segment_id,
    segment_count: parts.length,
    message_size_bytes: 8,
    message_chunk_base64: new Uint8Array(parts[segment_id]).toBase64(),
  });
  const seen = parts.map((_, i) => r.observe("c1", chunk(i), 100));
  const done = seen.at(-1);
  assert.ok(done?.kind === "complete");
  assert.equal(done.parts.join(""), '"abécd"');
  // A segment ending inside a sequence is not mistaken for a finished ASCII run.
  const cut = new Reassembler();
  const truncated = (segment_id: number, bytes: number[]) => ({
    ...chunk(segment_id),
    segment_count: 2,
    message_size_bytes: 4,
    message_chunk_base64: new Uint8Array(bytes).toBase64(),
  });
  assert.equal(cut.observe("c1", truncated(0, [0x22, 0x61, 0xc3]), 100).kind, "pending");
  assert.equal(cut.observe("c1", truncated(1, [0x22]), 100).kind, "rejected");
});

Deno.test("a message parsed from its parts is what JSON.parse of the joined text gives, or throws as it does", () => {
  const long = "x".repeat(3000);
  const cases: string[][] = [
    // One long string value: the stand-in path.
    ['{"id":1,"result":"ab', long, long, 'cd"}'],
    ['{"id":1,"result":{"a":[1,"q"],"data":"', long, "", long, '"},"n":null}'],
    ['["', long, '",2]'],
    // The stretch is a key, not a value.
    ['{"', long, long, '":1}'],
    // The first part's last quote closes a string: the stretch is no literal (valid and invalid JSON).
    ['{"a":"b"', " ", '   ,"c":1}'],
    ['[1,"b"', "  12", '3 ,"c"]'],
    ['{"a":"b"', long, '"}'],
    // Escapes and control characters in and around the stretch.
    ['{"a":"\\u0041","b":"', long, '"}'],
    ['{"b":"', 'x\\"y', '"}'],
    ['{"b":"', "x\ty", '"}'],
    ['{"b":"', "x\u001fy", '"}'],
    // DEL and a lone surrogate may stand raw in a JSON string.
    ['{"b":"', "x\u007fy", '"}'],
    ['{"b":"', "x\ud800y", '"}'],
    ['{"b":"', long, '","c":"\\n"}'],
    // The stand-in's own text elsewhere in the message.
    ['{"larkit:long-string-literal":"', long, '"}'],
    ['{"a":"larkit:long-string-literal","b":"', long, '"}'],
    // Non-ASCII content and a part that is not plain in the middle.
    ['{"b":"', "é😀".repeat(100), '"}'],
    ['{"b":"', long, '", "c": "', long, '"}'],
    // Not JSON at all.
    ['{"b":"', long, '"'],
    ['{"b":"', long, '"}}'],
  ];
  for (const parts of cases) {
    const text = parts.join("");
    let expected: unknown;
    try {
      expected = { value: JSON.parse(text) };
    } catch (e) {
      expected = { error: (e as Error).name };
    }
    let got: unknown;
    try {
      got = { value: parseParts(parts) };
    } catch (e) {
      got = { error: (e as Error).name };
    }
    assert.deepEqual(got, expected, text.slice(0, 60));
  }
});

Deno.test("with plainRuns, each part of a message says whether it is plain string content", () => {
  const json = JSON.stringify({ id: 1, result: "x".repeat(3_500_000), tail: ['"quoted"'] });
  const r = new Reassembler({ plainRuns: true });
  const done = feed(r, chunksOf(json)).at(-1);
  assert.ok(done?.kind === "complete" && done.plain !== undefined);
  assert.ok(done.parts.length > 2);
  assert.deepEqual(done.plain, done.parts.map((p) => JSON.stringify(p).length === p.length + 2));
  assert.deepEqual(parseParts(done.parts, done.plain), JSON.parse(json));
});

Deno.test("a message ASCII for more than a run and then not reassembles byte for byte", () => {
  for (
    const json of [
      JSON.stringify({ a: "x".repeat(1_500_000) + "é" + "y".repeat(500_000) }),
      JSON.stringify({ a: "x".repeat(2_200_000) }),
    ]
  ) {
    const done = feed(new Reassembler(), chunksOf(json)).at(-1);
    assert.ok(done?.kind === "complete");
    assert.ok(done.parts.length > 1);
    assert.equal(done.parts.join(""), json);
  }
});
