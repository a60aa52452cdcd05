/**
 * The error contract through `runCli` as `main.ts` calls it, one case per error type a user can trigger: stdout stays
 * empty, stderr is exactly one JSON error envelope with `type`, `message` (and a `hint` where there is a next
 * step), and the exit code is the type's documented one.
 */
import assert from "node:assert/strict";
import { type ErrorType, EXIT_CODES } from "../cli/output/errors.ts";
import { type Emulator, emulatorEnv, fixtures, startEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";

interface Case {
  type: ErrorType;
  args: string[];
  env?: (emu: Emulator) => Record<string, string>;
  arrange?: (emu: Emulator) => void;
  /** Requests to these paths must not have been sent. */
  noRequestsTo?: string;
  hint?: RegExp;
}

const bot = (emu: Emulator) => emulatorEnv(emu);
const calendar = JSON.stringify({ calendar_id: fixtures.CALENDARS.bot });

const CASES: Case[] = [
  { type: "usage", args: ["calendar", "+agenda", "--no-such-flag"] },
  {
    type: "validation",
    args: ["calendar", "events", "list", "--params", '{"nope":1}'],
    env: bot,
    hint: /larkit schema calendar\.events\.list/,
  },
  { type: "config", args: ["calendar", "+agenda"], hint: /larkit config init/ },
  { type: "auth", args: ["calendar", "+agenda", "--as", "user"], env: bot, hint: /larkit auth login/ },
  {
    type: "strict_mode",
    args: ["calendar", "+agenda", "--as", "user"],
    env: (emu) => ({ ...bot(emu), LARKIT_STRICT_MODE: "bot" }),
  },
  {
    type: "missing_scope",
    args: ["calendar", "+agenda", "--as", "bot"],
    env: (emu) => ({ ...bot(emu), LARKIT_BOT_SCOPES: "im:chat" }),
    noRequestsTo: "/open-apis/calendar",
    hint: /calendar:calendar\.event:read/,
  },
  {
    type: "confirmation_required",
    args: [
      "calendar",
      "events",
      "delete",
      "--params",
      JSON.stringify({ calendar_id: fixtures.CALENDARS.bot, event_id: "evt_x" }),
    ],
    env: bot,
    noRequestsTo: "/open-apis/calendar",
    hint: /--yes/,
  },
  {
    type: "permission",
    args: ["calendar", "events", "list", "--params", calendar],
    env: bot,
    arrange: (emu) =>
      emu.revokeScopes("tenant", ["calendar:calendar:readonly", "calendar:calendar.event:read"]),
    hint: /calendar:calendar/,
  },
  { type: "not_found", args: ["api", "GET", "/open-apis/nowhere/v1/things"], env: bot },
  {
    type: "api_error",
    args: ["api", "POST", "/open-apis/auth/v3/tenant_access_token/internal", "--data", "{}"],
    env: bot,
  },
  {
    type: "rate_limit",
    args: ["calendar", "events", "list", "--params", calendar],
    env: bot,
    arrange: (emu) => emu.faults.rateLimit({ times: 10, retryAfterSeconds: 0, path: "/open-apis/calendar" }),
  },
  {
    type: "network",
    args: ["calendar", "events", "list", "--params", calendar],
    env: (emu) => ({
      ...bot(emu),
      LARKIT_TENANT_ACCESS_TOKEN: "t-given",
      LARKIT_BASE_URL: "http://127.0.0.1:9",
    }),
  },
  { type: "jq_error", args: ["calendar", "calendars", "list", "--jq", '.data | error("boom")'], env: bot },
  { type: "replay_mismatch", args: ["--replay", "rec", "calendar", "calendars", "list"], env: bot },
];

Deno.test("each error type: empty stdout, one envelope on stderr, its documented exit code", async (t) => {
  const emu = await startEmulator({});
  const work = await Deno.makeTempDir({ prefix: "larkit-errors-" });
  await Deno.mkdir(`${work}/rec`);
  await Deno.writeTextFile(`${work}/rec/session.jsonl`, "");
  try {
    for (const c of CASES) {
      await t.step(c.type, async () => {
        emu.faults.clear();
        emu.grantScopes("tenant", ["calendar:calendar:readonly", "calendar:calendar.event:read"]);
        c.arrange?.(emu);
        emu.clearRequests();
        // Retries back off on a clock that does not wait: how long they wait is not what this test is about.
        const r = await runCli(c.args, {
          env: c.env?.(emu) ?? {},
          cwd: work,
          sleep: () => Promise.resolve(),
        });
        assert.equal(r.stdout, "", `stdout must be empty for ${c.type}`);
        const env = r.errorJson();
        assert.equal(env.ok, false);
        assert.equal(env.error.type, c.type, r.stderr);
        assert.ok(env.error.message.length > 0);
        assert.equal(r.code, EXIT_CODES[c.type].exit);
        if (c.hint) assert.match(env.error.hint ?? "", c.hint);
        if (c.noRequestsTo) {
          assert.deepEqual(emu.requests().filter((q) => q.path.startsWith(c.noRequestsTo!)), []);
        }
      });
    }
  } finally {
    await emu.stop();
  }
});
