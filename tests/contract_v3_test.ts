/**
 * The output contract, third round (issue 34): reads are never "outcome unknown", impossible dates are refused,
 * interrupted writes keep their key, the catalogue says what is required, and the smaller promises of the
 * README's contract section. In-process through `runCli` against the emulator; what needs a process (signals,
 * a closed stdout) is in `interrupts_test.ts`.
 */
import assert from "node:assert/strict";
import { errors, EXIT_CODES } from "../cli/output/errors.ts";
import { emulatorEnv, fixtures, withEmulator } from "./helpers/emulator.ts";
import { loopbackFetch, runCli } from "./helpers/run_cli.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";
import { argvOfHint, messagesWith, sendTextArgv } from "./helpers/text_message.ts";

const PRIMARY = "/open-apis/calendar/v4/calendars/primary";
const DAY = ["--start", "2026-11-23", "--end", "2026-11-23"];

Deno.test("a read spelt as POST (the primary calendar) is retried after a lost answer or a 5xx, never outcome_unknown", async () => {
  await withSuite(async (emu, larkit) => {
    emu.faults.dropConnection({ path: PRIMARY, times: 1, after: "after-handling" });
    const lost = await larkit(["calendar", "+agenda", "--as", "bot", ...DAY]);
    assert.equal(lost.code, 0, lost.stderr);
    assert.equal(suiteCalls(emu).filter((c) => c.path === PRIMARY).length, 2, "the lookup was sent again");

    emu.clearRequests();
    emu.faults.serverError({ path: PRIMARY, times: 1, status: 500 });
    const failed = await larkit(["calendar", "+agenda", "--as", "bot", ...DAY]);
    assert.equal(failed.code, 0, failed.stderr);

    // A write shortcut's lookup is a read too: only the write itself is the write.
    emu.clearRequests();
    emu.faults.dropConnection({ path: PRIMARY, times: 1, after: "before-handling" });
    const create = await larkit([
      "calendar",
      "+create",
      "--as",
      "bot",
      "--summary",
      "lookup retried",
      "--start",
      "2026-11-24T10:00:00Z",
      "--end",
      "2026-11-24T11:00:00Z",
    ]);
    assert.equal(create.code, 0, create.stderr);

    // The generated method: the registry says it reads.
    emu.faults.dropConnection({ path: PRIMARY, times: 1, after: "after-handling" });
    const method = await larkit(["calendar", "calendars", "primary"]);
    assert.equal(method.code, 0, method.stderr);
  });
});

/** Every flag the issue lists that takes a time from people, with the rest of a valid command line. */
const TIME_FLAGS: [string[], string][] = [
  [["task", "+create", "--summary", "x"], "due"],
  [["task", "+update", "--task-id", "t1"], "due"],
  [["calendar", "+agenda"], "start"],
  [["calendar", "+freebusy", "--user-id", "ou_1"], "start"],
  [["calendar", "+search-event", "--query", "x"], "start"],
  [["calendar", "+suggestion", "--attendee-ids", "ou_1"], "start"],
  [["im", "+chat-messages-list", "--chat-id", "oc_1"], "start"],
  [["im", "+messages-search", "--query", "x"], "start"],
  [["mail", "+draft-send", "--draft-id", "d1"], "send-time"],
  [["vc", "+search"], "start"],
  [["vc", "+meeting-events", "--meeting-id", "m1"], "start"],
  [["minutes", "+search"], "start"],
];

Deno.test("a date or time that does not exist is refused as validation naming the flag and the value, in every time flag", async () => {
  await withSuite(async (emu, larkit) => {
    for (const [argv, flag] of TIME_FLAGS) {
      for (const bad of ["2026-02-30", "2026-11-28 24:30", "2026-13-45T25:61:00", "2026-02-29T10:00+08:00"]) {
        const r = await larkit([...argv, `--${flag}`, bad, "--as", "user", "--dry-run"], { asUser: true });
        assert.equal(r.code, EXIT_CODES.validation.exit, `${argv.join(" ")} --${flag} ${bad}: ${r.stdout}`);
        const err = r.errorJson().error;
        assert.equal(err.type, "validation");
        assert.ok(err.message.includes(`--${flag}`) && err.message.includes(bad), err.message);
      }
      // Every valid form is still taken: a leap day, the last minute, an offset, seconds, Unix seconds.
      for (const good of ["2028-02-29", "2026-11-28 23:59", "2026-11-28T10:00:30+08:00", "1795910400"]) {
        const r = await larkit([...argv, `--${flag}`, good, "--as", "user", "--dry-run"], { asUser: true });
        assert.equal(r.code, 0, `${argv.join(" ")} --${flag} ${good}: ${r.stderr}`);
      }
    }
    assert.deepEqual(suiteCalls(emu), [], "nothing was sent");
  });
});

