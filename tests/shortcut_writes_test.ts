/**
 * Checks over the whole shortcut list, so a new shortcut is covered the day it is added: every shortcut's
 * dry run is the one dry-run document and sends nothing, and every write with a de-duplication key survives a
 * lost answer — larkit says the outcome is unknown, names method, path and key, hints the shortcut's own
 * command with `--idempotency-key`, and running that hint leaves exactly one object in the suite.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DRY_RUN_KEYS } from "../cli/output/dry_run.ts";
import { EXIT_CODES } from "../cli/output/errors.ts";
import { loadAllShortcuts } from "../shortcuts/index.ts";
import {
  type Emulator,
  emulatorEnv,
  fixtures,
  manualClock,
  startEmulator,
  userToken,
} from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";
import { type Larkit, suiteCalls, withSuite } from "./helpers/suite_session.ts";

const SHORTCUTS = await loadAllShortcuts();

const { BASE, CALENDARS, CHATS, DOCS, DRIVE, SHEETS, USERS } = fixtures;

interface Sample {
  /** The command line, given the emulator (for ids it seeded) and a text unique to this run. */
  argv: (emu: Emulator, text: string) => string[];
  asUser?: boolean;
  /** For keyed writes: how many objects carrying `text` the suite holds. */
  count?: (emu: Emulator, text: string) => number;
}

const countOf = (emu: Emulator, sql: string, text: string) =>
  (emu.db.prepare(sql).get(`%${text}%`) as { n: number }).n;
const TABLE = ["--base-token", BASE.app, "--table-id", BASE.table];
const SHEET = ["--spreadsheet-token", SHEETS.budget];
/** One slide of a presentation and the XML that replaces or updates it. */
const SLIDE_CONTENT = [
  "--presentation",
  "sldcn1",
  "--slide-id",
  "s1",
  "--content",
  "<slide><shape>x</shape></slide>",
];

/** A whiteboard's new content, `text` read as Mermaid. */
const mermaidSource = (
  text: string,
) => ["--whiteboard-token", "wbcn1", "--source", text, "--input-format", "mermaid"];

