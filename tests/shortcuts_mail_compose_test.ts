/**
 * Mail beyond +send/+messages, end to end against the emulator: the drafts-first safety rule (nothing is sent
 * without --confirm-send; --send-time needs it; --yes is refused), a draft's life (create → edit →
 * send), reply / reply-all / forward on the seeded message, triage and moving messages, then per shortcut a
 * dry run that sends nothing and fits the registry's request schemas, and one bad input.
 */
import assert from "node:assert/strict";
import { fixtures } from "./helpers/emulator.ts";
import { dryRunProblems, type Planned } from "./helpers/plan_fit.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";
import type { Emulator } from "./helpers/emulator.ts";
import { messageOf } from "./helpers/mail_raw.ts";

const { USERS } = fixtures;
const SEEDED = "mail_sandbox_0001";
const U = { asUser: true };

function folderOf(emu: Emulator, mailbox: string, subject: string): string[] {
  return (emu.db.prepare("SELECT folder FROM mails WHERE mailbox = ? AND subject = ? ORDER BY folder").all(
    mailbox,
    subject,
  ) as { folder: string }[]).map((r) => r.folder);
}

Deno.test("mail +send saves a draft unless --confirm-send; --send-time needs it; --yes is no way to send", async () => {
  await withSuite(async (emu, larkit) => {
    const argv = ["mail", "+send", "--to", USERS.bob.email, "--subject", "Not yet", "--body", "hold"];
    const saved = await larkit(argv, U);
    assert.equal(saved.code, 0, saved.stderr);
    const doc = saved.json<{ data: { sent: boolean; draft_id: string }; meta: { next: string } }>();
    assert.equal(doc.data.sent, false);
    assert.match(doc.meta.next, new RegExp(`mail \\+draft-send --draft-id ${doc.data.draft_id}`));
    assert.deepEqual(folderOf(emu, USERS.alice.email, "Not yet"), ["DRAFT"]);
    assert.deepEqual(folderOf(emu, USERS.bob.email, "Not yet"), []);
    assert.ok(!suiteCalls(emu).some((c) => c.path.endsWith("/send")));

    const yes = await larkit([...argv, "--yes"], U);
    assert.equal(yes.code, 2, "a write's --yes does not exist, so it cannot stand in for --confirm-send");

    emu.clearRequests();
    const early = await larkit([...argv, "--send-time", "2026-11-24T09:00"], U);
    assert.equal(early.code, 2);
    assert.match(early.errorJson().error.message, /--send-time needs --confirm-send/);
    assert.deepEqual(suiteCalls(emu), []);

    const later = await larkit([
      "mail",
      "+send",
      "--to",
      USERS.bob.email,
      "--subject",
      "Later",
      "--body",
      "b",
      "--confirm-send",
      "--send-time",
      "2026-11-24T09:00",
    ], U);
    assert.equal(later.code, 0, later.stderr);
    assert.deepEqual(folderOf(emu, USERS.alice.email, "Later"), ["SCHEDULED"]);
    assert.deepEqual(folderOf(emu, USERS.bob.email, "Later"), []);
  });
});

Deno.test("mail drafts: +draft-create, +draft-edit (and --inspect), +draft-send delivers; it asks first", async () => {
  await withSuite(async (emu, larkit) => {
    const made = await larkit(["mail", "+draft-create", "--subject", "Plan", "--body", "<p>v1</p>"], U);
    assert.equal(made.code, 0, made.stderr);
    const id = made.json<{ data: { draft_id: string } }>().data.draft_id;
    const edit = await larkit(
      ["mail", "+draft-edit", "--draft-id", id, "--set-subject", "Plan v2", "--set-to", USERS.bob.email],
      U,
    );
    assert.equal(edit.code, 0, edit.stderr);
    const seen = await larkit(["mail", "+draft-edit", "--draft-id", id, "--inspect"], U);
    const d = seen.json<{ data: { subject: string; to: { mail_address: string }[]; body: string } }>().data;
    assert.deepEqual([d.subject, d.to.map((a) => a.mail_address), d.body], [
      "Plan v2",
      [USERS.bob.email],
      "<p>v1</p>",
    ]);

    const asked = await larkit(["mail", "+draft-send", "--draft-id", id], U);
    assert.notEqual(asked.code, 0, "a high-risk send without --yes is not run");
    assert.deepEqual(folderOf(emu, USERS.bob.email, "Plan v2"), []);
    const sent = await larkit(["mail", "+draft-send", "--draft-id", id, "--yes"], U);
    assert.equal(sent.code, 0, sent.stderr);
    assert.deepEqual(folderOf(emu, USERS.alice.email, "Plan v2"), ["SENT"]);
    assert.deepEqual(folderOf(emu, USERS.bob.email, "Plan v2"), ["INBOX"]);
  });
});