Deno.test("Ctrl-C while a keyed write waits for its answer: the envelope carries the key and the safe re-run", async () => {
  await withEmulator({}, async (emu) => {
    const text = `interrupted ${crypto.randomUUID()}`;
    const count = () => messagesWith(emu, text);
    const interrupt = new AbortController();
    const args = sendTextArgv(fixtures.CHATS.engineering, text);
    // The suite stores the message; Ctrl-C comes before larkit has read the answer.
    const r = await runCli(args, {
      env: emulatorEnv(emu),
      signal: interrupt.signal,
      fetch: async (input, init) => {
        const res = await loopbackFetch(input, init);
        if (!String(input).includes("/im/v1/messages")) return res;
        await res.body?.cancel();
        interrupt.abort(errors.interrupted("SIGINT"));
        throw init?.signal?.reason;
      },
    });
    assert.equal(r.code, 130, r.stderr);
    const err = r.errorJson().error;
    assert.equal(err.type, "interrupted");
    const detail = err.detail as { signal: string; idempotency_key: string; method: string; path: string };
    assert.deepEqual([detail.signal, detail.method, detail.path], [
      "SIGINT",
      "POST",
      "/open-apis/im/v1/messages",
    ]);
    assert.ok(detail.idempotency_key);
    assert.match(err.hint ?? "", new RegExp(`--idempotency-key ${detail.idempotency_key}$`));
    assert.equal(count(), 1);
    const rerun = await runCli(argvOfHint(err.hint ?? ""), { env: emulatorEnv(emu) });
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.equal(count(), 1, "following the hint stores nothing twice");
  });
});

Deno.test("strict mode: a pruned command called directly (by name or alias) is the strict_mode error; help and completion still prune it", async () => {
  const env = {
    LARKIT_APP_ID: "cli_strict",
    LARKIT_APP_SECRET: "s",
    LARKIT_BRAND: "custom",
    LARKIT_BASE_URL: "http://127.0.0.1:9",
    LARKIT_STRICT_MODE: "bot",
  };
  for (const name of ["+my-tasks", "+get-my-tasks"]) {
    const r = await runCli(["task", name], { env });
    assert.equal(r.code, EXIT_CODES.policy.exit, r.stderr);
    assert.equal(r.errorJson().error.subtype, "strict_mode");
  }
  const help = await runCli(["task", "--help"], { env });
  assert.equal(help.code, 0, help.stderr);
  assert.doesNotMatch(help.stdout, /my-tasks/);
  const complete = await runCli(["__complete", "task", "+"], { env });
  assert.doesNotMatch(complete.stdout, /my-tasks/);
  assert.match(complete.stdout, /\+complete/);
});

Deno.test("csv of an empty result is the header alone (or nothing), never the text (empty)", async () => {
  await withSuite(async (_emu, larkit) => {
    const day = ["--start", "2020-01-04", "--end", "2020-01-04"];
    const csv = await larkit(["calendar", "+agenda", "--as", "bot", ...day, "--format", "csv"]);
    assert.equal(csv.code, 0, csv.stderr);
    assert.equal(csv.stdout, "start\u2013end,summary,organizer,location,my_rsvp\r\n");
    const picked = await larkit([
      "calendar",
      "+agenda",
      "--as",
      "bot",
      ...day,
      "--format",
      "csv",
      "--columns",
      "a,b",
    ]);
    assert.equal(picked.stdout, "a,b\r\n");
  });
});

// deno-lint-ignore no-control-regex -- looking for raw controls is the point
const RAW_CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

Deno.test("control characters and bidi overrides from suite data are escaped in csv, table and pretty output", async () => {
  await withSuite(async (_emu, larkit) => {
    const evil = "\x1b]0;owned\x07title\u202etxt.exe\x1b[31mred\x9b";
    const created = await larkit([
      "calendar",
      "+create",
      "--as",
      "bot",
      "--summary",
      evil,
      "--start",
      "2026-12-24T10:00:00Z",
      "--end",
      "2026-12-24T11:00:00Z",
    ]);
    assert.equal(created.code, 0, created.stderr);
    const day = ["--start", "2026-12-24", "--end", "2026-12-24"];
    for (const format of ["csv", "table", "pretty"]) {
      const r = await larkit(["calendar", "+agenda", "--as", "bot", ...day, "--format", format]);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout, RAW_CONTROLS, format);
      assert.match(r.stdout, /title/, format);
    }
    const shown = "\\u001b]0;owned\\u0007title\\u202etxt.exe\\u001b[31mred\\u009b";
    const csv = await larkit(["calendar", "+agenda", "--as", "bot", ...day, "--format", "csv"]);
    assert.ok(csv.stdout.includes(shown), csv.stdout);
    // The table shows the same escapes (not a stripped "titletxt.exered"), its column as wide as they are.
    const table = await larkit(["calendar", "+agenda", "--as", "bot", ...day, "--format", "table"]);
    const [header, rule, ...rows] = table.stdout.split("\n");
    const at = header.indexOf("summary");
    const row = rows.find((r) => r.includes("owned")) ?? "";
    assert.ok(at >= 0 && row.slice(at).startsWith(shown), table.stdout);
    assert.equal(rule.slice(at).split("  ")[0], "\u2500".repeat(shown.length), table.stdout);
  });
});