/** One runnable command line per shortcut, keyed `service +command`. */
const SAMPLES: Record<string, Sample> = {
  "calendar +agenda": { argv: () => ["calendar", "+agenda"] },
  "calendar +create": {
    argv: (_, text) => [
      "calendar",
      "+create",
      "--calendar-id",
      CALENDARS.bot,
      "--summary",
      text,
      "--start",
      "2026-11-24T10:00",
      "--end",
      "2026-11-24T11:00",
    ],
    count: (emu, text) => countOf(emu, "SELECT count(*) AS n FROM events WHERE summary LIKE ?", text),
  },
  "calendar +freebusy": { argv: () => ["calendar", "+freebusy", "--user-id", USERS.alice.open_id] },
  "calendar +rsvp": { argv: () => ["calendar", "+rsvp", "--event-id", "evt_1", "--rsvp-status", "accept"] },
  "im +messages-send": {
    argv: (_, text) => ["im", "+messages-send", "--chat-id", CHATS.engineering, "--text", text],
    count: (emu, text) => countOf(emu, "SELECT count(*) AS n FROM messages WHERE content LIKE ?", text),
  },
  "im +chat-messages-list": { argv: () => ["im", "+chat-messages-list", "--chat-id", CHATS.engineering] },
  "im +messages-reply": {
    argv: (emu, text) => {
      const { message_id } = emu.db.prepare("SELECT message_id FROM messages WHERE chat_id = ? LIMIT 1")
        .get(CHATS.engineering) as { message_id: string };
      return ["im", "+messages-reply", "--message-id", message_id, "--text", text];
    },
    count: (emu, text) =>
      countOf(emu, "SELECT count(*) AS n FROM messages WHERE content LIKE ? AND parent_id IS NOT NULL", text),
  },
  "im +chat-search": { argv: () => ["im", "+chat-search", "--query", "eng"] },
  "im +chat-create": {
    argv: (_, text) => ["im", "+chat-create", "--name", text, "--users", USERS.bob.open_id],
    count: (emu, text) => countOf(emu, "SELECT count(*) AS n FROM chats WHERE name LIKE ?", text),
  },
  "im +chat-list": { argv: () => ["im", "+chat-list"] },
  "im +chat-members-list": { argv: () => ["im", "+chat-members-list", "--chat-id", CHATS.engineering] },
  "im +chat-update": {
    argv: (_, text) => ["im", "+chat-update", "--chat-id", CHATS.random, "--description", text],
  },
  "im +threads-messages-list": { argv: () => ["im", "+threads-messages-list", "--thread", "om_1"] },
  "im +messages-mget": { argv: () => ["im", "+messages-mget", "--message-ids", "om_1,om_2"] },
  "im +messages-search": { argv: () => ["im", "+messages-search", "--query", "green"] },
  "im +message-read-users": { argv: () => ["im", "+message-read-users", "--message-id", "om_1"] },
  "im +messages-read-status": {
    argv: () => ["im", "+messages-read-status", "--message-ids", "om_1"],
    asUser: true,
  },
  "im +messages-resources-download": {
    argv: () => [
      "im",
      "+messages-resources-download",
      "--message-id",
      "om_1",
      "--file-key",
      "file_1",
      "--type",
      "file",
    ],
  },
  "im +flag-create": { argv: () => ["im", "+flag-create", "--message-id", "om_1"], asUser: true },
  "im +flag-cancel": { argv: () => ["im", "+flag-cancel", "--message-id", "om_1"], asUser: true },
  "im +flag-list": { argv: () => ["im", "+flag-list"], asUser: true },
  "im +feed-shortcut-create": {
    argv: () => ["im", "+feed-shortcut-create", "--chat-id", CHATS.engineering],
    asUser: true,
  },
  "im +feed-shortcut-remove": {
    argv: () => ["im", "+feed-shortcut-remove", "--chat-id", CHATS.engineering],
    asUser: true,
  },
  "im +feed-shortcut-list": { argv: () => ["im", "+feed-shortcut-list"], asUser: true },
  "im +feed-group-list": { argv: () => ["im", "+feed-group-list"], asUser: true },
  "im +feed-group-list-item": {
    argv: () => ["im", "+feed-group-list-item", "--feed-group-id", "fg_1"],
    asUser: true,
  },
  "im +feed-group-query-item": {
    argv: () => ["im", "+feed-group-query-item", "--feed-group-id", "fg_1", "--feed-id", CHATS.engineering],
    asUser: true,
  },
  "docs +create": { argv: (_, text) => ["docs", "+create", "--title", text, "--markdown", "# hello"] },
  "docs +fetch": { argv: () => ["docs", "+fetch", "--doc", DOCS.handbook] },
  "docs +update": {
    argv: (_, text) => ["docs", "+update", "--doc", DOCS.handbook, "--mode", "append", "--markdown", text],
  },
  "drive +upload": { argv: () => ["drive", "+upload", "--file", "a.txt"] },
  "drive +download": { argv: () => ["drive", "+download", "--file-token", DRIVE.readme] },
  "drive +import": { argv: () => ["drive", "+import", "--file", "a.txt", "--type", "docx"] },
  "docs +media-upload": {
    argv: () => [
      "docs",
      "+media-upload",
      "--file",
      "a.txt",
      "--parent-type",
      "docx_file",
      "--parent-node",
      "doxcn1",
    ],
  },
  "markdown +create": { argv: () => ["markdown", "+create", "--file", "a.txt", "--name", "a.md"] },
  "markdown +overwrite": {
    argv: () => ["markdown", "+overwrite", "--file-token", "boxcn1", "--file", "a.txt"],
  },
  "docs +resource-update": { argv: () => ["docs", "+resource-update", "--doc", "doxcn1", "--file", "a.txt"] },
  "markdown +diff": { argv: () => ["markdown", "+diff", "--file-token", "boxcn1", "--file", "a.txt"] },
  "slides +add-slide": {
    argv: () => [
      "slides",
      "+add-slide",
      "--presentation",
      "sldcn1",
      "--slide",
      "<slide><shape>x</shape></slide>",
    ],
  },
  "slides +replace-slide": {
    argv: () => ["slides", "+replace-slide", ...SLIDE_CONTENT],
  },
  "slides +update-slide": {
    argv: () => ["slides", "+update-slide", ...SLIDE_CONTENT],
  },
  "slides +media-upload": {
    argv: () => ["slides", "+media-upload", "--file", "a.txt", "--presentation", "sldcn1"],
  },
  "whiteboard +update": {
    argv: (_, text) => ["whiteboard", "+update", ...mermaidSource(text)],
  },
  "docs +whiteboard-update": {
    argv: (_, text) => ["docs", "+whiteboard-update", ...mermaidSource(text)],
  },
  "sheets +read": { argv: () => ["sheets", "+read", ...SHEET] },
  "sheets +write": {
    argv: (
      _,
      text,
    ) => [
      "sheets",
      "+write",
      ...SHEET,
      "--range",
      `${SHEETS.budgetSheet}!A1`,
      "--values",
      JSON.stringify([[text]]),
    ],
  },
  "sheets +append": {
    argv: (_, text) => ["sheets", "+append", ...SHEET, "--values", JSON.stringify([[text]])],
  },
  "base +records-list": { argv: () => ["base", "+records-list", ...TABLE] },
  "base +record-upsert": {
    argv: (_, text) => ["base", "+record-upsert", ...TABLE, "--json", JSON.stringify({ Title: text })],
    count: (emu, text) => countOf(emu, "SELECT count(*) AS n FROM records WHERE fields LIKE ?", text),
  },
  "base +record-upload-attachment": {
    argv: () => [
      "base",
      "+record-upload-attachment",
      ...TABLE,
      "--record-id",
      "rec1",
      "--field-id",
      "fldF",
      "--file",
      "a.txt",
    ],
  },
  "task +create": {
    argv: (_, text) => ["task", "+create", "--summary", text],
    count: (emu, text) => countOf(emu, "SELECT count(*) AS n FROM tasks WHERE summary LIKE ?", text),
  },
  "task +my-tasks": { argv: () => ["task", "+my-tasks"], asUser: true },
  "task +complete": { argv: () => ["task", "+complete", "--task-id", "t-1"] },
  "contact +search-user": { argv: () => ["contact", "+search-user", "--query", "bob"], asUser: true },
  "contact +search-bot": { argv: () => ["contact", "+search-bot", "--query", "deploy"], asUser: true },
  "contact +get-user": { argv: () => ["contact", "+get-user"], asUser: true },
  "application +slash-command-list": { argv: () => ["application", "+slash-command-list"] },
  "application +slash-command-create": {
    argv: () => ["application", "+slash-command-create", "--command", "deploy", "--description", "Deploy"],
  },
  "application +slash-command-update": {
    argv: () => ["application", "+slash-command-update", "--command", "deploy", "--description", "Deploy"],
  },
  "application +slash-command-delete": {
    argv: () => ["application", "+slash-command-delete", "--command-id", "7301"],
  },
  "note +detail": { argv: () => ["note", "+detail", "--note-id", "n1"] },
  "note +transcript": { argv: () => ["note", "+transcript", "--note-id", "n1"], asUser: true },
  "mail +send": {
    argv: (_, text) => ["mail", "+send", "--to", "bob@example.com", "--subject", text, "--body", "hi"],
    asUser: true,
  },
  "mail +messages": { argv: () => ["mail", "+messages"], asUser: true },
};

