import assert from "node:assert/strict";
import { startEmulator } from "./server.ts";
import { tenantToken, userToken } from "../tests/helpers/emulator.ts";
import { call } from "./test_http.ts";
import { BASE, SHEETS, USERS } from "./fixtures.ts";

type Emu = Awaited<ReturnType<typeof startEmulator>>;

async function withTokens(fn: (emu: Emu, tat: string, uat: string) => Promise<void>) {
  const emu = await startEmulator();
  try {
    await fn(emu, await tenantToken(emu), (await userToken(emu)).access_token);
  } finally {
    await emu.stop();
  }
}

Deno.test("sheets v2: values read (valueRange.values), write (updatedCells), values_append (updates.updatedRange); v3 sheets query", () =>
  withTokens(async (emu, token) => {
    const base = `/open-apis/sheets/v2/spreadsheets/${SHEETS.budget}`;
    const read = await call(
      emu.url,
      "GET",
      `${base}/values/${encodeURIComponent(`${SHEETS.budgetSheet}!A1:C2`)}`,
      { token },
    );
    assert.deepEqual(read.body.data?.valueRange, {
      majorDimension: "ROWS",
      range: `${SHEETS.budgetSheet}!A1:C2`,
      revision: read.body.data?.revision,
      values: [["Item", "Q1", "Q2"], ["Cloud", 1200, 1350]],
    });
    const write = await call(emu.url, "PUT", `${base}/values`, {
      token,
      body: { valueRange: { range: `${SHEETS.budgetSheet}!B3:C3`, values: [[4100, 200]] } },
    });
    assert.equal(write.body.data?.updatedCells, 2);
    assert.equal(write.body.data?.updatedRange, `${SHEETS.budgetSheet}!B3:C3`);
    const append = await call(emu.url, "POST", `${base}/values_append`, {
      token,
      body: { valueRange: { range: `${SHEETS.budgetSheet}!A1:C1`, values: [["Snacks", 50, 60]] } },
    });
    assert.equal(
      (append.body.data?.updates as { updatedRange: string }).updatedRange,
      `${SHEETS.budgetSheet}!A5:C5`,
    );
    const whole = await call(emu.url, "GET", `${base}/values/${SHEETS.budgetSheet}`, { token });
    const values = (whole.body.data?.valueRange as { values: unknown[][] }).values;
    assert.deepEqual(values[2], ["Laptops", 4100, 200]);
    assert.deepEqual(values[4], ["Snacks", 50, 60]);
    const tabs = await call(
      emu.url,
      "GET",
      `/open-apis/sheets/v3/spreadsheets/${SHEETS.budget}/sheets/query`,
      { token },
    );
    assert.equal((tabs.body.data?.sheets as { sheet_id: string }[])[0].sheet_id, SHEETS.budgetSheet);
    const bad = await call(
      emu.url,
      "GET",
      `${base}/values/${encodeURIComponent(`${SHEETS.budgetSheet}!1A`)}`,
      { token },
    );
    assert.equal(bad.body.code, 90202);
  }));

Deno.test("bitable records: list (items, total, has_more), create, update merges fields, search filters", () =>
  withTokens(async (emu, token) => {
    const path = `/open-apis/bitable/v1/apps/${BASE.app}/tables/${BASE.table}/records`;
    const list = await call(emu.url, "GET", `${path}?page_size=2`, { token });
    assert.equal((list.body.data?.items as unknown[]).length, 2);
    assert.equal(list.body.data?.total, 3);
    assert.equal(list.body.data?.has_more, true);
    const created = await call(emu.url, "POST", path, {
      token,
      body: { fields: { Title: "Flaky test", Status: "Open" } },
    });
    const rec = created.body.data?.record as { record_id: string; fields: Record<string, string> };
    assert.match(rec.record_id, /^rec/);
    const updated = await call(emu.url, "PUT", `${path}/${rec.record_id}`, {
      token,
      body: { fields: { Status: "Done" } },
    });
    assert.deepEqual((updated.body.data?.record as typeof rec).fields, {
      Title: "Flaky test",
      Status: "Done",
    });
    const found = await call(emu.url, "POST", `${path}/search`, {
      token,
      body: {
        filter: {
          conjunction: "and",
          conditions: [{ field_name: "Status", operator: "is", value: ["Done"] }],
        },
      },
    });
    assert.deepEqual((found.body.data?.items as typeof rec[]).map((r) => r.fields.Title), [
      "Dark mode",
      "Flaky test",
    ]);
    const missingTable = await call(
      emu.url,
      "GET",
      `/open-apis/bitable/v1/apps/${BASE.app}/tables/tblNope/records`,
      { token },
    );
    assert.equal(missingTable.body.code, 1254041);
  }));