Deno.test("mail +reply, +reply-all and +forward build on the original; only --confirm-send delivers", async () => {
  await withSuite(async (emu, larkit) => {
    const r = await larkit(["mail", "+reply", "--message-id", SEEDED, "--body", "Thanks!"], U);
    assert.equal(r.code, 0, r.stderr);
    const draft = await messageOf(suiteCalls(emu).find((c) => c.path.endsWith("/drafts"))?.body);
    assert.equal(draft.subject, "Re: Welcome to the sandbox");
    assert.deepEqual(draft.to?.map((a) => a.address), [USERS.bob.email]);
    assert.equal(draft.inReplyTo, `<${SEEDED}@mail.sandbox.example>`);
    assert.equal(draft.references, `<${SEEDED}@mail.sandbox.example>`);
    assert.match(
      String(draft.html),
      /^<p>Thanks!<\/p><p>On .*bob@sandbox\.example wrote:<\/p><blockquote><p>Hi Alice/,
    );

    emu.clearRequests();
    const all = await larkit([
      "mail",
      "+reply-all",
      "--message-id",
      SEEDED,
      "--body",
      "All",
      "--cc",
      USERS.carol.email,
      "--confirm-send",
    ], U);
    assert.equal(all.code, 0, all.stderr);
    const body = await messageOf(suiteCalls(emu).find((c) => c.path.endsWith("/drafts"))?.body);
    assert.deepEqual(
      body.to?.map((a) => a.address),
      [USERS.bob.email],
      "the mailbox's own address is left out",
    );
    assert.deepEqual(body.cc?.map((a) => a.address), [USERS.carol.email]);
    assert.deepEqual(folderOf(emu, USERS.bob.email, "Re: Welcome to the sandbox"), ["INBOX"]);

    const fwd = await larkit([
      "mail",
      "+forward",
      "--message-id",
      SEEDED,
      "--to",
      USERS.carol.email,
      "--body",
      "FYI",
      "--plain-text",
      "--confirm-send",
    ], U);
    assert.equal(fwd.code, 0, fwd.stderr);
    const got = emu.db.prepare("SELECT body_plain FROM mails WHERE mailbox = ? AND subject = ?").get(
      USERS.carol.email,
      "Fwd: Welcome to the sandbox",
    ) as { body_plain: string };
    assert.match(
      got.body_plain,
      /^FYI\n\n---------- Forwarded message ----------\nFrom: bob@sandbox\.example/,
    );
    assert.match(got.body_plain, /\n> Hi Alice, the sandbox mailbox works\.$/);
  });
});

Deno.test("mail +triage, +message, +message-modify and +message-trash move messages between folders", async () => {
  await withSuite(async (emu, larkit) => {
    const t = await larkit(["mail", "+triage"], U);
    assert.equal(t.code, 0, t.stderr);
    const rows = t.json<{ data: { message_id: string; from: string; subject: string }[] }>().data;
    assert.deepEqual(rows[0], {
      ...rows[0],
      message_id: SEEDED,
      from: USERS.bob.email,
      subject: "Welcome to the sandbox",
    });
    const one = await larkit(["mail", "+message", "--message-id", SEEDED], U);
    assert.equal(
      one.json<{ data: { body_plain_text: string } }>().data.body_plain_text,
      "Hi Alice, the sandbox mailbox works.",
    );

    const mv = await larkit(
      ["mail", "+message-modify", "--message-ids", SEEDED, "--add-folder", "ARCHIVE"],
      U,
    );
    assert.equal(mv.code, 0, mv.stderr);
    const archived = await larkit(["mail", "+triage", "--folder-id", "ARCHIVE"], U);
    assert.deepEqual(archived.json<{ data: { message_id: string }[] }>().data.map((m) => m.message_id), [
      SEEDED,
    ]);
    const trash = await larkit(["mail", "+message-trash", "--message-ids", SEEDED, "--yes"], U);
    assert.equal(trash.code, 0, trash.stderr);
    assert.deepEqual(folderOf(emu, USERS.alice.email, "Welcome to the sandbox"), ["TRASH"]);
    const missing = await larkit(["mail", "+message-trash", "--message-ids", "mail_nope", "--yes"], U);
    assert.equal(missing.errorJson().error.subtype, "not_found");
  });
});

