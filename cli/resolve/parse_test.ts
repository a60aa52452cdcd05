import assert from "node:assert/strict";
import { flag } from "../../shortcuts/declare.ts";
import { LarkitError } from "../output/errors.ts";
import { addDeclared, type CommandModule, defineCommand } from "./declare.ts";
import { groupNode } from "./node.ts";
import { landOn, parseLine } from "./parse.ts";

const show = defineCommand({
  words: ["skills", "show"],
  description: "print a skill",
  flags: {
    format: flag.choice(["json", "pretty"], "output", { default: "json" }),
    wait: flag.negatable("wait"),
  },
  args: [{ name: "domain", description: "the domain", required: true }],
  turn: { allowed: true, reason: "reads" },
  action: () => Promise.resolve(),
});
const consume = defineCommand({
  words: ["event", "consume"],
  description: "receive events",
  flags: { key: flag.strings("keys"), jq: flag.string("filter", { short: "q" }) },
  args: [{ name: "rest", description: "more", variadic: true }],
  turn: { allowed: false, reason: "runs a daemon" },
  action: () => Promise.resolve(),
});
const module: CommandModule = {
  groups: [{ words: ["skills"], description: "guides" }, { words: ["event"], description: "events" }],
  commands: [show, consume],
};
const root = groupNode("larkit");
addDeclared(root, module);
const showNode = root.commands[0].commands[0];
const consumeNode = root.commands[1].commands[0];

async function usage(fn: () => unknown): Promise<{ message: string; hint?: string }> {
  try {
    await fn();
  } catch (e) {
    assert.ok(e instanceof LarkitError);
    assert.equal(e.body.subtype, "usage");
    return { message: e.message, hint: e.body.hint };
  }
  throw new Error("no usage error");
}

Deno.test("the words land on a command, global flags and their values passed over", async () => {
  const at = await landOn(root, ["--profile", "skills", "skills", "show", "calendar", "--no-wait"]);
  assert.equal(at.node, showNode);
  assert.deepEqual(at.rest, ["calendar", "--no-wait"]);
  assert.deepEqual(parseLine(at.node, at.rest), { values: { wait: false }, args: ["calendar"] });
  const group = await landOn(root, ["skills"]);
  assert.deepEqual([group.node.name, group.help], ["skills", false]);
  const help = await landOn(root, ["help", "skills", "show"]);
  assert.deepEqual([help.node, help.help], [showNode, true]);
});

Deno.test("an unknown word is a usage error with did-you-mean under the deepest command", async () => {
  const e = await usage(() => landOn(root, ["skills", "sho"]));
  assert.deepEqual(e.message, "unknown command 'sho' (Did you mean show?)");
  assert.deepEqual(e.hint, "did you mean show? run `larkit skills --help` to see the commands and flags");
  const early = await usage(() => landOn(root, ["--as", "bot", "skills", "show", "x"]));
  assert.match(early.message, /^unknown option '--as'/);
  assert.equal(early.hint, "run `larkit skills show --help` to see the commands and flags");
});

Deno.test("flags: values, =, negation, repeatable, short, --, positionals", () => {
  assert.deepEqual(parseLine(showNode, ["calendar", "--format=pretty", "--no-wait"]).values, {
    format: "pretty",
    wait: false,
  });
  const parsed = parseLine(consumeNode, ["--key", "a", "b", "-q", ".x", "--key=c", "--", "--d"]);
  assert.deepEqual(parsed.values, { key: ["a", "c"], jq: ".x" });
  assert.deepEqual(parsed.args, ["b", "--d"]);
  assert.deepEqual(parseLine(consumeNode, ["--profile", "p", "--debug"]).values, {});
});

Deno.test("usage errors", async () => {
  assert.deepEqual(
    (await usage(() => parseLine(showNode, []))).message,
    "missing required argument 'domain'",
  );
  assert.deepEqual(
    (await usage(() => parseLine(showNode, ["a", "b"]))).message,
    "too many arguments for 'show'. Expected 1 argument but got 2: a, b.",
  );
  assert.deepEqual(
    (await usage(() => parseLine(showNode, ["a", "--formt", "json"]))).message,
    "unknown option '--formt' (Did you mean --format?)",
  );
  assert.deepEqual(
    (await usage(() => parseLine(showNode, ["a", "--wait"]))).message,
    "unknown option '--wait' (Did you mean --no-wait?)",
  );
  assert.deepEqual(
    (await usage(() => parseLine(showNode, ["a", "--format"]))).message,
    "option '--format <value>' argument missing",
  );
  assert.deepEqual(
    (await usage(() => parseLine(consumeNode, ["--key"]))).message,
    "option '--key <value>' argument missing",
  );
  assert.deepEqual(
    (await usage(() => parseLine(consumeNode, ["--profile"]))).message,
    "option '--profile <name>' argument missing",
  );
});
