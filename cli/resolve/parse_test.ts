import assert from "node:assert/strict";
import { flag } from "../../shortcuts/declare.ts";
import { LarkitError } from "../output/errors.ts";
import { type CommandModule, defineCommand } from "./declare.ts";
import { landOn, parseCommand } from "./parse.ts";

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
  flags: { key: flag.strings("keys"), jq: flag.string("filter") },
  shorts: { jq: "q" },
  args: [{ name: "rest", description: "more", variadic: true }],
  turn: { allowed: false, reason: "runs a daemon" },
  action: () => Promise.resolve(),
});
const modules: CommandModule[] = [{
  groups: [{ words: ["skills"], description: "guides" }, { words: ["event"], description: "events" }],
  commands: [show, consume],
}];

function usage(fn: () => unknown): { message: string; hint?: string } {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof LarkitError);
    assert.equal(e.body.subtype, "usage");
    return { message: e.message, hint: e.body.hint };
  }
  throw new Error("no usage error");
}

Deno.test("the words land on a command, global flags and their values passed over", () => {
  const at = landOn(modules, ["--profile", "skills", "skills", "show", "calendar", "--no-wait"]);
  assert.deepEqual(at.kind === "command" && [at.path, at.rest], [["skills", "show"], [
    "--profile",
    "skills",
    "calendar",
    "--no-wait",
  ]]);
  assert.deepEqual(landOn(modules, ["skills"]), { kind: "group", path: ["skills"] });
});

Deno.test("an unknown word is a usage error with did-you-mean under the deepest command", () => {
  const e = usage(() => landOn(modules, ["skills", "sho"]));
  assert.deepEqual(e.message, "unknown command 'sho'");
  assert.deepEqual(e.hint, "did you mean show? run `larkit skills --help` to see the commands and flags");
});

Deno.test("flags: values, =, negation, repeatable, short, --, positionals", () => {
  assert.deepEqual(parseCommand(show, ["calendar", "--format=pretty", "--no-wait"]).raw, {
    format: "pretty",
    wait: false,
  });
  const parsed = parseCommand(consume, ["--key", "a", "b", "-q", ".x", "--key=c", "--", "--d"]);
  assert.deepEqual(parsed.raw, { key: ["a", "c"], jq: ".x" });
  assert.deepEqual(parsed.args, ["b", "--d"]);
  assert.deepEqual(parseCommand(consume, ["--profile", "p", "--debug"]).raw, {});
});

Deno.test("usage errors read as before", () => {
  assert.deepEqual(usage(() => parseCommand(show, [])).message, "missing required argument 'domain'");
  assert.deepEqual(
    usage(() => parseCommand(show, ["a", "b"])).message,
    "too many arguments for 'show'. Expected 1 argument but got 2: a, b.",
  );
  assert.deepEqual(
    usage(() => parseCommand(show, ["a", "--formt", "json"])).message,
    "unknown option '--formt' (Did you mean --format?)",
  );
  assert.deepEqual(
    usage(() => parseCommand(show, ["a", "--wait"])).message,
    "unknown option '--wait' (Did you mean --no-wait?)",
  );
  assert.deepEqual(
    usage(() => parseCommand(show, ["a", "--format"])).message,
    "option '--format <value>' argument missing",
  );
  assert.deepEqual(
    usage(() => parseCommand(consume, ["--key"])).message,
    "option '--key <value>' argument missing",
  );
});
