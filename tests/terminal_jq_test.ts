/**
 * Issue 23.7: `--jq` works on the fixed commands that print an envelope (auth, profile, schema, commands,
 * event, skills, remote-control, doctor's report), and `--format table` where their result is a list. A bad
 * filter is refused before the command does anything.
 */
import assert from "node:assert/strict";
import { errorOf, runCli } from "./helpers/run_cli.ts";

const inSandbox = (argv: string[]) => runCli(["sandbox", "run", "--as", "user", "--", ...argv]);

Deno.test("auth status --jq: the filter's result, not the envelope", async () => {
  const res = await inSandbox(["auth", "status", "--jq", ".data.identities"]);
  assert.equal(res.code, 0, res.stderr);
  assert.deepEqual(JSON.parse(res.stdout), ["user", "bot"]);
});

Deno.test("schema and commands take -q/--jq", async () => {
  const schema = await runCli(["schema", "-q", '.data.services | map(.name) | index("calendar") != null']);
  assert.equal(schema.code, 0, schema.stderr);
  assert.equal(schema.stdout.trim(), "true");
  const commands = await runCli([
    "commands",
    "--service",
    "calendar",
    "--jq",
    '.data[0].path | startswith("calendar")',
  ]);
  assert.equal(commands.code, 0, commands.stderr);
  assert.equal(commands.stdout.trim(), "true");
});

Deno.test("event list --format table: its declared columns; --jq after it filters first", async () => {
  const table = await runCli(["event", "list", "--format", "table"], { stdoutIsTTY: true, columns: 120 });
  assert.equal(table.code, 0, table.stderr);
  assert.deepEqual(table.stdout.split("\n")[0].trim().split(/\s{2,}/), ["key", "scope", "description"]);
  const keys = await runCli(["event", "list", "--jq", ".data[].key", "--format", "table"]);
  assert.equal(keys.code, 0, keys.stderr);
  assert.match(keys.stdout, /im\.message\.receive_v1/);
  assert.doesNotMatch(keys.stdout, /description/);
});

Deno.test("skills list and event schema: --jq applies", async () => {
  const skills = await runCli(["skills", "list", "--jq", '[.data[].domain] | index("calendar") != null']);
  assert.equal(skills.code, 0, skills.stderr);
  assert.equal(skills.stdout.trim(), "true");
  const schema = await runCli(["event", "schema", "im.message.receive_v1", "--jq", ".data.key"]);
  assert.equal(schema.code, 0, schema.stderr);
  assert.equal(schema.stdout.trim(), "im.message.receive_v1");
});

Deno.test("doctor --jq filters its report", async () => {
  const res = await inSandbox(["doctor", "--offline", "--jq", ".checks | length > 0"]);
  assert.equal(res.stdout.trim(), "true", res.stderr);
});

Deno.test("a filter that does not compile is refused before the command acts, exit 2", async () => {
  for (const argv of [["auth", "status"], ["remote-control", "start"], ["profile", "list"]]) {
    const res = await inSandbox([...argv, "--jq", ".data["]);
    assert.equal(res.code, 2, `${argv.join(" ")}: ${res.stderr}`);
    assert.equal(errorOf(res).type, "validation");
    assert.match(errorOf(res).message, /jq/);
  }
});

Deno.test("a fixed command refuses a format it cannot show", async () => {
  const res = await runCli(["skills", "list", "--format", "pretty"]);
  assert.equal(res.code, 2);
  assert.match(errorOf(res).message, /--format pretty is not supported/);
});

Deno.test("config show, default-as and profile list take --jq; profile list --format table", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-jq-" });
  try {
    const init = await runCli(["config", "init", "--app-id", "cli_jq", "--app-secret-stdin"], {
      configDir,
      stdin: "s\n",
    });
    assert.equal(init.code, 0, init.stderr);
    const show = await runCli(["config", "show", "--jq", ".data.appId"], { configDir });
    assert.equal(show.stdout.trim(), "cli_jq", show.stderr);
    const set = await runCli(["config", "default-as", "bot", "--jq", ".data.defaultAs"], { configDir });
    assert.equal(set.stdout.trim(), "bot", set.stderr);
    const get = await runCli(["config", "default-as", "-q", ".data.defaultAs"], { configDir });
    assert.equal(get.stdout.trim(), "bot", get.stderr);
    const table = await runCli(["profile", "list", "--format", "table"], { configDir });
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^name +active +appId +brand/);
    assert.match(table.stdout, /cli_jq/);
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});