const CONDITION = '{"match_type":1,"items":[{"type":1,"operator":1,"input":"boss@example.com"}]}';
const ACTION = '{"items":[{"type":2,"input":"IMPORTANT"}]}';

/** Per shortcut: a command line (run unless `dryOnly`), and a bad one refused with exit 2. */
/** The seeded message, as one whose sender asked for a read receipt. */
function asksForReceipt(emu: Emulator): void {
  emu.db.prepare(
    `UPDATE mails SET recipients = json_set(recipients, '$.labels', json('["READ_RECEIPT_REQUEST"]'))
     WHERE message_id = ?`,
  ).run(SEEDED);
}

/** A template Alice already has (the emulator answers not-found for any other id). */
function seedTemplate(emu: Emulator): void {
  emu.db.prepare("INSERT INTO generic_objects (collection, id, body, deleted, seq) VALUES (?, ?, ?, 0, 0)")
    .run(
      `/open-apis/mail/v1/user_mailboxes/${USERS.alice.email}/templates`,
      "tpl_1",
      JSON.stringify({
        template_id: "tpl_1",
        name: "Weekly",
        template_content: "<p>x</p>",
        tos: [],
        ccs: [],
        bccs: [],
      }),
    );
}

const CASES: Record<
  string,
  { argv: string[]; bad: string[]; says: RegExp; dryOnly?: boolean; setup?: (emu: Emulator) => void }
> = {
  "+send": {
    argv: ["--to", USERS.bob.email, "--subject", "s", "--body", "b"],
    bad: ["--to", "bob", "--subject", "s", "--body", "b"],
    says: /not an email address/,
  },
  "+messages": { argv: [], bad: ["--page-size", "50"], says: /page-size/ },
  "+message": { argv: ["--message-id", SEEDED], bad: ["--message-id", "a/b"], says: /not an ID/ },
  "+thread": { argv: ["--thread-id", "thr_1"], bad: ["--thread-id", "../t"], says: /not an ID/ },
  "+triage": {
    argv: ["--folder-id", "SENT"],
    bad: ["--page-all", "--page-token", "x"],
    says: /--page-all starts/,
  },
  "+draft-create": {
    argv: ["--subject", "s", "--body", "b"],
    bad: ["--subject", "s", "--body", "b", "--cc", "x"],
    says: /not an email address/,
  },
  "+draft-edit": {
    argv: ["--draft-id", "draft_1", "--set-subject", "s"],
    bad: ["--draft-id", "draft_1"],
    says: /nothing to change/,
    dryOnly: true,
  },
  "+draft-send": {
    argv: ["--draft-id", "draft_1"],
    bad: ["--draft-id", "draft_1", "--send-time", "2020-01-01"],
    says: /in the future/,
    dryOnly: true,
  },
  "+reply": {
    argv: ["--message-id", SEEDED, "--body", "ok"],
    bad: ["--message-id", SEEDED, "--body", "ok", "--send-time", "2026-12-01"],
    says: /needs --confirm-send/,
  },
  "+reply-all": {
    argv: ["--message-id", SEEDED, "--body", "ok", "--remove", USERS.bob.email],
    bad: ["--message-id", SEEDED, "--body", "ok", "--remove", "x"],
    says: /not an email address/,
  },
  "+forward": {
    argv: ["--message-id", SEEDED, "--to", USERS.carol.email],
    bad: ["--message-id", SEEDED],
    says: /at least one recipient/,
  },
  "+message-modify": {
    argv: ["--message-ids", SEEDED, "--add-label-ids", "IMPORTANT"],
    bad: ["--message-ids", SEEDED],
    says: /nothing to change/,
  },
  "+message-trash": { argv: ["--message-ids", SEEDED], bad: ["--message-ids", ","], says: /at least one ID/ },
  "+send-receipt": {
    setup: asksForReceipt,
    argv: ["--message-id", SEEDED],
    bad: ["--message-id", "x y"],
    says: /not an ID/,
  },
  "+decline-receipt": {
    setup: asksForReceipt,
    argv: ["--message-id", SEEDED],
    bad: ["--message-id", "x/y"],
    says: /not an ID/,
  },
  "+signature": { argv: ["--detail"], bad: ["--detail", "--format", "xml"], says: /format/ },
  "+share-to-chat": {
    argv: ["--message-id", SEEDED, "--receive-id", fixtures.CHATS.engineering],
    bad: ["--message-id", SEEDED, "--receive-id", "ou_1"],
    says: /must be a chat ID/,
  },
  "+template-create": {
    argv: ["--name", "Weekly", "--template-content", "<p>This week</p>", "--to", USERS.bob.email],
    bad: ["--name", "n", "--template-content", "c", "--to", "bob"],
    says: /not an email address/,
  },
  "+template-update": {
    setup: seedTemplate,
    argv: ["--template-id", "tpl_1", "--set-subject", "v2"],
    bad: ["--template-id", "tpl_1", "--inspect", "--set-name", "n"],
    says: /--inspect changes nothing/,
  },
  "+lint-html": {
    argv: ["--body", '<p onclick="x()">Hi</p>'],
    bad: ["--body", ""],
    says: /must not be empty/,
  },
  "+rule-list": { argv: [], bad: ["--mailbox", ""], says: /must not be empty/ },
  "+rule-create": {
    argv: ["--name", "Boss", "--condition", CONDITION, "--action", ACTION],
    bad: ["--name", "Boss", "--condition", "{}", "--action", ACTION],
    says: /--condition: /,
  },
  "+rule-update": {
    argv: ["--rule-id", "7301", "--name", "Boss", "--condition", CONDITION, "--action", ACTION, "--disable"],
    bad: ["--rule-id", "7301", "--name", "B"],
    says: /replaces the rule/,
  },
  "+rule-delete": { argv: ["--rule-id", "7301"], bad: ["--rule-id", "../1"], says: /not an ID/ },
  "+rule-reorder": { argv: ["--rule-ids", "7302,7301"], bad: ["--rule-ids", "7301,7301"], says: /twice/ },
};

