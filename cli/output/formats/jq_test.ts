import assert from "node:assert/strict";
import process from "node:process";
import { LarkitError } from "../errors.ts";
import { applyJq, checkJq } from "./jq.ts";

const envelope = {
  ok: true,
  identity: "user",
  data: [{ summary: "Standup", n: 1 }, { summary: "1:1", n: 2 }],
};

Deno.test("applyJq prints strings raw and other values as indented JSON, one per line", async () => {
  assert.equal(await applyJq(envelope, ".data[].summary"), "Standup\n1:1\n");
  assert.equal(await applyJq(envelope, ".ok"), "true\n");
  assert.equal(await applyJq(envelope, ".data[0]"), '{\n  "summary": "Standup",\n  "n": 1\n}\n');
  assert.equal(await applyJq(envelope, "empty"), "");
});

Deno.test("checkJq rejects an expression that does not compile as validation, naming jq's error", async () => {
  await assert.rejects(() => checkJq(".data["), (e: unknown) => {
    assert.ok(e instanceof LarkitError);
    assert.equal(e.type, "validation");
    assert.match(e.message, /^invalid jq expression: syntax error/);
    assert.doesNotMatch(e.message, /__larkit_check/);
    return true;
  });
  await assert.rejects(
    () => checkJq(".a | $undefined"),
    (e: unknown) => (e as LarkitError).type === "validation",
  );
});

Deno.test("checkJq accepts valid expressions without running them (an endless filter returns at once)", async () => {
  await checkJq(".data[] | select(.n > 1) | .summary");
  await checkJq("def twice: . * 2; [.data[].n | twice]");
  await checkJq("repeat(.) # loops forever if it ran");
});

Deno.test("a run-time failure is jq_error and leaves the process exit code alone", async () => {
  const before = process.exitCode;
  await assert.rejects(() => applyJq(envelope, '.data[] | error("boom")'), (e: unknown) => {
    assert.ok(e instanceof LarkitError);
    assert.deepEqual([e.type, e.subtype], ["validation", "jq_error"]);
    assert.match(e.message, /boom/);
    return true;
  });
  await assert.rejects(
    () => applyJq(envelope, ".ok[]"),
    (e: unknown) => (e as LarkitError).subtype === "jq_error",
  );
  assert.equal(process.exitCode, before);
});

Deno.test("checkJq reports jq's message for the user's own program text", async () => {
  await assert.rejects(() => checkJq(".data["), (e: unknown) => {
    assert.match((e as LarkitError).message, /unexpected end of file/);
    return true;
  });
});
