/**
 * Mail shortcuts end to end: sending plain text and HTML with attachments from Alice's mailbox, and reading
 * folders back with bodies decoded, against the emulator (which delivers to tenant mailboxes).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fixtures } from "./helpers/emulator.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";
import { messageOf } from "./helpers/mail_raw.ts";

interface Mail {
  message_id: string;
  subject: string;
  from: { mail_address: string };
  to: { mail_address: string }[];
  date: string;
  body_plain_text: string;
  body_html: string;
  attachments: { filename: string; size: number }[];
}

Deno.test("mail +messages: the inbox newest first, bodies decoded; --message-ids reads given messages", async () => {
  await withSuite(async (_emu, larkit) => {
    const r = await larkit(["mail", "+messages"], { asUser: true });
    assert.equal(r.code, 0, r.stderr);
    const doc = r.json<{ data: Mail[]; meta: unknown }>();
    assert.equal(doc.data[0].message_id, "mail_sandbox_0001");
    assert.equal(doc.data[0].from.mail_address, fixtures.USERS.bob.email);
    assert.equal(doc.data[0].body_plain_text, "Hi Alice, the sandbox mailbox works.");
    assert.equal(doc.data[0].body_html, "<p>Hi Alice, the sandbox mailbox works.</p>");
    assert.deepEqual(doc.meta, { count: doc.data.length, has_more: false });
    const one = await larkit(["mail", "+messages", "--message-ids", "mail_sandbox_0001"], { asUser: true });
    assert.deepEqual(one.json<{ data: Mail[]; meta: unknown }>().meta, { count: 1 });
  });
});

Deno.test("mail +send --confirm-send: plain text to one, HTML with attachments to two; both land in SENT", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeTextFile(join(cwd, "report.csv"), "a,b\n1,2\n");
    await Deno.writeTextFile(join(cwd, "body.html"), "<p>See the <b>report</b>.</p>");
    const plain = await larkit(
      [
        "mail",
        "+send",
        "--to",
        fixtures.USERS.bob.email,
        "--subject",
        "Lunch?",
        "--body",
        "At noon <maybe>",
        "--confirm-send",
      ],
      { asUser: true },
    );
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.json<{ data: { format: string } }>().data.format, "plain_text");

    const html = await larkit([
      "mail",
      "+send",
      "--to",
      `${fixtures.USERS.bob.email}, ${fixtures.USERS.carol.email}`,
      "--subject",
      "Report",
      "--body",
      "@body.html",
      "--attach",
      "report.csv",
      "--confirm-send",
    ], { asUser: true, cwd });
    assert.equal(html.code, 0, html.stderr);
    const done = html.json<{ data: { draft_id: string; message_id: string } }>().data;
    assert.deepEqual(done, {
      draft_id: done.draft_id,
      message_id: done.message_id,
      sent: true,
      subject: "Report",
      to: [fixtures.USERS.bob.email, fixtures.USERS.carol.email],
      format: "html",
      attachments: ["report.csv"],
    });
    const sent = await Promise.all(
      suiteCalls(emu).filter((c) => c.path.endsWith("/drafts")).map((c) => messageOf(c.body)),
    );
    assert.equal(sent[0].text, "At noon <maybe>");
    assert.deepEqual(
      sent[1].attachments.map((
        a,
      ) => [a.filename, a.mimeType, new TextDecoder().decode(a.content as ArrayBuffer)]),
      [["report.csv", "text/csv", "a,b\n1,2\n"]],
    );

    const box = await larkit(["mail", "+messages", "--folder-id", "SENT"], { asUser: true });
    const mails = box.json<{ data: Mail[] }>().data;
    assert.deepEqual(mails.map((m) => m.subject).sort(), ["Lunch?", "Report"]);
    const report = mails.find((m) => m.subject === "Report");
    assert.equal(report?.body_html, "<p>See the <b>report</b>.</p>");
    assert.deepEqual(report?.attachments.map((a) => [a.filename, a.size]), [["report.csv", 8]]);
  });
});

Deno.test("mail dry-runs show the send (attachments not read into the plan) and the list, sending nothing", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeTextFile(join(cwd, "a.txt"), "x");
    const send = await larkit(
      [
        "mail",
        "+send",
        "--to",
        "x@example.com",
        "--subject",
        "S",
        "--body",
        "<p>B</p>",
        "--attach",
        "a.txt",
        "--dry-run",
      ],
      { asUser: true, cwd },
    );
    assert.equal(send.code, 0, send.stderr);
    const [profile, body] = send.json<{ data: { api: { url: string; body: { raw: string } }[] } }>().data.api;
    assert.equal(profile.url, `${emu.url}/open-apis/mail/v1/user_mailboxes/me/profile`);
    assert.equal(body.url, `${emu.url}/open-apis/mail/v1/user_mailboxes/me/drafts`);
    assert.deepEqual(Object.keys(body.body), ["raw"]);
    const planned = await messageOf(body.body);
    assert.deepEqual([planned.subject, planned.to?.map((a) => a.address), planned.html], [
      "S",
      ["x@example.com"],
      "<p>B</p>",
    ]);
    assert.deepEqual(planned.attachments.map((a) => a.filename), ["a.txt"]);
    const list = await larkit(["mail", "+messages", "--dry-run"], { asUser: true });
    assert.equal(list.json<{ data: { api: unknown[] } }>().data.api.length, 2);
    assert.deepEqual(emu.requests(), []);
  });
});

Deno.test("mail bad input: no recipient, a bad address, an attachment outside the directory, a bot", async () => {
  await withSuite(async (emu, larkit) => {
    const none = await larkit(["mail", "+send", "--subject", "S", "--body", "B"], { asUser: true });
    assert.equal(none.code, 2);
    assert.match(none.errorJson().error.message, /at least one recipient/);
    const bad = await larkit(["mail", "+send", "--to", "bob", "--subject", "S", "--body", "B"], {
      asUser: true,
    });
    assert.equal(bad.errorJson().error.message, 'not an email address: "bob"');
    const outside = await larkit(
      ["mail", "+send", "--to", "x@example.com", "--subject", "S", "--body", "B", "--attach", "../etc.txt"],
      { asUser: true },
    );
    assert.equal(outside.code, 2);
    assert.match(outside.errorJson().error.message, /^--attach:/);
    const bot = await larkit(["mail", "+messages", "--as", "bot"]);
    assert.equal(bot.code, 2);
    assert.deepEqual(suiteCalls(emu), []);
    const missing = await larkit(["mail", "+messages", "--message-ids", "mail_nope"], { asUser: true });
    assert.deepEqual([missing.errorJson().error.type, missing.errorJson().error.subtype], [
      "api",
      "not_found",
    ]);
  });
});