const HIGH_RISK = new Set(["+draft-send", "+message-trash", "+send-receipt", "+rule-delete"]);

Deno.test("every mail shortcut has a case here", async () => {
  const { loadShortcuts } = await import("../shortcuts/index.ts");
  assert.deepEqual(Object.keys(CASES).sort(), (await loadShortcuts("mail")).map((s) => s.command).sort());
});

/** The mailbox's thread, template and rules the cases name (its messages are the emulator's fixtures). */
function seedMailbox(emu: Emulator): void {
  const box = "/open-apis/mail/v1/user_mailboxes/me";
  fixtures.seedPath(emu.db, `${box}/threads/thr_1`, { thread_id: "thr_1" });
  fixtures.seedPath(emu.db, `${box}/templates/tpl_1`, {
    template_id: "tpl_1",
    name: "Weekly",
    subject: "v1",
  });
  for (const id of ["7301", "7302"]) {
    fixtures.seedPath(emu.db, `${box}/rules/${id}`, { id, name: `Rule ${id}` });
  }
}

for (const [cmd, c] of Object.entries(CASES)) {
  Deno.test(`mail ${cmd}: runs, its dry run sends nothing and fits the registry, a bad input is refused`, async () => {
    await withSuite(async (emu, larkit) => {
      seedMailbox(emu);
      c.setup?.(emu);
      if (!c.dryOnly) {
        const r = await larkit(["mail", cmd, ...c.argv, ...(HIGH_RISK.has(cmd) ? ["--yes"] : [])], U);
        assert.equal(r.code, 0, r.stderr);
      }
      emu.clearRequests();
      const dry = await larkit(["mail", cmd, ...c.argv, "--dry-run"], U);
      assert.equal(dry.code, 0, dry.stderr);
      assert.deepEqual(emu.requests(), []);
      assert.deepEqual(await dryRunProblems(dry.json<{ data: { api?: Planned[] } }>().data.api ?? []), []);
      const bad = await larkit(["mail", cmd, ...c.bad], U);
      assert.equal(bad.code, 2, bad.stderr);
      assert.match(bad.errorJson().error.message, c.says);
      assert.deepEqual(suiteCalls(emu), []);
    });
  });
}