type Declared = (typeof SHORTCUTS)[number];
const nameOf = (s: Declared) => `${s.service} ${s.command}`;
/** Its name and any older names (`aliases`, where a shortcut declares them). */
const namesOf = (s: Declared) =>
  [s.command, ...((s as { aliases?: string[] }).aliases ?? [])].map((c) => `${s.service} ${c}`);

/** The words of a shell command line as an example writes it (quotes, `\` line continuations). */
function shellWords(line: string): string[] {
  const text = line.replace(/\\\n\s*/g, " ");
  return [...text.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) =>
    m[1] ?? m[2]?.replace(/\\(.)/g, "$1") ?? m[3]
  );
}

/**
 * The sample of a shortcut (by its name or an alias), else its first example that reads no file or stdin:
 * a new shortcut's dry run is checked the day it is added, through its own `--help` examples.
 */
function sampleOf(s: Declared): Sample | undefined {
  const named = namesOf(s).map((n) => SAMPLES[n]).find((x) => x !== undefined);
  if (named) return named;
  const runnable = s.examples.map(shellWords).find((w) =>
    w[0] === "larkit" && !w.some((x) => x === "|" || x === "-" || x.startsWith("@") || x.startsWith("./"))
  );
  if (!runnable) return undefined;
  const asUser = !s.authTypes.includes("bot");
  return { argv: () => runnable.slice(1), asUser };
}

