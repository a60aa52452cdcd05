/**
 * Issue 23.6: a sandbox you can log into. `sandbox run --as user` runs the command as the seeded user holding
 * every scope the shortcuts declare; `sandbox serve --login user --print-env` prints `export` lines that give a
 * shell the same logged-in user.
 */
import assert from "node:assert/strict";
import { loginUser } from "../cli/commands/sandbox.ts";
import { testProvider } from "../cli/test_provider.ts";
import { SHORTCUT_SERVICES } from "../shortcuts/index.ts";
import { startEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";

Deno.test("sandbox run --as user: a user-only read runs as the user, no login step, no missing scope", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-sbx-user-" });
  const res = await runCli(["sandbox", "run", "--as", "user", "--", "calendar", "+agenda"], { configDir });
  assert.equal(res.code, 0, res.stderr);
  const out = res.json() as { identity: string; data: unknown };
  assert.equal(out.identity, "user");
});

Deno.test("the sandbox login grants every user scope the shortcuts declare", async () => {
  const scopes = new Set<string>();
  for (const service of Object.values(SHORTCUT_SERVICES)) {
    for (const s of await service.load()) for (const scope of s.scopes.user ?? []) scopes.add(scope);
  }
  assert.ok(scopes.size > 10);
  const emu = await startEmulator({});
  try {
    const p = testProvider({ fetch: (input, init) => fetch(input, init) });
    const granted = new Set((await loginUser(p, emu)).scopes);
    assert.deepEqual([...scopes].filter((s) => !granted.has(s)), []);
  } finally {
    await emu.stop();
  }
});

Deno.test("sandbox serve --login user --print-env: export lines with the user token, then the listening note", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-sbx-env-" });
  // stdin closes at once, so --exit-with-stdin stops the emulator after the env is printed.
  const res = await runCli(["sandbox", "serve", "--login", "user", "--print-env", "--exit-with-stdin"], {
    configDir,
  });
  assert.equal(res.code, 0, res.stderr);
  const lines = res.stdout.trim().split("\n");
  const env = Object.fromEntries(
    lines.filter((l) => l.startsWith("export ")).map((l) => {
      const m = /^export (\w+)='(.*)'$/.exec(l);
      assert.ok(m, l);
      return [m[1], m[2]];
    }),
  );
  assert.equal(env.LARKIT_BRAND, "custom");
  assert.match(env.LARKIT_BASE_URL, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(env.LARKIT_USER_ACCESS_TOKEN);
  assert.equal(env.LARKIT_DEFAULT_AS, "user");
  assert.match(lines.at(-1)!, /^# larkit sandbox listening on http/);
});
