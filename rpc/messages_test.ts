import assert from "node:assert/strict";
import { classify, fastRequest, NotificationSchema, RequestSchema } from "./messages.ts";

/** Every combination of these field values (a missing field is left out), as JSON.parse would give them. */
const FIELDS: Record<string, string[]> = {
  jsonrpc: ['"2.0"', '"1.0"', "2", "null"],
  id: ["1", "-7", "1.5", '"a"', '""', "null", "9007199254740993", "true"],
  method: ['"thread/list"', '""', "3", "null"],
  params: ["{}", "[]", '{"limit":3,"x":[1]}', "null", '"s"', "7", '{"__proto__":{"polluted":1}}', "[1,{}]"],
  extra: ["1"],
};

function* combinations(): Generator<string> {
  const keys = Object.keys(FIELDS);
  const walk = function* (i: number, parts: string[]): Generator<string> {
    if (i === keys.length) return yield `{${parts.join(",")}}`;
    yield* walk(i + 1, parts);
    for (const v of FIELDS[keys[i]]) yield* walk(i + 1, [...parts, `"${keys[i]}":${v}`]);
  };
  yield* walk(0, []);
}

Deno.test("the hand check of requests and notifications accepts only what zod accepts, and returns what it returns", () => {
  let fast = 0;
  for (const text of combinations()) {
    const value = JSON.parse(text);
    const got = fastRequest(value);
    if (got === undefined) continue;
    fast++;
    const parsed = ("id" in value ? RequestSchema : NotificationSchema).safeParse(value);
    assert.ok(parsed.success, `zod refuses what the hand check took: ${text}`);
    assert.deepEqual(got, parsed.data, text);
  }
  // Every valid combination without the unknown field takes it: jsonrpc (absent, "2.0") x id (absent, 1, -7, "a",
  // "") x params (absent, {}, [], the object, the array); a check that took nothing would pass the loop above.
  assert.equal(fast, 2 * 5 * 5);
  for (
    const text of [
      '{"jsonrpc":"2.0","id":1,"method":"thread/list","params":{"limit":3}}',
      '{"method":"initialized"}',
    ]
  ) {
    assert.notEqual(fastRequest(JSON.parse(text)), undefined, text);
  }
});

Deno.test("classify gives the same kinds and messages through the hand check as through zod alone", () => {
  for (const text of combinations()) {
    const value = JSON.parse(text);
    const viaZod = "method" in value
      ? ("id" in value ? RequestSchema : NotificationSchema).safeParse(value)
      : undefined;
    const got = classify(value);
    if (viaZod?.success) {
      assert.equal(got.kind, "id" in value ? "request" : "notification", text);
      assert.deepEqual((got as { msg: unknown }).msg, viaZod.data, text);
    } else if ("method" in value) {
      assert.equal(got.kind, "invalid", text);
    }
  }
});
