/**
 * Base shortcuts end to end against the emulator's seeded issue tracker (three records).
 */
import assert from "node:assert/strict";
import { fixtures } from "./helpers/emulator.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

const TABLE = ["--base-token", fixtures.BASE.app, "--table-id", fixtures.BASE.table];
const RECORDS = `/open-apis/bitable/v1/apps/${fixtures.BASE.app}/tables/${fixtures.BASE.table}/records`;

interface Listed {
  data: { record_id: string; fields: Record<string, unknown> }[];
  meta: { count: number; has_more: boolean; page_token?: string; total?: number };
}

Deno.test("base +records-list: a page with meta.count, the next page by token, and a table view", async () => {
  await withSuite(async (_emu, larkit) => {
    const first = await larkit(["base", "+records-list", ...TABLE, "--page-size", "2"]);
    assert.equal(first.code, 0, first.stderr);
    const page = first.json<Listed>();
    assert.deepEqual(page.data.map((r) => r.fields.Title), ["Login page flickers", "Export to CSV"]);
    assert.equal(page.meta.count, 2);
    assert.equal(page.meta.has_more, true);
    const next = await larkit([
      "base",
      "+records-list",
      ...TABLE,
      "--page-token",
      page.meta.page_token ?? "",
    ]);
    assert.deepEqual(next.json<Listed>().data.map((r) => r.record_id), ["recSandbox0003"]);
    assert.deepEqual(next.json<Listed>().meta, { count: 1, has_more: false, total: 3 });

    const table = await larkit(["base", "+records-list", ...TABLE, "--format", "table", "--as", "user"], {
      asUser: true,
    });
    assert.equal(table.code, 0, table.stderr);
    assert.equal(
      table.stdout.split("\n").slice(0, 4).join("\n"),
      [
        "fields.Priority  fields.Status  fields.Title         record_id",
        "───────────────  ─────────────  ───────────────────  ──────────────",
        "P1               Open           Login page flickers  recSandbox0001",
        "P2               In progress    Export to CSV        recSandbox0002",
      ].join("\n"),
    );
  });
});

Deno.test("base +record-upsert: creates with a client token, then updates only the named fields", async () => {
  await withSuite(async (emu, larkit) => {
    const created = await larkit([
      "base",
      "+record-upsert",
      ...TABLE,
      "--json",
      '{"Title":"Add SSO","Status":"Open"}',
    ]);
    assert.equal(created.code, 0, created.stderr);
    const doc = created.json<{ data: { record_id: string; fields: unknown }; meta: { action: string } }>();
    assert.equal(doc.meta.action, "created");
    assert.deepEqual(doc.data.fields, { Title: "Add SSO", Status: "Open" });
    const post = suiteCalls(emu).find((c) => c.method === "POST");
    assert.match(post?.query.client_token ?? "", /^[0-9a-f-]{36}$/);

    const updated = await larkit([
      "base",
      "+record-upsert",
      ...TABLE,
      "--record-id",
      doc.data.record_id,
      "--json",
      '{"fields":{"Status":"Done"}}',
    ]);
    assert.equal(updated.code, 0, updated.stderr);
    assert.deepEqual(updated.json<{ data: { fields: unknown } }>().data.fields, {
      Title: "Add SSO",
      Status: "Done",
    });
    const list = await larkit(["base", "+records-list", ...TABLE]);
    assert.equal(list.json<Listed>().meta.count, 4);
  });
});

Deno.test("base dry-runs show the request (create vs update) and send nothing", async () => {
  await withSuite(async (emu, larkit) => {
    const list = await larkit(["base", "+records-list", ...TABLE, "--view-id", "vewX", "--dry-run"]);
    assert.equal(list.code, 0, list.stderr);
    const api = list.json<{ data: { api: { url: string; params: unknown }[] } }>().data.api;
    assert.equal(api[0].url, `${emu.url}${RECORDS}`);
    assert.deepEqual(api[0].params, { view_id: "vewX", page_size: 100 });
    const upsert = await larkit([
      "base",
      "+record-upsert",
      ...TABLE,
      "--record-id",
      "recX",
      "--json",
      '{"A":1}',
      "--dry-run",
    ]);
    const plan =
      upsert.json<{ data: { api: { method: string; url: string; body: unknown }[]; action: string } }>().data;
    assert.deepEqual(
      [plan.action, plan.api[0].method, plan.api[0].url, plan.api[0].body],
      ["update", "PUT", `${emu.url}${RECORDS}/recX`, { fields: { A: 1 } }],
    );
    assert.deepEqual(emu.requests(), []);
  });
});

Deno.test("base bad input: --json not an object, missing flags, an unknown table", async () => {
  await withSuite(async (emu, larkit) => {
    const array = await larkit(["base", "+record-upsert", ...TABLE, "--json", "[1]"]);
    assert.equal(array.code, 2);
    assert.match(array.errorJson().error.message, /--json must be a non-empty JSON object/);
    const noJson = await larkit(["base", "+record-upsert", ...TABLE]);
    assert.equal(noJson.errorJson().error.message, "--json is required");
    const noTable = await larkit(["base", "+records-list", "--base-token", fixtures.BASE.app]);
    assert.equal(noTable.errorJson().error.message, "--table-id is required");
    const size = await larkit(["base", "+records-list", ...TABLE, "--page-size", "0"]);
    assert.equal(size.code, 2);
    assert.deepEqual(suiteCalls(emu), []);
    const unknown = await larkit([
      "base",
      "+records-list",
      "--base-token",
      fixtures.BASE.app,
      "--table-id",
      "tblNope",
    ]);
    assert.deepEqual([unknown.errorJson().error.type, unknown.errorJson().error.subtype], [
      "api",
      "not_found",
    ]);
  });
});
