/**
 * Completion offers flag values from the declarations that built the command: a generated method's enum
 * parameters from the registry (`--params`), a shortcut flag's choices.
 */
import assert from "node:assert/strict";
import { enumParamValues } from "../cli/api_commands/param_values.ts";
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

Deno.test("bash completion inserts each candidate shell-quoted: a --params JSON object comes back whole", async () => {
  const words = ["calendar", "acls", "create", "--params", ""];
  const offered = (await runCli(["__complete", ...words])).stdout;
  const script = (await runCli(["completion", "bash"])).stdout;
  // bash stands in for the terminal: `larkit` answers what `__complete` answered, then the inserted text is
  // parsed back as a command line would be.
  const probe = [
    `larkit() { cat "$OFFERED"; }`,
    script,
    `COMP_WORDS=(larkit ${words.slice(0, -1).join(" ")} ''); COMP_CWORD=${words.length}`,
    "_larkit",
    `for c in "\${COMPREPLY[@]}"; do eval "set -- $c"; printf '%s\\n' "$1"; done`,
  ].join("\n");
  const offeredFile = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(offeredFile, offered);
    const out = await new Deno.Command("bash", {
      args: ["--norc", "--noprofile", "-c", probe],
      env: { OFFERED: offeredFile },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    assert.deepEqual(new TextDecoder().decode(out.stdout).trim().split("\n"), values(offered));
  } finally {
    await Deno.remove(offeredFile);
  }
});
