/**
 * The error contract through `runCli` as `main.ts` calls it, one case per error subtype a user can trigger:
 * stdout stays empty, stderr is exactly one JSON error envelope with `type`, `subtype`, `retryable`, `message`
 * (and a `hint` where there is a next step), and the exit code is the type's documented one.
 */
import assert from "node:assert/strict";
import type { ErrorSubtype, ErrorType } from "../cli/output/errors.ts";
import { type Emulator, emulatorEnv, fixtures, startEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";

interface Case {
  type: ErrorType;
  subtype: ErrorSubtype;
  /** Written out, not looked up: the exit code is the contract. */
  exit: number;
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
  { type: "validation", subtype: "usage", exit: 2, args: ["calendar", "+agenda", "--no-such-flag"] },
  {
    type: "validation",
    subtype: "validation",
    exit: 2,
    args: ["calendar", "events", "list", "--params", '{"nope":1}'],
    env: bot,
    hint: /larkit schema calendar\.events\.list/,
  },
  { type: "config", subtype: "config", exit: 3, args: ["calendar", "+agenda"], hint: /larkit config init/ },
  {
    type: "authentication",
    subtype: "auth",
    exit: 3,
    args: ["calendar", "+agenda", "--as", "user"],
    env: bot,
    hint: /larkit auth login/,
  },
  {
    type: "policy",
    subtype: "strict_mode",
    exit: 6,
    args: ["calendar", "+agenda", "--as", "user"],
    env: (emu) => ({ ...bot(emu), LARKIT_STRICT_MODE: "bot" }),
  },
  {
    type: "authorization",
    subtype: "missing_scope",
    exit: 3,
    args: ["calendar", "+agenda", "--as", "bot"],
    env: (emu) => ({ ...bot(emu), LARKIT_BOT_SCOPES: "im:chat" }),
    noRequestsTo: "/open-apis/calendar",
    hint: /calendar:calendar\.event:read/,
  },
  {
    type: "confirmation",
    subtype: "confirmation_required",
    exit: 10,
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
    type: "authorization",
    subtype: "permission",
    exit: 3,
    args: ["calendar", "events", "list", "--params", calendar],
    env: bot,
    arrange: (emu) =>
      emu.revokeScopes("tenant", ["calendar:calendar:readonly", "calendar:calendar.event:read"]),
    hint: /calendar:calendar/,
  },
  {
    type: "api",
    subtype: "not_found",
    exit: 1,
    args: ["api", "GET", "/open-apis/nowhere/v1/things"],
    env: bot,
  },
  {
    type: "api",
    subtype: "api_error",
    exit: 1,
    args: ["api", "POST", "/open-apis/auth/v3/tenant_access_token/internal", "--data", "{}"],
    env: bot,
  },
  {
    type: "api",
    subtype: "rate_limit",
    exit: 1,
    args: ["calendar", "events", "list", "--params", calendar],
    env: bot,
    arrange: (emu) => emu.faults.rateLimit({ times: 10, retryAfterSeconds: 0, path: "/open-apis/calendar" }),
  },
  {
    type: "network",
    subtype: "network",
    exit: 4,
    args: ["calendar", "events", "list", "--params", calendar],
    env: (emu) => ({
      ...bot(emu),
      LARKIT_TENANT_ACCESS_TOKEN: "t-given",
      LARKIT_BASE_URL: "http://127.0.0.1:9",
    }),
  },
  {
    type: "validation",
    subtype: "jq_error",
    exit: 2,
    args: ["calendar", "calendars", "list", "--jq", '.data | error("boom")'],
    env: bot,
  },
  {
    type: "replay_mismatch",
    subtype: "replay_mismatch",
    exit: 7,
    args: ["--replay", "rec", "calendar", "calendars", "list"],
    env: bot,
  },
];

Deno.test("each error type: empty stdout, one envelope on stderr, its documented exit code", async (t) => {
  const emu = await startEmulator({});
  const work = await Deno.makeTempDir({ prefix: "larkit-errors-" });
  await Deno.mkdir(`${work}/rec`);
  await Deno.writeTextFile(`${work}/rec/session.jsonl`, "");
  try {
    for (const c of CASES) {
      await t.step(c.subtype, async () => {
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
        assert.equal(r.stdout, "", `stdout must be empty for ${c.subtype}`);
        const env = r.errorJson();
        assert.equal(env.ok, false);
        assert.deepEqual([env.error.type, env.error.subtype], [c.type, c.subtype], r.stderr);
        assert.equal(typeof env.error.retryable, "boolean");
        assert.ok(env.error.message.length > 0);
        assert.equal(r.code, c.exit);
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
