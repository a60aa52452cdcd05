/**
 * `larkit commands` describes the commands the binary really has: its JSON parses with the catalogue schema
 * and holds one entry per visible leaf of the fully listed command nodes.
 */
import assert from "node:assert/strict";
import * as z from "zod";
import { createRunContext } from "../cli/context.ts";
import { type CommandNode, expanded, nodePath } from "../cli/resolve/node.ts";
import { liveRoot } from "../cli/resolve/root.ts";
import { testProvider } from "../cli/test_provider.ts";
import { runCli } from "./helpers/run_cli.ts";

const Flag = z.object({
  name: z.string().check(z.startsWith("-")),
  type: z.enum(["string", "boolean", "integer", "string[]", "json"]),
  required: z.boolean(),
  default: z.optional(z.unknown()),
  enum: z.optional(z.array(z.string())),
  input: z.array(z.enum(["file", "stdin"])),
  description: z.string(),
});
const Entry = z.object({
  path: z.string().check(z.minLength(1)),
  layer: z.enum(["shortcut", "api", "builtin"]),
  summary: z.string(),
  flags: z.array(Flag),
  identities: z.array(z.enum(["user", "bot"])),
  scopes: z.record(z.string(), z.array(z.string())),
  risk: z.enum(["read", "write", "high-risk-write"]),
  dry_run: z.boolean(),
  pagination: z.boolean(),
  turn: z.nullable(z.object({ allowed: z.boolean(), reason: z.string().check(z.minLength(1)) })),
});
const Catalogue = z.object({
  ok: z.literal(true),
  data: z.array(Entry),
  meta: z.object({ count: z.number() }),
});

/** Every command node, each listed down to its leaves. */
async function allNodes(): Promise<CommandNode> {
  const p = testProvider({ env: { LARKIT_REMOTE_META: "off" } });
  return await expanded(await liveRoot(createRunContext(p, { debug: false, color: false, offline: true })));
}

/** Counted independently of the catalogue's own walker: every visible command without children. */
function countLeaves(cmd: CommandNode): number {
  return cmd.commands.filter((c) => !c.hidden)
    .reduce((n, c) => n + (c.commands.length ? countLeaves(c) : 1), 0);
}

Deno.test("commands --format json validates and counts every leaf of the tree", async () => {
  const r = await runCli(["commands", "--format", "json"]);
  assert.equal(r.code, 0, r.stderr);
  const cat = Catalogue.parse(r.json());
  assert.equal(cat.data.length, countLeaves(await allNodes()));
  assert.equal(cat.meta.count, cat.data.length);
  assert.equal(new Set(cat.data.map((e) => e.path)).size, cat.data.length, "paths are unique");
});

Deno.test("commands --format ndjson prints one entry per line", async () => {
  const r = await runCli(["commands", "--format", "ndjson"]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split("\n").map((l) => Entry.parse(JSON.parse(l)));
  assert.ok(lines.some((e) => e.path === "commands"));
});

Deno.test("under bot-only strict mode the catalogue holds no user-only command", async () => {
  const env = { LARKIT_APP_ID: "cli_x", LARKIT_APP_SECRET: "s", LARKIT_STRICT_MODE: "bot" };
  const full = Catalogue.parse((await runCli(["commands", "--service", "calendar"])).json());
  const strict = Catalogue.parse((await runCli(["commands", "--service", "calendar"], { env })).json());
  const userOnly = full.data.filter((e) => e.identities.length > 0 && !e.identities.includes("bot"));
  assert.ok(userOnly.length > 0, "the calendar service has user-only commands to prune");
  const paths = new Set(strict.data.map((e) => e.path));
  for (const e of userOnly) assert.ok(!paths.has(e.path), `${e.path} is pruned`);
  assert.equal(strict.data.length, full.data.length - userOnly.length);
  assert.ok(strict.data.every((e) => e.identities.length === 0 || e.identities.includes("bot")));
  const all = Catalogue.parse((await runCli(["commands"], { env })).json());
  assert.ok(!all.data.some((e) => e.path === "auth login"), "auth login is user-only");
});

Deno.test("every leaf has a turn policy; whatever changes this machine is refused in turns", async () => {
  const cat = Catalogue.parse((await runCli(["commands"])).json());
  const unclassified = cat.data.filter((e) => e.turn === null).map((e) => e.path);
  assert.deepEqual(
    unclassified,
    [],
    "leaves without a turn policy (declare one with setMeta(..., { turn }))",
  );
  // The hidden leaves (completion's `__complete`, `event hub`) are walked too: a turn may name them.
  const hidden: string[] = [];
  const walk = (cmd: CommandNode) => {
    for (const c of cmd.commands) {
      if (!c.leaf) walk(c);
      else if (c.turn === undefined) hidden.push(nodePath(c).join(" "));
    }
  };
  const root = await allNodes();
  walk(root);
  assert.deepEqual(hidden, []);
  assert.ok(root.commands.some((c) => c.hidden && c.leaf), "hidden leaves are walked");

  const refused = new Set(cat.data.filter((e) => e.turn?.allowed === false).map((e) => e.path));
  for (
    const path of [
      "config init",
      "config set",
      "config remove",
      "config strict-mode",
      "config default-as",
      "auth login",
      "auth logout",
      "profile add",
      "profile use",
      "profile rename",
      "profile remove",
      "app-server",
      "remote-control",
      "relay dev",
      "relay client",
      "sandbox serve",
      "sandbox run",
      "registry refresh",
      "doctor",
    ]
  ) assert.ok(refused.has(path), `${path} is refused in turns`);
  const allowed = new Set(cat.data.filter((e) => e.turn?.allowed === true).map((e) => e.path));
  for (
    const path of [
      "calendar +agenda",
      "api",
      "schema",
      "skills list",
      "commands",
      "auth status",
      "config show",
    ]
  ) {
    assert.ok(allowed.has(path), `${path} may run in turns`);
  }
  assert.ok(cat.data.filter((e) => e.layer !== "builtin").every((e) => e.turn?.allowed), "suite layers run");
  const table = await runCli(["commands", "--service", "calendar", "--format", "table"]);
  assert.match(table.stdout, /turn/);
});