Deno.test("every shortcut has a runnable sample; every keyed write has one with a count", () => {
  const known = new Set(SHORTCUTS.flatMap(namesOf));
  assert.deepEqual(
    Object.keys(SAMPLES).filter((n) => !known.has(n)),
    [],
    "samples of shortcuts that do not exist",
  );
  for (const s of SHORTCUTS) {
    assert.ok(sampleOf(s), `${nameOf(s)}: add a sample to SAMPLES (its examples all read a file or stdin)`);
    const named = namesOf(s).map((n) => SAMPLES[n]).find((x) => x !== undefined);
    if (s.idempotencyKey) {
      assert.ok(named?.count, `${nameOf(s)}: a keyed write needs a SAMPLES entry with a count`);
    }
  }
});

const API_KEYS = new Set(["method", "url", "params", "body", "description"]);

Deno.test("every shortcut's dry run is the one dry-run document, and nothing reaches the suite", async () => {
  const cwd = await Deno.makeTempDir();
  await Deno.writeTextFile(join(cwd, "a.txt"), "a");
  await withSuite(async (emu, larkit) => {
    for (const s of SHORTCUTS) {
      const sample = sampleOf(s);
      if (!sample) continue; // reported by the test above
      emu.clearRequests();
      const r = await larkit([...sample.argv(emu, "dry"), "--dry-run"], { asUser: sample.asUser, cwd });
      assert.equal(r.code, 0, `${nameOf(s)}: ${r.stderr}`);
      const doc = r.json<{ identity: string; data: Record<string, unknown>; meta: unknown }>();
      assert.deepEqual(doc.meta, { dry_run: true }, nameOf(s));
      const { data } = doc;
      assert.ok(s.authTypes.includes(data.as as "user" | "bot"), `${nameOf(s)}: as ${data.as}`);
      assert.equal(typeof data.appId, "string", nameOf(s));
      assert.equal("idempotency_key" in data, !!s.idempotencyKey, `${nameOf(s)}: key shown iff keyed`);
      assert.ok(Array.isArray(data.api), nameOf(s));
      for (const req of data.api as Record<string, unknown>[]) {
        assert.deepEqual(Object.keys(req).filter((k) => !API_KEYS.has(k)), [], nameOf(s));
        assert.match(String(req.url), /^http:\/\/127\.0\.0\.1:\d+\/[^?#]*$/, nameOf(s));
      }
      for (const k of DRY_RUN_KEYS) assert.ok(!(k in data) || data[k] !== undefined, nameOf(s));
      assert.deepEqual(suiteCalls(emu), [], `${nameOf(s)} sent a request in a dry run`);
    }
  });
});

/** `withSuite`, with larkit's retry waits skipped (this file retries a lot, the waits are not the point). */
async function withImpatientSuite(fn: (emu: Emulator, larkit: Larkit) => Promise<void>): Promise<void> {
  const emu = await startEmulator({ clock: manualClock(), timeZone: "UTC" });
  try {
    const uat = (await userToken(emu)).access_token;
    emu.clearRequests();
    await fn(emu, (args, opts = {}) =>
      runCli(args, {
        env: {
          ...emulatorEnv(emu),
          TZ: "UTC",
          ...(opts.asUser ? { LARKIT_USER_ACCESS_TOKEN: uat } : { LARKIT_DEFAULT_AS: "bot" }),
        },
        sleep: () => Promise.resolve(),
      }));
  } finally {
    await emu.stop();
  }
}

/** `larkit …` as hinted, split back into argv (the hint quotes with single quotes only). */
function argvOfHint(hint: string): string[] {
  const command = hint.slice(hint.indexOf("larkit ") + "larkit ".length);
  return [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) =>
    m[1]?.replaceAll("'\\''", "'") ?? m[2]
  );
}

Deno.test("every keyed shortcut write: a lost answer is outcome_unknown, and its hint leaves exactly one object", async () => {
  await withImpatientSuite(async (emu, larkit) => {
    for (const s of SHORTCUTS.filter((x) => x.idempotencyKey)) {
      const sample = sampleOf(s) as Sample;
      const text = `once ${crypto.randomUUID()}`;
      const argv = sample.argv(emu, text);
      const dry = await larkit([...argv, "--dry-run"], { asUser: sample.asUser });
      const plan = dry.json<
        { data: { api: { url: string; params?: object; body?: object }[]; idempotency_key: string } }
      >();
      const keyed = plan.data.api.find((a) =>
        JSON.stringify([a.params, a.body]).includes(plan.data.idempotency_key)
      );
      assert.ok(keyed, `${nameOf(s)}: the keyed request`);
      const path = new URL(keyed.url).pathname;
      // More drops than larkit's own retries: every attempt is handled (or found by its key), none answers.
      emu.faults.dropConnection({ path, times: 10, after: "after-handling" });
      const lost = await larkit(argv, { asUser: sample.asUser });
      emu.faults.clear();
      assert.equal(lost.code, EXIT_CODES.outcome_unknown.exit, `${nameOf(s)}: ${lost.stderr}`);
      assert.equal(lost.stdout, "");
      const err = lost.errorJson().error;
      const detail = err.detail as { method: string; path: string; idempotency_key: string };
      assert.equal(detail.method, "POST", nameOf(s));
      assert.equal(detail.path, path, nameOf(s));
      assert.match(
        err.hint ?? "",
        new RegExp(`larkit ${s.service} \\${s.command} .*--idempotency-key ${detail.idempotency_key}$`),
      );
      assert.equal(sample.count?.(emu, text), 1, `${nameOf(s)}: stored once although sent several times`);

      const rerun = await larkit(argvOfHint(err.hint ?? ""), { asUser: sample.asUser });
      assert.equal(rerun.code, 0, `${nameOf(s)}: ${rerun.stderr}`);
      assert.equal(
        rerun.json<{ meta: { idempotency_key: string } }>().meta.idempotency_key,
        detail.idempotency_key,
      );
      assert.equal(sample.count?.(emu, text), 1, `${nameOf(s)}: the hinted re-run leaves exactly one`);
    }
  });
});

Deno.test("im +messages-send under injected 5xx is retried with the same uuid and succeeds", async () => {
  await withImpatientSuite(async (emu, larkit) => {
    const text = `retried ${crypto.randomUUID()}`;
    emu.faults.serverError({
      path: "/open-apis/im/v1/messages",
      times: 2,
      status: 503,
      retryAfterSeconds: 0,
    });
    const r = await larkit(["im", "+messages-send", "--chat-id", CHATS.engineering, "--text", text]);
    assert.equal(r.code, 0, r.stderr);
    const sends = suiteCalls(emu).filter((c) =>
      c.method === "POST" && c.path === "/open-apis/im/v1/messages"
    );
    assert.equal(sends.length, 3);
    const uuids = new Set(sends.map((c) => (c.body as { uuid: string }).uuid));
    assert.deepEqual([...uuids], [r.json<{ meta: { idempotency_key: string } }>().meta.idempotency_key]);
    assert.equal(countOf(emu, "SELECT count(*) AS n FROM messages WHERE content LIKE ?", text), 1);
  });
});
