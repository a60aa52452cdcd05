/**
 * Mail as the suite takes it: every composing shortcut posts `{"raw": <RFC 5322, base64url>}` to the drafts
 * endpoint and nothing else (the emulator refuses the old JSON fields, as the suite would), the message
 * round-trips -- UTF-8 subject and names, CC, an attachment and an inline image come back from the emulator's
 * reads as stored --, replies thread by In-Reply-To/References, +draft-edit patches the raw form, templates
 * carry tos/ccs/bccs and +decline-receipt sends what `modify` takes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Emulator, fixtures, userToken } from "./helpers/emulator.ts";
import { messageOf } from "./helpers/mail_raw.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

const { USERS } = fixtures;
const SEEDED = "mail_sandbox_0001";
const U = { asUser: true };
const SUBJECT = "Bericht f\u00fcr Q4 \u2014 \u62a5\u544a \u{1f680}";
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

async function call(emu: Emulator, method: string, path: string, body: unknown) {
  const token = (await userToken(emu)).access_token;
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const fields = (r: { body: { error?: { field_violations?: { field: string }[] } } }) =>
  (r.body.error?.field_violations ?? []).map((v) => v.field);

Deno.test("the emulator takes drafts as raw only: the old JSON body is refused, naming the fields", async () => {
  await withSuite(async (emu) => {
    const box = "/open-apis/mail/v1/user_mailboxes/me";
    const old = await call(emu, "POST", `${box}/drafts`, {
      subject: "s",
      to: [{ mail_address: USERS.bob.email }],
      body_plain_text: "b",
    });
    assert.equal(old.status, 400);
    assert.equal(old.body.code, 99992402);
    assert.ok(fields(old).includes("raw"), JSON.stringify(old.body));
    const decline = await call(emu, "PUT", `${box}/messages/${SEEDED}/modify`, { receipt_declined: true });
    assert.equal(decline.status, 400);
    assert.ok(fields(decline).includes("receipt_declined"), JSON.stringify(decline.body));
    const tpl = await call(emu, "POST", `${box}/templates`, {
      template: { name: "n", template_content: "c", to: [{ mail_address: USERS.bob.email }] },
    });
    assert.equal(tpl.status, 400);
    assert.ok(fields(tpl).includes("template.to"), JSON.stringify(tpl.body));
  });
});

Deno.test("mail +send round-trips: UTF-8 subject, CC, attachment and inline image read back as stored", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeTextFile(join(cwd, "notes.txt"), "z\u00fcrich\n");
    await Deno.writeFile(join(cwd, "logo.png"), PNG);
    const r = await larkit([
      "mail",
      "+send",
      "--to",
      USERS.bob.email,
      "--cc",
      USERS.carol.email,
      "--subject",
      SUBJECT,
      "--body",
      '<p>Gr\u00fc\u00dfe <img src="cid:logo"></p>',
      "--attach",
      "notes.txt",
      "--inline",
      '[{"cid":"logo","file_path":"logo.png"}]',
      "--confirm-send",
    ], { ...U, cwd });
    assert.equal(r.code, 0, r.stderr);

    // What larkit sent: one field, a MIME message with every part.
    const post = suiteCalls(emu).find((c) => c.method === "POST" && c.path.endsWith("/drafts"));
    assert.deepEqual(Object.keys(post?.body as object), ["raw"]);
    const sent = await messageOf(post?.body);
    assert.equal(sent.subject, SUBJECT);
    assert.deepEqual(sent.from, { address: USERS.alice.email, name: USERS.alice.name });
    assert.deepEqual(sent.cc?.map((a) => a.address), [USERS.carol.email]);
    assert.equal(sent.html, '<p>Gr\u00fc\u00dfe <img src="cid:logo"></p>');
    const parts = sent.attachments.map((a) => [a.filename, a.mimeType, a.disposition, a.contentId ?? null]);
    assert.deepEqual(parts, [
      ["logo.png", "image/png", "inline", "<logo>"],
      ["notes.txt", "text/plain", "attachment", null],
    ]);
    assert.deepEqual(new Uint8Array(sent.attachments[0].content as ArrayBuffer), PNG);

    // What the emulator stored and answers with: the sender's SENT copy and Bob's INBOX copy.
    const message_id = r.json<{ data: { message_id: string } }>().data.message_id;
    const read = await larkit(["mail", "+message", "--message-id", message_id], U);
    assert.equal(read.code, 0, read.stderr);
    const m = read.json<{ data: Record<string, unknown> }>().data;
    assert.equal(m.subject, SUBJECT);
    assert.equal(m.body_html, '<p>Gr\u00fc\u00dfe <img src="cid:logo"></p>');
    assert.deepEqual((m.cc as { mail_address: string }[]).map((a) => a.mail_address), [USERS.carol.email]);
    assert.deepEqual(
      (m.attachments as { filename: string; size: number; is_inline: boolean; cid?: string }[])
        .map((a) => [a.filename, a.size, a.is_inline, a.cid ?? null]),
      [["logo.png", PNG.length, true, "logo"], ["notes.txt", 8, false, null]],
    );
    const inbox = await larkit(["mail", "+messages"], {
      ...U,
      env: {
        LARKIT_USER_ACCESS_TOKEN: (await userToken(emu, { userOpenId: USERS.bob.open_id })).access_token,
      },
    });
    assert.equal(inbox.code, 0, inbox.stderr);
    assert.ok(
      inbox.json<{ data: { subject: string }[] }>().data.some((x) => x.subject === SUBJECT),
      "Bob received it",
    );
  });
});

Deno.test("replies thread by In-Reply-To and References; a reply to a reply extends the chain", async () => {
  await withSuite(async (emu, larkit) => {
    const first = await larkit(
      ["mail", "+reply", "--message-id", SEEDED, "--body", "one", "--confirm-send"],
      U,
    );
    assert.equal(first.code, 0, first.stderr);
    const one = await messageOf(suiteCalls(emu).find((c) => c.path.endsWith("/drafts"))?.body);
    const seededId = `<${SEEDED}@mail.sandbox.example>`;
    assert.deepEqual([one.inReplyTo, one.references], [seededId, seededId]);

    emu.clearRequests();
    const sentId = first.json<{ data: { message_id: string } }>().data.message_id;
    const second = await larkit(["mail", "+reply", "--message-id", sentId, "--body", "two"], U);
    assert.equal(second.code, 0, second.stderr);
    const two = await messageOf(suiteCalls(emu).find((c) => c.path.endsWith("/drafts"))?.body);
    assert.equal(two.inReplyTo, one.messageId);
    assert.equal(two.references, `${seededId} ${one.messageId}`);
    assert.equal(two.subject, "Re: Welcome to the sandbox");

    // The draft the emulator stored answers with the same threading headers.
    const draftId = second.json<{ data: { draft_id: string } }>().data.draft_id;
    const token = (await userToken(emu)).access_token;
    const res = await fetch(`${emu.url}/open-apis/mail/v1/user_mailboxes/me/drafts/${draftId}?format=raw`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const draft = (await res.json()).data.draft;
    assert.equal(draft.id, draftId);
    assert.equal(draft.message.in_reply_to, one.messageId);
    assert.equal((await messageOf(draft.message)).references, two.references);
  });
});

Deno.test("mail +draft-edit reads the raw draft, patches subject, recipients, body and attachments, PUTs raw", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeTextFile(join(cwd, "old.txt"), "old");
    await Deno.writeTextFile(join(cwd, "new.txt"), "new!");
    const made = await larkit(
      [
        "mail",
        "+draft-create",
        "--to",
        USERS.bob.email,
        "--subject",
        "Plan",
        "--body",
        "v1",
        "--attach",
        "old.txt",
      ],
      { ...U, cwd },
    );
    assert.equal(made.code, 0, made.stderr);
    const id = made.json<{ data: { draft_id: string } }>().data.draft_id;
    emu.clearRequests();
    const edit = await larkit([
      "mail",
      "+draft-edit",
      "--draft-id",
      id,
      "--set-subject",
      "Plan \u00e9t\u00e9",
      "--set-cc",
      USERS.carol.email,
      "--body",
      "<p>v2</p>",
      "--attach",
      "new.txt",
      "--remove-attachment",
      "old.txt",
    ], { ...U, cwd });
    assert.equal(edit.code, 0, edit.stderr);
    const calls = suiteCalls(emu);
    assert.deepEqual(calls.map((c) => [c.method, c.path.replace(id, "<id>"), c.query]), [
      ["GET", "/open-apis/mail/v1/user_mailboxes/me/drafts/<id>", { format: "raw" }],
      ["PUT", "/open-apis/mail/v1/user_mailboxes/me/drafts/<id>", {}],
    ]);
    assert.deepEqual(Object.keys(calls[1].body as object), ["raw"]);
    const put = await messageOf(calls[1].body);
    assert.deepEqual(
      [put.subject, put.to?.map((a) => a.address), put.cc?.map((a) => a.address), put.html, put.text],
      ["Plan \u00e9t\u00e9", [USERS.bob.email], [USERS.carol.email], "<p>v2</p>", undefined],
    );
    assert.deepEqual(put.attachments.map((a) => a.filename), ["new.txt"]);

    const seen = await larkit(["mail", "+draft-edit", "--draft-id", id, "--inspect"], U);
    assert.equal(seen.code, 0, seen.stderr);
    const d = seen.json<{ data: Record<string, unknown> }>().data;
    assert.deepEqual([d.subject, d.body, d.attachments], ["Plan \u00e9t\u00e9", "<p>v2</p>", ["new.txt"]]);

    const bad = await larkit(["mail", "+draft-edit", "--draft-id", id, "--remove-attachment", "nope.txt"], U);
    assert.equal(bad.code, 2);
    assert.match(bad.errorJson().error.message, /no attachment nope\.txt/);
  });
});

Deno.test("mail templates carry tos/ccs/bccs; +decline-receipt removes the label --request-receipt set", async () => {
  await withSuite(async (emu, larkit) => {
    const made = await larkit([
      "mail",
      "+template-create",
      "--name",
      "Weekly",
      "--template-content",
      "<p>This week</p>",
      "--to",
      USERS.bob.email,
      "--cc",
      USERS.carol.email,
    ], U);
    assert.equal(made.code, 0, made.stderr);
    const id = made.json<{ data: { template_id: string } }>().data.template_id;
    const upd = await larkit([
      "mail",
      "+template-update",
      "--template-id",
      id,
      "--set-bcc",
      USERS.carol.email,
    ], U);
    assert.equal(upd.code, 0, upd.stderr);
    const seen = await larkit(["mail", "+template-update", "--template-id", id, "--inspect"], U);
    const t = seen.json<{ data: Record<string, { mail_address: string }[]> }>().data;
    assert.deepEqual(
      [t.tos, t.ccs, t.bccs].map((l) => l.map((a) => a.mail_address)),
      [[USERS.bob.email], [USERS.carol.email], [USERS.carol.email]],
    );

    // Bob asks Alice for a read receipt; Alice declines it: the label goes, a second decline is refused.
    const bob = {
      LARKIT_USER_ACCESS_TOKEN: (await userToken(emu, { userOpenId: USERS.bob.open_id })).access_token,
    };
    const asked = await larkit(
      [
        "mail",
        "+send",
        "--to",
        USERS.alice.email,
        "--subject",
        "Read me",
        "--body",
        "b",
        "--request-receipt",
      ],
      { ...U, env: bob },
    );
    assert.equal(asked.code, 0, asked.stderr);
    const sent = await larkit([
      "mail",
      "+draft-send",
      "--draft-id",
      asked.json<{ data: { draft_id: string } }>().data.draft_id,
      "--yes",
    ], { ...U, env: bob });
    assert.equal(sent.code, 0, sent.stderr);
    const inbox = await larkit(["mail", "+triage"], U);
    const receiptMail = inbox.json<{ data: { message_id: string; subject: string }[] }>().data
      .find((m) => m.subject === "Read me")!.message_id;
    const labels = async () =>
      (await larkit(["mail", "+message", "--message-id", receiptMail], U))
        .json<{ data: { label_ids: string[] } }>().data.label_ids;
    assert.deepEqual(await labels(), ["READ_RECEIPT_REQUEST"]);
    emu.clearRequests();
    const dec = await larkit(["mail", "+decline-receipt", "--message-id", receiptMail], U);
    assert.equal(dec.code, 0, dec.stderr);
    const put = suiteCalls(emu).find((c) => c.method === "PUT");
    assert.deepEqual([put?.path, put?.body], [
      `/open-apis/mail/v1/user_mailboxes/me/messages/${receiptMail}/modify`,
      { remove_label_ids: ["READ_RECEIPT_REQUEST"] },
    ]);
    assert.deepEqual(await labels(), []);
    // Declining is idempotent: again, nothing to change and nothing sent.
    emu.clearRequests();
    const again = await larkit(["mail", "+decline-receipt", "--message-id", receiptMail], U);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(again.json<{ data: { changed: boolean } }>().data.changed, false);
    assert.ok(!suiteCalls(emu).some((c) => c.method === "PUT"));
    // And a receipt to a message that asks for none is refused before anything is built.
    const refused = await larkit(["mail", "+send-receipt", "--message-id", receiptMail, "--yes"], U);
    assert.equal(refused.code, 2);
    assert.match(refused.errorJson().error.message, /asks for no read receipt/);
  });
});

Deno.test("messages/send with raw stores the message's own decoded headers and parts", async () => {
  await withSuite(async (emu) => {
    const eml = [
      `From: =?UTF-8?B?${new TextEncoder().encode("\u00c4lice").toBase64()}?= <${USERS.alice.email}>`,
      `To: "Bob Li" <${USERS.bob.email}>`,
      `Subject: =?UTF-8?B?${new TextEncoder().encode(SUBJECT).toBase64()}?=`,
      "Message-ID: <m-1@sandbox.example>",
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: base64",
      "",
      new TextEncoder().encode("Gr\u00fc\u00dfe").toBase64(),
      "",
    ].join("\r\n");
    const raw = new TextEncoder().encode(eml).toBase64({ alphabet: "base64url", omitPadding: true });
    const sent = await call(emu, "POST", "/open-apis/mail/v1/user_mailboxes/me/messages/send", { raw });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const token = (await userToken(emu, { userOpenId: USERS.bob.open_id })).access_token;
    const id = `${sent.body.data.message_id}_0`;
    const res = await fetch(`${emu.url}/open-apis/mail/v1/user_mailboxes/me/messages/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const m = (await res.json()).data.message;
    assert.deepEqual(
      [
        m.subject,
        m.to,
        m.smtp_message_id,
        new TextDecoder().decode(Uint8Array.fromBase64(m.body_plain_text, { alphabet: "base64url" })),
      ],
      [
        SUBJECT,
        [{ mail_address: USERS.bob.email, name: "Bob Li" }],
        "<m-1@sandbox.example>",
        "Gr\u00fc\u00dfe",
      ],
    );
  });
});

Deno.test("mail +send-receipt answers a receipt request: threaded, marked as a receipt, the request label gone", async () => {
  await withSuite(async (emu, larkit) => {
    const bob = {
      LARKIT_USER_ACCESS_TOKEN: (await userToken(emu, { userOpenId: USERS.bob.open_id })).access_token,
    };
    const asked = await larkit([
      "mail",
      "+send",
      "--to",
      USERS.alice.email,
      "--subject",
      "Q4 plan",
      "--body",
      "b",
      "--request-receipt",
      "--confirm-send",
    ], { ...U, env: bob });
    assert.equal(asked.code, 0, asked.stderr);
    const request = await messageOf(suiteCalls(emu).find((c) => c.path.endsWith("/drafts"))?.body);
    assert.equal(
      request.headers.find((h) => h.key === "disposition-notification-to")?.value,
      `<${USERS.bob.email}>`,
    );
    const inbox = await larkit(["mail", "+triage"], U);
    const id = inbox.json<{ data: { message_id: string; subject: string }[] }>().data
      .find((m) => m.subject === "Q4 plan")!.message_id;

    emu.clearRequests();
    const r = await larkit(["mail", "+send-receipt", "--message-id", id, "--yes"], U);
    assert.equal(r.code, 0, r.stderr);
    const receipt = await messageOf(suiteCalls(emu).find((c) => c.path.endsWith("/drafts"))?.body);
    assert.equal(receipt.subject, "Read receipt: Q4 plan");
    assert.deepEqual(receipt.to?.map((a) => a.address), [USERS.bob.email]);
    assert.equal(receipt.inReplyTo, request.messageId);
    assert.equal(receipt.headers.find((h) => h.key === "x-lark-read-receipt-mail")?.value, "1");
    assert.match(
      receipt.text ?? "",
      /^Your message has been read\. Details:\n> Subject: Q4 plan\n> To: alice@/,
    );

    // The request is answered: Alice's copy no longer asks, so a second receipt is refused.
    const again = await larkit(["mail", "+send-receipt", "--message-id", id, "--yes"], U);
    assert.equal(again.code, 2);
    assert.match(again.errorJson().error.message, /asks for no read receipt/);
  });
});
