/**
 * Issue 23.6: `auth login --recommend` requests the scope names the read shortcuts declare — every one of
 * them, and nothing no shortcut reads with — so no read shortcut lacks a scope after it.
 */
import assert from "node:assert/strict";
import { RECOMMENDED_SCOPES } from "../cli/auth/recommended_scopes.ts";
import { SHORTCUT_SERVICES } from "../shortcuts/index.ts";

Deno.test("RECOMMENDED_SCOPES equals the user scopes of the read shortcuts", async () => {
  const declared = new Set<string>();
  const lacking: string[] = [];
  for (const [service, s] of Object.entries(SHORTCUT_SERVICES)) {
    for (const shortcut of await s.load()) {
      if (shortcut.risk !== "read") continue;
      for (const scope of shortcut.scopes.user ?? []) {
        declared.add(scope);
        if (!RECOMMENDED_SCOPES.includes(scope)) lacking.push(`${service} ${shortcut.command}: ${scope}`);
      }
    }
  }
  assert.deepEqual(lacking, [], "add these to cli/auth/recommended_scopes.ts");
  assert.deepEqual(RECOMMENDED_SCOPES.filter((s) => !declared.has(s)), [], "no read shortcut declares these");
});
