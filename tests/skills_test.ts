/**
 * Skills are documentation, but the commands they name are a promise: each `larkit …` a skill mentions must
 * be a command the resolver lands on (shortcuts, generated API commands, fixed commands), and the binary
 * prints them.
 */
import assert from "node:assert/strict";
import { createRunContext, type RunContext } from "../cli/context.ts";
import { expanded } from "../cli/resolve/node.ts";
import { landOn } from "../cli/resolve/parse.ts";
import { rootNode } from "../cli/resolve/root.ts";
import { testProvider } from "../cli/test_provider.ts";
import { allSkills } from "../skills/catalog.ts";
import { runCli } from "./helpers/run_cli.ts";

/** `larkit w1 w2 …` mentions: the words up to the first flag, placeholder or punctuation. */
export function commandMentions(markdown: string): string[][] {
  const found = new Map<string, string[]>();
  for (const m of markdown.matchAll(/`[^`]*`/g)) {
    for (const cmd of m[0].slice(1, -1).split("|")) {
      const words = /\blarkit((?: +[a-z+][\w.+-]*)+)/.exec(cmd)?.[1].trim().split(/ +/);
      if (words) found.set(words.join(" "), words);
    }
  }
  return [...found.values()];
}

/**
 * Whether the resolver lands `words` on a command: a word after a leaf is an argument (`larkit skills show
 * calendar`) but not a shortcut name; a group the words end on must list its children (a service's resource is
 * found by name and told unknown only when listed).
 */
async function exists(ctx: RunContext, words: string[]): Promise<boolean> {
  try {
    const { node, rest } = await landOn(rootNode(ctx), words);
    if (node.leaf) return !rest.some((w) => w.startsWith("+"));
    await expanded(node, 1);
    return true;
  } catch {
    return false;
  }
}

Deno.test("every command a skill names exists in the command tree", async () => {
  const ctx = createRunContext(
    testProvider({ env: { LARKIT_REMOTE_META: "off" } }),
    { debug: false, color: false, offline: true },
  );
  let checked = 0;
  for (const skill of allSkills()) {
    for (const words of commandMentions(skill.text)) {
      assert.ok(
        await exists(ctx, words),
        `skill "${skill.domain}" names \`larkit ${words.join(" ")}\`, which does not exist`,
      );
      checked++;
    }
  }
  assert.ok(checked >= 10, `only ${checked} mentions found: the extraction is broken`);
});

Deno.test("a skill naming a command that does not exist fails the check", async () => {
  const ctx = createRunContext(
    testProvider({ env: { LARKIT_REMOTE_META: "off" } }),
    { debug: false, color: false, offline: true },
  );
  for (
    const words of [["calendar", "+nosuch"], ["calendar", "nosuch"], ["nosuch"], ["config", "nosuch"], [
      "skills",
      "show",
      "+x",
    ]]
  ) {
    assert.equal(await exists(ctx, words), false, words.join(" "));
  }
  for (
    const words of [["calendar", "+agenda"], ["calendar", "calendars", "list"], ["skills", "show", "im"]]
  ) {
    assert.equal(await exists(ctx, words), true, words.join(" "));
  }
});

Deno.test("commandMentions finds commands in code spans and stops at flags and placeholders", () => {
  assert.deepEqual(
    commandMentions("run `larkit calendar +agenda --start x` then `larkit calendar <resource> <method>`"),
    [["calendar", "+agenda"], ["calendar"]],
  );
});

Deno.test("larkit skills list and show print the embedded skills", async () => {
  const list = await runCli(["skills", "list"]);
  assert.equal(list.code, 0, list.stderr);
  const doc = list.json<{ data: { domain: string }[]; meta: { count: number } }>();
  // skills/catalog_test.ts pins the names; here the listing is the catalog, all of it, in order.
  assert.deepEqual(doc.data.map((s) => s.domain), allSkills().map((s) => s.domain));
  assert.equal(doc.meta.count, doc.data.length);
  const show = await runCli(["skills", "show", "im"]);
  assert.equal(show.code, 0, show.stderr);
  assert.ok(show.stdout.startsWith("---\nname: im\n"));
  const missing = await runCli(["skills", "show", "payroll"]);
  assert.deepEqual([missing.errorJson().error.type, missing.errorJson().error.subtype], ["api", "not_found"]);
});
