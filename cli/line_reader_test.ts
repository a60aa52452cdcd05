import assert from "node:assert/strict";
import { lineReader } from "./line_reader.ts";

function chunks(...parts: string[]) {
  let i = 0;
  return () =>
    Promise.resolve<ReadableStreamReadResult<string>>(
      i < parts.length ? { done: false, value: parts[i++] } : { done: true, value: undefined },
    );
}

Deno.test("lines split across chunks, several per chunk, and a last line without newline", async () => {
  const read = lineReader(chunks('{"a":', '1}\n{"b"', ":2}\nx\ny", "z"));
  assert.deepEqual([await read(), await read(), await read(), await read(), await read()], [
    '{"a":1}',
    '{"b":2}',
    "x",
    "yz",
    null,
  ]);
});

Deno.test("a too-long line is cut to max + 1 characters and the next line is intact", async () => {
  const read = lineReader(chunks("a".repeat(50), "a".repeat(50), "\nok\n"));
  assert.equal(await read(10), "a".repeat(11));
  assert.equal(await read(10), "ok");
  assert.equal(await read(10), null);
});

Deno.test("empty lines are lines; end of input is null", async () => {
  const read = lineReader(chunks("\n\nq"));
  assert.deepEqual([await read(), await read(), await read(), await read()], ["", "", "q", null]);
});
