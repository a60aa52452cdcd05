/**
 * The plans of the im, contact, application and note shortcuts against the registry: every request a dry run
 * shows names a registry method (the baseline or a supplementary entry), and its path, query and body pass
 * that method's request schema — the same check the emulator applies to real requests. So a shortcut cannot
 * plan a request the suite's published shape would refuse.
 */
import assert from "node:assert/strict";
import { loadShortcuts } from "../shortcuts/index.ts";
import { fixtures } from "./helpers/emulator.ts";
import { type Planned, planProblems } from "./helpers/plan_fit.ts";
import { withSuite } from "./helpers/suite_session.ts";

const { CHATS, USERS } = fixtures;
const MSG = "om_0123456789abcdef";

/** One command line per shortcut of these services, exercising its optional flags. */
const PLANS: Record<string, { argv: string[]; asUser?: boolean }> = {
  "im +messages-send": { argv: ["--chat-id", CHATS.engineering, "--markdown", "**hi**"] },
  "im +messages-reply": { argv: ["--message-id", MSG, "--text", "ok", "--reply-in-thread"] },
  "im +chat-messages-list": {
    argv: ["--chat-id", CHATS.engineering, "--start", "2026-11-01", "--order", "asc"],
  },
  "im +chat-search": { argv: ["--query", "eng", "--page-size", "50"] },
  "im +chat-create": {
    argv: [
      "--name",
      "n",
      "--users",
      USERS.bob.open_id,
      "--bots",
      "cli_1",
      "--chat-mode",
      "topic",
      "--set-bot-manager",
    ],
  },
  "im +chat-list": { argv: ["--sort", "active_time"] },
  "im +chat-members-list": { argv: ["--chat-id", CHATS.engineering, "--member-id-type", "user_id"] },
  "im +chat-update": { argv: ["--chat-id", CHATS.engineering, "--name", "n", "--description", "d"] },
  "im +threads-messages-list": { argv: ["--thread", MSG, "--order", "desc"] },
  "im +messages-mget": { argv: ["--message-ids", `${MSG},om_2`] },
  "im +messages-search": {
    argv: [
      "--query",
      "q",
      "--chat-id",
      CHATS.engineering,
      "--sender",
      USERS.bob.open_id,
      "--chat-type",
      "group",
    ],
  },
  "im +message-read-users": { argv: ["--message-id", MSG, "--user-id-type", "union_id"] },
  "im +messages-read-status": { argv: ["--message-ids", MSG], asUser: true },
  "im +messages-resources-download": {
    argv: ["--message-id", MSG, "--file-key", "img_1", "--type", "image"],
  },
  "im +flag-create": { argv: ["--message-id", MSG, "--flag-type", "feed"], asUser: true },
  "im +flag-cancel": { argv: ["--message-id", MSG], asUser: true },
  "im +flag-list": { argv: ["--page-size", "10"], asUser: true },
  "im +feed-shortcut-create": { argv: ["--chat-id", CHATS.engineering, "--head"], asUser: true },
  "im +feed-shortcut-remove": { argv: ["--chat-id", CHATS.engineering], asUser: true },
  "im +feed-shortcut-list": { argv: ["--page-token", "t"], asUser: true },
  "im +feed-group-list": { argv: ["--start-time", "1795392000000"], asUser: true },
  "im +feed-group-list-item": { argv: ["--feed-group-id", "fg_1"], asUser: true },
  "im +feed-group-query-item": {
    argv: ["--feed-group-id", "fg_1", "--feed-id", CHATS.engineering],
    asUser: true,
  },
  "contact +search-user": { argv: ["--query", "bob"], asUser: true },
  "contact +search-bot": {
    argv: ["--query", "b", "--chat-ids", CHATS.engineering, "--has-chatted"],
    asUser: true,
  },
  "contact +get-user": { argv: ["--user-id", USERS.bob.open_id] },
  "application +slash-command-list": { argv: [] },
  "application +slash-command-create": {
    argv: [
      "--command",
      "deploy",
      "--description",
      "d",
      "--description-i18n",
      "en_us=D",
      "--icon-key",
      "img_1",
    ],
  },
  "application +slash-command-update": { argv: ["--command", "deploy", "--description", "d"] },
  "application +slash-command-delete": { argv: ["--command-id", "7301"] },
  "note +detail": { argv: ["--note-id", "7301"] },
  "note +transcript": { argv: ["--note-id", "7301", "--locale", "en_us"], asUser: true },
};

const SERVICES = new Set(["im", "contact", "application", "note"]);

Deno.test("every plan of the im, contact, application and note shortcuts fits the registry's request schemas", async () => {
  const mine = (await Promise.all([...SERVICES].map(loadShortcuts))).flat().map((s) =>
    `${s.service} ${s.command}`
  );
  assert.deepEqual(Object.keys(PLANS).sort(), mine.sort());
  await withSuite(async (_emu, larkit) => {
    const problems: string[] = [];
    for (const [name, { argv, asUser }] of Object.entries(PLANS)) {
      const r = await larkit([...name.split(" "), ...argv, "--dry-run"], { asUser });
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      for (const req of r.json<{ data: { api: Planned[] } }>().data.api) {
        const p = await planProblems(req);
        if (p) problems.push(`${name}: ${p}`);
      }
    }
    assert.deepEqual(problems, []);
  });
});
