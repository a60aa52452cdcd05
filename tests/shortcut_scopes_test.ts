/**
 * Every scope a shortcut declares is one the suite emulator's seeded app grants to that identity, so a user who
 * logs in against the emulator (or a bot with configured scopes) passes the local scope pre-check of every
 * shortcut — the pre-check cannot silently disagree with the suite it is tested against.
 */
import assert from "node:assert/strict";
import { DEFAULT_SCOPES } from "../sandbox/scopes.ts";
import { loadAllShortcuts } from "../shortcuts/index.ts";

const SHORTCUTS = await loadAllShortcuts();

Deno.test("shortcut scopes are granted by the emulator's seeded app, per identity", () => {
  const granted = { user: new Set(DEFAULT_SCOPES.user), bot: new Set(DEFAULT_SCOPES.tenant) };
  const missing: string[] = [];
  for (const s of SHORTCUTS) {
    for (const identity of s.authTypes) {
      for (const scope of s.scopes[identity] ?? []) {
        if (!granted[identity].has(scope)) missing.push(`${s.service} ${s.command} (${identity}): ${scope}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});
