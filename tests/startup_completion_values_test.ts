/**
 * Completion offers flag values from the declarations that built the command: a generated method's enum
 * parameters from the registry (`--params`), a shortcut flag's choices.
 */
import assert from "node:assert/strict";
import { enumParamValues } from "../cli/api_commands/source.ts";
import { runCli } from "./helpers/run_cli.ts";

function values(stdout: string): string[] {
  return stdout.trim().split("\n").filter(Boolean).map((l) => l.split("\t")[0]);
}

Deno.test("__complete: --params of a generated method offers its enum parameters from the registry", async () => {
  const r = await runCli(["__complete", "calendar", "acls", "create", "--params", ""]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(values(r.stdout), [
    '{"user_id_type":"open_id"}',
    '{"user_id_type":"union_id"}',
    '{"user_id_type":"user_id"}',
  ]);
  assert.match(r.stdout, /^\{"user_id_type":"open_id"\}\tuser_id_type: \S/m);
  // The word typed so far narrows them, as for every other candidate.
  const narrowed = await runCli([
    "__complete",
    "calendar",
    "acls",
    "create",
    "--params",
    '{"user_id_type":"u',
  ]);
  assert.deepEqual(values(narrowed.stdout), ['{"user_id_type":"union_id"}', '{"user_id_type":"user_id"}']);
});

Deno.test("__complete: a shortcut flag's choices are its values", async () => {
  const r = await runCli(["__complete", "drive", "+list-comments", "--solved-status", ""]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(values(r.stdout), ["all", "solved", "unsolved"]);
});

Deno.test("enumParamValues: enum and lark-cli options spellings, one object per value; none without enums", () => {
  const got = enumParamValues({
    parameters: {
      a: { location: "query", enum: ["x", 2], description: "first\nmore" },
      b: { location: "query", options: [{ value: "y" }, {}] },
      c: { location: "path", type: "string" },
    },
  });
  assert.deepEqual(got, [
    { value: '{"a":"x"}', description: "a: first" },
    { value: '{"a":2}', description: "a: first" },
    { value: '{"b":"y"}', description: "b" },
  ]);
  assert.deepEqual(enumParamValues({ parameters: {} }), []);
});
