/**
 * Error contract v2's extra facts, end to end against the suite emulator: permission errors carry
 * `missing_scopes` and, for app scopes, the developer-console link where an admin grants them (the suite's
 * refusal and larkit's own pre-check alike); `retryable` is true only where re-running is safe.
 */
import assert from "node:assert/strict";
import { emulatorEnv, fixtures, startEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";

const CALENDAR_READ = ["calendar:calendar:readonly", "calendar:calendar.event:read"];

Deno.test("permission errors name the missing scopes and link the console for app scopes", async () => {
  const emu = await startEmulator({});
  try {
    const env = emulatorEnv(emu);
    emu.revokeScopes("tenant", CALENDAR_READ);
    const params = JSON.stringify({ calendar_id: fixtures.CALENDARS.bot });
    const refused = await runCli(["calendar", "events", "list", "--params", params, "--as", "bot"], { env });
    assert.equal(refused.code, 3, refused.stderr);
    const suite = refused.errorJson().error as unknown as Record<string, unknown> & {
      missing_scopes: string[];
    };
    assert.deepEqual([suite.type, suite.subtype, suite.retryable], ["authorization", "permission", false]);
    assert.ok(
      suite.missing_scopes.length > 0 && suite.missing_scopes.every((s) => s.startsWith("calendar:")),
    );
    const link = new URL(String(suite.console_url));
    assert.equal(link.pathname, "/page/scope-apply");
    assert.equal(link.searchParams.get("clientID"), emu.app.appId);
    assert.deepEqual(link.searchParams.get("scopes")?.split(","), suite.missing_scopes);

    // larkit's own pre-check (the profile says which scopes the app has): same facts, nothing sent.
    emu.clearRequests();
    const local = await runCli(["calendar", "+agenda", "--as", "bot"], {
      env: { ...env, LARKIT_BOT_SCOPES: "im:chat" },
    });
    assert.equal(local.code, 3, local.stderr);
    const pre = local.errorJson().error as unknown as Record<string, unknown> & { missing_scopes: string[] };
    assert.deepEqual([pre.type, pre.subtype], ["authorization", "missing_scope"]);
    assert.ok(pre.missing_scopes.includes("calendar:calendar.event:read"), JSON.stringify(pre));
    assert.match(String(pre.console_url), /\/page\/scope-apply\?clientID=/);
    assert.deepEqual(emu.requests().filter((q) => q.path.startsWith("/open-apis/calendar")), []);
  } finally {
    await emu.stop();
  }
});

Deno.test("retryable: a refused rate limit yes, a 5xx answer to a write without a key no", async () => {
  const emu = await startEmulator({});
  try {
    const env = emulatorEnv(emu);
    const noWait = { env, sleep: () => Promise.resolve() };
    emu.faults.rateLimit({ times: 20, retryAfterSeconds: 0, path: "/open-apis/calendar" });
    const limited = await runCli(["calendar", "calendars", "list", "--as", "bot"], noWait);
    assert.deepEqual(
      [limited.errorJson().error.subtype, limited.errorJson().error.retryable],
      ["rate_limit", true],
    );
    emu.faults.clear();
    emu.faults.serverError({ times: 20, status: 502, path: "/open-apis/calendar" });
    const read = await runCli(["calendar", "calendars", "list", "--as", "bot"], noWait);
    assert.deepEqual([read.errorJson().error.type, read.errorJson().error.retryable], ["network", true]);
    const write = await runCli(
      ["api", "POST", "/open-apis/calendar/v4/calendars", "--data", '{"summary":"x"}', "--as", "bot"],
      noWait,
    );
    assert.equal(write.code, 4, write.stderr);
    assert.deepEqual([write.errorJson().error.type, write.errorJson().error.retryable], ["network", false]);
  } finally {
    await emu.stop();
  }
});
