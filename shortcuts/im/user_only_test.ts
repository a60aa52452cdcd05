import assert from "node:assert/strict";
import { LarkitError } from "../../cli/output/errors.ts";
import { runShortcut } from "../pipeline.ts";
import { testRun } from "../test_context.ts";
import { flagList } from "./flags.ts";
import { chatList } from "./chat_list.ts";

Deno.test("a user-only shortcut missing a scope hints a login, never --as bot; a two-identity one offers both", async () => {
  const missing = async (shortcut: typeof flagList | typeof chatList) => {
    const t = testRun({ granted: [], identities: ["user", "bot"] });
    const run = runShortcut(t.run, shortcut, { as: "user", dryRun: false, yes: true, flags: {} });
    let hint = "";
    await assert.rejects(run, (e) => {
      hint = e instanceof LarkitError ? e.hint ?? "" : "";
      return e instanceof LarkitError && e.subtype === "missing_scope";
    });
    assert.equal(t.requests.length, 0);
    return hint;
  };
  const userOnly = await missing(flagList);
  assert.match(userOnly, /larkit auth login/);
  assert.doesNotMatch(userOnly, /--as bot/);
  assert.match(await missing(chatList), /--as bot/);
});