Deno.test("the smaller promises: required --json, a config dir that is a file, no empty meta, page flags, schema paths, foreign hosts, --debug's query", async () => {
  await withSuite(async (emu, larkit) => {
    const batch = await larkit(["base", "+record-batch-create", "--base-token", "b", "--table-id", "t"]);
    assert.equal(batch.code, EXIT_CODES.validation.exit);
    assert.equal(batch.errorJson().error.message, "--json is required");

    const file = await Deno.makeTempFile({ prefix: "larkit-config-file-" });
    const asFile = await larkit(["calendar", "calendars", "list", "--as", "bot"], {
      env: { LARKIT_CONFIG_DIR: file },
    });
    assert.equal(asFile.code, EXIT_CODES.config.exit, asFile.stderr);
    assert.equal(asFile.errorJson().error.type, "config");
    await Deno.remove(file);

    const primary = await larkit([
      "calendar",
      "calendars",
      "get",
      "--as",
      "bot",
      "--params",
      JSON.stringify({ calendar_id: fixtures.CALENDARS.bot }),
    ]);
    assert.equal(primary.code, 0, primary.stderr);
    assert.ok(!("meta" in primary.json<object>()), primary.stdout);

    const list = ["calendar", "calendars", "list", "--as", "bot"];
    for (
      const [flag, value, message] of [
        ["--page-size", "abc", /^--page-size must be a whole number of items per page, at least 1$/],
        ["--page-size", "1e1", /^--page-size must be a whole number/],
        ["--page-limit", "-5", /^--page-limit must be a whole number of pages \(0 = no limit\)$/],
      ] as const
    ) {
      const r = await larkit([...list, flag, value, "--page-all"]);
      assert.equal(r.code, EXIT_CODES.validation.exit, `${flag} ${value}`);
      assert.match(r.errorJson().error.message, message);
    }
    const limitAlone = await larkit([...list, "--page-limit", "3"]);
    assert.equal(limitAlone.code, 0, limitAlone.stderr);
    assert.match(limitAlone.stderr, /warning: --page-limit applies only with --page-all/);

    const schema = await larkit(["schema", "../.."]);
    assert.equal(schema.code, EXIT_CODES.validation.exit);
    assert.equal(schema.errorJson().error.message, 'not a schema path: "../.."');

    emu.clearRequests();
    const foreign = await larkit(["api", "GET", "https://evil.example.com/open-apis/calendar/v4/calendars"]);
    assert.equal(foreign.code, EXIT_CODES.validation.exit);
    assert.match(foreign.errorJson().error.message, /evil\.example\.com is not the configured API host/);
    assert.deepEqual(suiteCalls(emu), []);
    const own = await larkit(["api", "GET", `${emu.url}/open-apis/calendar/v4/calendars`, "--as", "bot"]);
    assert.equal(own.code, 0, own.stderr);

    const debug = await larkit([...list, "--params", '{"page_size":50}', "--debug"]);
    assert.equal(debug.code, 0, debug.stderr);
    assert.match(debug.stderr, /→ GET \/open-apis\/calendar\/v4\/calendars\?page_size=50/);
  });
});

Deno.test("calendar shortcuts without --as and with no user logged in refuse the bot, naming auth login and --as bot", async () => {
  await withEmulator({}, async (emu) => {
    emu.clearRequests();
    for (const argv of [["calendar", "+agenda"], ["calendar", "+agenda", "--as", "auto"]]) {
      const r = await runCli(argv, { env: emulatorEnv(emu) });
      assert.equal(r.code, EXIT_CODES.authentication.exit, r.stderr);
      const err = r.errorJson().error;
      assert.equal(err.type, "authentication");
      assert.match(err.hint ?? "", /larkit auth login/);
      assert.match(err.hint ?? "", /--as bot/);
    }
    assert.deepEqual(emu.requests().filter((q) => q.path.startsWith("/open-apis/calendar")), []);
    // Said on purpose, the bot runs: by flag or by the configured default.
    assert.equal((await runCli(["calendar", "+agenda", "--as", "bot"], { env: emulatorEnv(emu) })).code, 0);
    const byDefault = await runCli(["calendar", "+agenda"], {
      env: { ...emulatorEnv(emu), LARKIT_DEFAULT_AS: "bot" },
    });
    assert.equal(byDefault.code, 0, byDefault.stderr);
    // Other services keep auto's fallback to the bot.
    const im = await runCli(["im", "+chat-search", "--query", "eng"], { env: emulatorEnv(emu) });
    assert.equal(im.code, 0, im.stderr);
  });
});