Deno.test("task v2: create, list my tasks (user only), complete via PATCH completed_at", () =>
  withTokens(async (emu, tat, uat) => {
    const created = await call(emu.url, "POST", "/open-apis/task/v2/tasks", {
      token: uat,
      body: { summary: "Write the report", due: { timestamp: "1795000000000", is_all_day: false } },
    });
    const task = created.body.data?.task as { guid: string; completed_at: string; status: string };
    assert.equal(task.completed_at, "0");
    const mine = await call(emu.url, "GET", "/open-apis/task/v2/tasks?completed=false", { token: uat });
    assert.equal((mine.body.data?.items as { guid: string }[]).length, 3);
    assert.equal(
      (await call(emu.url, "GET", "/open-apis/task/v2/tasks", { token: tat })).body.code,
      99991668,
    );
    const done = await call(emu.url, "PATCH", `/open-apis/task/v2/tasks/${task.guid}`, {
      token: uat,
      body: { task: { completed_at: "1795000000000" }, update_fields: ["completed_at"] },
    });
    assert.equal((done.body.data?.task as typeof task).status, "done");
    const open = await call(emu.url, "GET", "/open-apis/task/v2/tasks?completed=false", { token: uat });
    assert.equal((open.body.data?.items as unknown[]).length, 2);
    assert.equal(
      (await call(emu.url, "GET", "/open-apis/task/v2/tasks/nope", { token: uat })).body.code,
      1470404,
    );
  }));

Deno.test("contact: batch_get_id (user_list), users/:id (user), search/v1/user (users)", () =>
  withTokens(async (emu, tat, uat) => {
    const ids = await call(emu.url, "POST", "/open-apis/contact/v3/users/batch_get_id?user_id_type=open_id", {
      token: tat,
      body: { emails: [USERS.bob.email, "ghost@sandbox.example"] },
    });
    assert.deepEqual(ids.body.data?.user_list, [{ user_id: USERS.bob.open_id, email: USERS.bob.email }, {
      email: "ghost@sandbox.example",
    }]);
    const user = await call(emu.url, "GET", `/open-apis/contact/v3/users/${USERS.carol.open_id}`, {
      token: tat,
    });
    assert.equal((user.body.data?.user as { name: string }).name, USERS.carol.name);
    const search = await call(emu.url, "GET", "/open-apis/search/v1/user?query=bob", { token: uat });
    assert.deepEqual((search.body.data?.users as { open_id: string }[]).map((u) => u.open_id), [
      USERS.bob.open_id,
    ]);
  }));

Deno.test("mail: send (structured with attachments, and raw) → recipients' INBOX; messages list and get", () =>
  withTokens(async (emu, _tat, uat) => {
    const base = "/open-apis/mail/v1/user_mailboxes/me/messages";
    const sent = await call(emu.url, "POST", `${base}/send`, {
      token: uat,
      body: {
        subject: "Status",
        to: [{ mail_address: USERS.bob.email }],
        body_plain_text: "All green.",
        attachments: [{
          filename: "a.txt",
          body: new TextEncoder().encode("hello").toBase64({ alphabet: "base64url" }),
        }],
      },
    });
    assert.match(String(sent.body.data?.message_id), /^mail_/);
    const eml = `To: Carol <${USERS.carol.email}>\r\nSubject: Raw hello\r\n\r\nBody`;
    const raw = await call(emu.url, "POST", `${base}/send`, {
      token: uat,
      body: { raw: new TextEncoder().encode(eml).toBase64({ alphabet: "base64url" }) },
    });
    assert.equal(raw.body.code, 0);
    const sentBox = await call(emu.url, "GET", `${base}?folder_id=SENT&page_size=20`, {
      token: uat,
    });
    assert.equal((sentBox.body.data?.items as string[]).length, 2);
    const inbox = await call(emu.url, "GET", `${base}?folder_id=INBOX&page_size=20`, { token: uat });
    const first = (inbox.body.data?.items as string[])[0];
    const got = await call(emu.url, "GET", `${base}/${first}`, { token: uat });
    assert.equal((got.body.data?.message as { subject: string }).subject, "Welcome to the sandbox");
    const other = await call(
      emu.url,
      "GET",
      `/open-apis/mail/v1/user_mailboxes/${USERS.bob.email}/messages?folder_id=INBOX&page_size=20`,
      { token: uat },
    );
    assert.equal(other.body.code, 1230002);
  }));

Deno.test("registry overlay: default, set, not-modified by data_version, corrupt", async () => {
  const emu = await startEmulator({ seed: false });
  try {
    const url = `${emu.url}/api/tools/open/api_definition?protocol=meta&client_version=0.1.0`;
    assert.deepEqual(await (await fetch(url)).json(), {
      msg: "succeeded",
      data: { version: "0.0.0", services: [] },
    });
    emu.setOverlay({ version: "2026.11.01", services: [{ name: "calendar" }] });
    assert.deepEqual((await (await fetch(url)).json()).data.services, [{ name: "calendar" }]);
    assert.equal((await (await fetch(`${url}&data_version=2026.11.01`)).json()).data.services, null);
    emu.setOverlay("corrupt");
    await assert.rejects(async () => await (await fetch(url)).json(), SyntaxError);
  } finally {
    await emu.stop();
  }
});
