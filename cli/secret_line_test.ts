import assert from "node:assert/strict";
import { secretReader } from "./secret_line.ts";

function chunks(...parts: string[]) {
  const queue = [...parts];
  return () =>
    Promise.resolve(
      queue.length
        ? { done: false as const, value: queue.shift()! }
        : { done: true as const, value: undefined },
    );
}

Deno.test("a secret is read keystroke by keystroke in raw mode, which is left afterwards", async () => {
  const modes: boolean[] = [];
  const read = secretReader(chunks("s3", "cr", "x\x7f", "et\r"), (raw) => modes.push(raw));
  assert.equal(await read(), "s3cret");
  assert.deepEqual(modes, [true, false]);
});

Deno.test("Backspace removes a whole emoji; Ctrl-U erases the line; Ctrl-D on an empty line ends input", async () => {
  assert.equal(await secretReader(chunks("a😀\x7fb\n"), () => {})(), "ab");
  assert.equal(await secretReader(chunks("wrong\x15right\r"), () => {})(), "right");
  assert.equal(await secretReader(chunks("\x04"), () => {})(), null);
});

Deno.test("a secret longer than max comes back one character too long; raw mode is left on a failure", async () => {
  assert.equal(await secretReader(chunks("abcdef\r"), () => {})(3), "abcd");
  const modes: boolean[] = [];
  const failing = secretReader(() => Promise.reject(new Error("closed")), (raw) => modes.push(raw));
  await assert.rejects(failing(), /closed/);
  assert.deepEqual(modes, [true, false]);
});