Deno.test("docs +create --as bot grants the current user access and reports permission_grant", async () => {
  await withSuite(async (emu, larkit) => {
    const r = await larkit(["docs", "+create", "--markdown", "# by the bot", "--as", "bot"], {
      asUser: true,
    });
    assert.equal(r.code, 0, r.stderr);
    const data = r.json<{ data: { doc_id: string; permission_grant: Record<string, string> } }>().data;
    assert.equal(data.permission_grant.status, "granted", JSON.stringify(data.permission_grant));
    assert.equal(data.permission_grant.user_open_id, fixtures.USERS.alice.open_id);
    const grants = suiteCalls(emu).filter((q) =>
      q.path === `/open-apis/drive/v1/permissions/${data.doc_id}/members`
    );
    assert.equal(grants.length, 1);
    assert.deepEqual(grants[0].body, {
      member_type: "openid",
      member_id: fixtures.USERS.alice.open_id,
      perm: "full_access",
    });
  });
});

Deno.test("hints that work when followed: a keyless api write's read, +reply's next step, a page resume, LARKIT_DEFAULT_AS", async () => {
  await withSuite(async (emu, larkit) => {
    const summary = `lost ${crypto.randomUUID()}`;
    const path = `/open-apis/calendar/v4/calendars/${encodeURIComponent(fixtures.CALENDARS.bot)}/events`;
    emu.faults.dropConnection({ path, times: 1, after: "after-handling" });
    const lost = await larkit([
      "api",
      "POST",
      path,
      "--data",
      JSON.stringify({
        summary,
        start_time: { timestamp: "1795600000" },
        end_time: { timestamp: "1795603600" },
      }),
    ]);
    assert.equal(lost.code, EXIT_CODES.outcome_unknown.exit, lost.stderr);
    const hint = lost.errorJson().error.hint ?? "";
    assert.match(hint, /check whether it happened first: larkit api GET /);
    const read = await larkit(argvOfHint(hint));
    assert.equal(read.code, 0, read.stderr);
    assert.ok(read.stdout.includes(summary), "the read shows the write happened");

    const reply = await larkit(["mail", "+reply", "--message-id", "mail_sandbox_0001", "--body", "ok"], {
      asUser: true,
    });
    assert.equal(reply.code, 0, reply.stderr);
    const next = reply.json<{ meta: { next: string } }>().meta.next;
    const sent = await larkit(argvOfHint(next), { asUser: true });
    assert.equal(sent.code, 0, `${next}: ${sent.stderr}`);

    const params = { container_id_type: "chat", container_id: fixtures.CHATS.engineering, page_size: 1 };
    const paged = await larkit([
      "im",
      "messages",
      "list",
      "--params",
      JSON.stringify(params),
      "--page-all",
      "--page-limit",
      "1",
    ]);
    assert.equal(paged.code, 0, paged.stderr);
    const token = paged.json<{ meta: { page_token: string } }>().meta.page_token;
    assert.ok(
      paged.stderr.includes(`--params '${JSON.stringify({ ...params, page_token: token })}'`),
      paged.stderr,
    );

    const defaulted = await larkit(["mail", "+messages"], { env: { LARKIT_DEFAULT_AS: "bot" } });
    assert.equal(defaulted.code, EXIT_CODES.validation.exit, defaulted.stderr);
    assert.match(defaulted.errorJson().error.message, /LARKIT_DEFAULT_AS/);
  });
});

Deno.test("a keyless PUT whose answer was lost is resent (an idempotent method), as the README says", async () => {
  await withSuite(async (emu, larkit) => {
    const path = `/open-apis/im/v1/chats/${fixtures.CHATS.random}`;
    emu.faults.dropConnection({ path, times: 1, after: "after-handling" });
    const r = await larkit(["api", "PUT", path, "--data", '{"description":"set twice, same result"}']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(suiteCalls(emu).filter((c) => c.method === "PUT").length, 2);
    const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
    assert.match(readme.replaceAll("\n", " "), /the idempotent methods PUT and DELETE/);
  });
});
