import assert from "node:assert/strict";
import { lineSplitter } from "./framing.ts";

const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("lines split across chunks, multi-byte characters intact, CRLF and blank lines tolerated", () => {
  const s = lineSplitter(1024);
  const bytes = enc('{"a":"é"}\r\n\n{"b":2}\n{"c"');
  const events = [...s.push(bytes.subarray(0, 7)), ...s.push(bytes.subarray(7)), ...s.end()];
  assert.deepEqual(events, [
    { kind: "line", text: '{"a":"é"}' },
    { kind: "line", text: '{"b":2}' },
    { kind: "line", text: '{"c"' },
  ]);
});

Deno.test("an oversized line is dropped while streaming and reported once; the next line is fine", () => {
  const s = lineSplitter(10);
  const events = [...s.push(enc("x".repeat(8))), ...s.push(enc("y".repeat(8)))];
  assert.deepEqual(events, []);
  assert.equal(s.buffered, 0);
  assert.deepEqual(s.push(enc("zz\nok\n")), [{ kind: "oversized", bytes: 18 }, { kind: "line", text: "ok" }]);
});
