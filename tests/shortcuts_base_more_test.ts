/**
 * The base shortcuts beyond list/upsert, end to end against the emulator (hand-written record routes, the
 * generic handler for everything else of bitable v1): per shortcut its main path, a dry run that sends nothing
 * and fits the registry, and one bad input; then the chunked batch writes and their partial-failure report.
 */
import assert from "node:assert/strict";
import type { FetchFn } from "../cli/provider.ts";
import { type Emulator, emulatorEnv, fixtures, manualClock, startEmulator } from "./helpers/emulator.ts";
import { loopbackFetch, runCli } from "./helpers/run_cli.ts";
import { seedBaseParts } from "./helpers/base_parts.ts";
import { type ShortcutCase, shortcutCaseTests } from "./helpers/shortcut_cases.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

const APP = fixtures.BASE.app;
const TBL = fixtures.BASE.table;
const T = ["--base-token", APP, "--table-id", TBL];
const A = `/bitable/v1/apps/${APP}`;
const R = `${A}/tables/${TBL}`;

/** A single-select field the table already has (in the emulator's generic store). */
function seedStatusField(emu: Emulator): void {
  const field = {
    field_id: "fldS",
    field_name: "Status",
    type: 3,
    property: { options: [{ name: "Todo" }, { name: "Done" }] },
  };
  emu.db.prepare(
    "INSERT INTO generic_objects (collection, id, body, deleted, seq) VALUES (?, ?, ?, 0, (SELECT count(*) FROM generic_objects))",
  ).run(`/open-apis/bitable/v1/apps/${APP}/tables/${TBL}/fields`, "fldS", JSON.stringify(field));
}

const CASES: Record<string, ShortcutCase> = {
  "base +base-get": {
    argv: ["--base-token", APP],
    sends: [`GET ${A}`],
    bad: ["--base-token", "a/b"],
    says: /not an ID/,
  },
  "base +base-create": {
    argv: ["--name", "Tracker", "--time-zone", "Europe/Paris"],
    sends: ["POST /bitable/v1/apps"],
    bad: ["--name", "x", "--folder-token", "../f"],
    says: /not an ID/,
  },
  "base +base-copy": {
    argv: ["--base-token", APP, "--name", "Copy", "--without-content"],
    sends: [`POST ${A}/copy`],
    bad: [],
    says: /--base-token/,
  },
  "base +table-list": {
    argv: ["--base-token", APP, "--page-all"],
    sends: [`GET ${A}/tables`],
    bad: ["--base-token", APP, "--page-size", "0"],
    says: /--page-size/,
  },
  "base +table-create": {
    argv: ["--base-token", APP, "--name", "Tasks", "--fields", '[{"field_name":"Title","type":1}]'],
    sends: [`POST ${A}/tables`],
    bad: ["--base-token", APP, "--name", "Tasks", "--fields", '{"field_name":"Title"}'],
    says: /must be a JSON array/,
  },
  "base +table-update": {
    argv: [...T, "--name", "Open"],
    sends: [`PATCH ${R}`],
    bad: [...T],
    says: /--name/,
  },
  "base +table-delete": {
    argv: [...T, "--yes"],
    sends: [`DELETE ${R}`],
    bad: ["--base-token", APP, "--table-id", "t b", "--yes"],
    says: /not an ID/,
  },
  "base +field-list": {
    argv: [...T],
    sends: [`GET ${R}/fields`],
    bad: [...T, "--view-id", ""],
    says: /must not be empty/,
  },
  "base +field-create": {
    argv: [...T, "--json", '{"field_name":"Owner","type":11}'],
    sends: [`POST ${R}/fields`],
    bad: [...T, "--json", '{"field_name":"Owner"}'],
    says: /"type" \(a number\)/,
  },
  "base +field-update": {
    argv: [...T, "--field-id", "fldA", "--json", '{"field_name":"Lead","type":11}', "--yes"],
    sends: [`PUT ${R}/fields/fldA`],
    bad: [...T, "--field-id", "fldA", "--json", "[1]", "--yes"],
    says: /JSON object/,
  },
  "base +field-delete": {
    argv: [...T, "--field-id", "fldA", "--yes"],
    sends: [`DELETE ${R}/fields/fldA`],
    bad: [...T, "--yes"],
    says: /--field-id/,
  },
  "base +view-list": {
    argv: [...T],
    sends: [`GET ${R}/views`],
    bad: ["--base-token", APP],
    says: /--table-id/,
  },
  "base +view-get": {
    argv: [...T, "--view-id", "vewA"],
    sends: [`GET ${R}/views/vewA`],
    bad: [...T, "--view-id", "v?x"],
    says: /not an ID/,
  },
  "base +view-create": {
    argv: [...T, "--name", "Mine", "--type", "kanban"],
    sends: [`POST ${R}/views`],
    bad: [...T, "--name", "Mine", "--type", "pivot"],
    says: /must be one of/,
  },
  "base +view-rename": {
    argv: [...T, "--view-id", "vewA", "--name", "Done"],
    sends: [`PATCH ${R}/views/vewA`],
    bad: [...T, "--view-id", "vewA"],
    says: /--name/,
  },
  "base +view-set-filter": {
    argv: [...T, "--view-id", "vewA", "--json", '{"conjunction":"and","conditions":[]}'],
    sends: [`PATCH ${R}/views/vewA`],
    bad: [...T, "--view-id", "vewA", "--json", '{"conditions":[]}'],
    says: /conjunction/,
  },
  "base +view-set-visible-fields": {
    argv: [...T, "--view-id", "vewA", "--hidden", "fldA,fldB"],
    sends: [`PATCH ${R}/views/vewA`],
    bad: [...T, "--view-id", "vewA", "--hidden", "fld A"],
    says: /not an ID/,
  },
  "base +view-delete": {
    argv: [...T, "--view-id", "vewA", "--yes"],
    sends: [`DELETE ${R}/views/vewA`],
    bad: [...T, "--yes"],
    says: /--view-id/,
  },
  "base +record-list": {
    argv: [...T, "--page-all"],
    sends: [`GET ${R}/records`],
    bad: [...T, "--page-all", "--page-token", "x"],
    says: /drop --page-token/,
  },
  "base +record-get": {
    argv: [...T, "--record-id", "recA,recB"],
    sends: [`POST ${R}/records/batch_get`],
    bad: [...T, "--record-id", ","],
    says: /names no record/,
  },
  "base +record-search": {
    argv: [...T, "--field-names", "Title", "--sort", '[{"field_name":"Title","desc":true}]'],
    sends: [`POST ${R}/records/search`],
    bad: [...T, "--sort", '{"field_name":"Title"}'],
    says: /--sort must be a JSON array/,
  },
  "base +record-batch-create": {
    argv: [...T, "--json", '[{"fields":{"Title":"A"}},{"fields":{"Title":"B"}}]'],
    sends: [`POST ${R}/records/batch_create`],
    bad: [...T, "--json", '[{"Title":"A"}]'],
    says: /--json: 0.fields/,
  },
  "base +record-batch-update": {
    argv: [...T, "--json", '[{"record_id":"recA","fields":{"Title":"A2"}}]'],
    sends: [`POST ${R}/records/batch_update`],
    bad: [...T, "--json", '[{"fields":{"Title":"A"}}]'],
    says: /--json: 0.record_id/,
  },
  "base +record-delete": {
    argv: [...T, "--record-id", "recA", "--yes"],
    sends: [`POST ${R}/records/batch_delete`],
    bad: [...T, "--record-id", "rec A", "--yes"],
    says: /not an ID/,
  },
  "base +role-list": {
    argv: ["--base-token", APP],
    sends: [`GET ${A}/roles`],
    bad: ["--base-token", ""],
    says: /must not be empty/,
  },
  "base +role-create": {
    argv: ["--base-token", APP, "--json", '{"role_name":"Editors","table_roles":[]}'],
    sends: [`POST ${A}/roles`],
    bad: ["--base-token", APP, "--json", '{"role_name":"Editors"}'],
    says: /table_roles/,
  },
  "base +role-update": {
    argv: [
      "--base-token",
      APP,
      "--role-id",
      "rolA",
      "--json",
      '{"role_name":"Editors","table_roles":[]}',
      "--yes",
    ],
    sends: [`PUT ${A}/roles/rolA`],
    bad: ["--base-token", APP, "--role-id", "rolA", "--yes"],
    says: /--json is required/,
  },
  "base +role-delete": {
    argv: ["--base-token", APP, "--role-id", "rolA", "--yes"],
    sends: [`DELETE ${A}/roles/rolA`],
    bad: ["--base-token", APP, "--yes"],
    says: /--role-id/,
  },
  "base +form-get": {
    argv: [...T, "--form-id", "vewF"],
    sends: [`GET ${R}/forms/vewF`],
    bad: [...T],
    says: /--form-id/,
  },
  "base +form-update": {
    argv: [...T, "--form-id", "vewF", "--name", "Feedback", "--shared", "true"],
    sends: [`PATCH ${R}/forms/vewF`],
    bad: [...T, "--form-id", "vewF", "--shared", "yes"],
    says: /true or false/,
  },
  "base +form-questions-list": {
    argv: [...T, "--form-id", "vewF"],
    sends: [`GET ${R}/forms/vewF/fields`],
    bad: [...T, "--form-id", "a b"],
    says: /not an ID/,
  },
  "base +form-questions-update": {
    argv: [...T, "--form-id", "vewF", "--field-id", "fldA", "--required", "true"],
    sends: [`PATCH ${R}/forms/vewF/fields/fldA`],
    bad: [...T, "--form-id", "vewF", "--field-id", "fldA"],
    says: /nothing to change/,
  },
  "base +workflow-list": {
    argv: ["--base-token", APP],
    sends: [`GET ${A}/workflows`],
    bad: [],
    says: /--base-token/,
  },
  "base +workflow-enable": {
    argv: ["--base-token", APP, "--workflow-id", "wkfA"],
    sends: [`PUT ${A}/workflows/wkfA`],
    bad: ["--base-token", APP],
    says: /--workflow-id/,
  },
  "base +workflow-disable": {
    argv: ["--base-token", APP, "--workflow-id", "wkfA"],
    sends: [`PUT ${A}/workflows/wkfA`],
    bad: ["--base-token", APP, "--workflow-id", "w/1"],
    says: /not an ID/,
  },
  "base +dashboard-list": {
    argv: ["--base-token", APP],
    sends: [`GET ${A}/dashboards`],
    bad: ["--base-token", APP, "--page-limit", "-1"],
    says: /--page-limit/,
  },
  "base +dashboard-copy": {
    argv: ["--base-token", APP, "--dashboard-id", "blkA", "--name", "Copy"],
    sends: [`POST ${A}/dashboards/blkA/copy`],
    bad: ["--base-token", APP, "--dashboard-id", "blkA"],
    says: /--name/,
  },
  "base +base-update": {
    argv: ["--base-token", APP, "--name", "New"],
    sends: [`PUT ${A}`],
    bad: ["--base-token", APP],
    says: /--name/,
  },
  "base +advperm-enable": {
    argv: ["--base-token", APP],
    sends: [`PUT ${A}`],
    bad: ["--base-token", "b b"],
    says: /not an ID/,
  },
  "base +advperm-disable": {
    argv: ["--base-token", APP, "--yes"],
    sends: [`PUT ${A}`],
    bad: ["--yes"],
    says: /--base-token/,
  },
  "base +role-member-list": {
    argv: ["--base-token", APP, "--role-id", "rolA"],
    sends: [`GET ${A}/roles/rolA/members`],
    bad: ["--base-token", APP],
    says: /--role-id/,
  },
  "base +role-member-add": {
    argv: ["--base-token", APP, "--role-id", "rolA", "--user-id", fixtures.USERS.bob.open_id],
    sends: [`POST ${A}/roles/rolA/members/batch_create`],
    bad: ["--base-token", APP, "--role-id", "rolA", "--user-id", "bob"],
    says: /not an open_id/,
  },
  "base +role-member-remove": {
    argv: ["--base-token", APP, "--role-id", "rolA", "--user-id", fixtures.USERS.bob.open_id, "--yes"],
    sends: [`POST ${A}/roles/rolA/members/batch_delete`],
    bad: ["--base-token", APP, "--role-id", "rolA", "--user-id", ",", "--yes"],
    says: /1 to 100/,
  },
  "base +table-get": {
    argv: [...T],
    sends: [`GET ${R}/fields`, `GET ${R}/views`],
    bad: ["--base-token", APP, "--table-id", "t/x"],
    says: /not an ID/,
  },
  "base +view-get-filter": {
    argv: [...T, "--view-id", "vewA"],
    sends: [`GET ${R}/views/vewA`],
    bad: [...T, "--view-id", "v w"],
    says: /not an ID/,
  },
  "base +view-get-visible-fields": {
    argv: [...T, "--view-id", "vewA"],
    sends: [`GET ${R}/views/vewA`],
    bad: [...T],
    says: /--view-id/,
  },
  "base +field-search-options": {
    setup: seedStatusField,
    argv: [...T, "--field-id", "fldS", "--keyword", "do"],
    sends: [`GET ${R}/fields`],
    bad: [...T, "--field-id", "f d"],
    says: /not an ID/,
  },
};

shortcutCaseTests(CASES, {
  setup: seedBaseParts,
  coverage: {
    title:
      "every base shortcut has a case here, or is listed in `elsewhere` (cases in shortcuts_base_test.ts and shortcuts_base_extra_test.ts)",
    services: ["base"],
    // The get/form/copy/attachment shortcuts have their cases in tests/shortcuts_base_extra_test.ts.
    elsewhere: [
      "base +record-upsert",
      "base +field-get",
      "base +role-get",
      "base +workflow-get",
      "base +dashboard-get",
      "base +form-list",
      "base +form-create",
      "base +form-delete",
      "base +form-share-get",
      "base +form-share-update",
      "base +table-copy",
      "base +record-remove-attachment",
      "base +base-block-list",
      "base +record-upload-attachment",
      "base +record-download-attachment",
    ],
  },
  asUser: true,
});

Deno.test("base +record-batch-create sends 1201 rows as chunks of 500, 500, 201", async () => {
  await withSuite(async (emu, larkit) => {
    const rows = JSON.stringify(Array.from({ length: 1201 }, (_, i) => ({ fields: { Title: `row ${i}` } })));
    const ok = await larkit(["base", "+record-batch-create", ...T, "--json", rows], { asUser: true });
    assert.equal(ok.code, 0, ok.stderr);
    const doc = ok.json<{ data: { rows: number; chunks: { rows: [number, number] }[] } }>();
    assert.deepEqual(doc.data.chunks.map((c) => c.rows), [[0, 499], [500, 999], [1000, 1200]]);
    const sizes = suiteCalls(emu).map((q) => (q.body as { records: unknown[] }).records.length);
    assert.deepEqual(sizes, [500, 500, 201]);
  });
});

Deno.test("base +record-batch-update: when the second chunk fails, the error says rows 0-499 were written", async () => {
  const emu = await startEmulator({ clock: manualClock(), timeZone: "UTC" });
  try {
    let batches = 0;
    // The suite refuses the second batch call (a 400 the client does not retry); everything else passes.
    const fetch: FetchFn = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname.endsWith("/records/batch_update") && ++batches === 2) {
        return Promise.resolve(Response.json({ code: 1254001, msg: "WrongRequestBody" }, { status: 400 }));
      }
      return loopbackFetch(input, init);
    };
    const rows = JSON.stringify(
      Array.from({ length: 700 }, (_, i) => ({ record_id: `rec${i}`, fields: { Title: "x" } })),
    );
    const r = await runCli(["base", "+record-batch-update", ...T, "--json", rows], {
      env: { ...emulatorEnv(emu), TZ: "UTC" },
      fetch,
    });
    assert.notEqual(r.code, 0);
    const err = r.errorJson().error as unknown as {
      message: string;
      hint: string;
      detail: { written: { rows: number[] }[]; failed_rows: number[] };
    };
    assert.match(err.message, /chunk 2 failed: rows 500-699 not written; rows 0-499 were written/);
    assert.equal(err.hint, "rerun with the rows from 500 on");
    assert.deepEqual(err.detail.written.map((w) => w.rows), [[0, 499]]);
    assert.deepEqual(err.detail.failed_rows, [500, 699]);
  } finally {
    await emu.stop();
  }
});

Deno.test("base +view-set-filter and +view-set-visible-fields are read back by the matching get shortcuts", async () => {
  await withSuite(async (emu, larkit) => {
    seedBaseParts(emu);
    const filter = {
      conjunction: "and",
      conditions: [{ field_id: "fldA", operator: "is", value: '["Done"]' }],
    };
    const set = await larkit([
      "base",
      "+view-set-filter",
      ...T,
      "--view-id",
      "vewA",
      "--json",
      JSON.stringify(filter),
    ]);
    assert.equal(set.code, 0, set.stderr);
    const got = await larkit(["base", "+view-get-filter", ...T, "--view-id", "vewA"]);
    assert.equal(got.code, 0, got.stderr);
    // The emulator fits answers to the suite's shape (it adds condition IDs), so the fields sent are compared.
    const info = got.json<{ data: { filter_info: typeof filter } }>().data.filter_info;
    assert.equal(info.conjunction, "and");
    const { field_id, operator, value } = info.conditions[0];
    assert.deepEqual({ field_id, operator, value }, filter.conditions[0]);
    const hide = await larkit([
      "base",
      "+view-set-visible-fields",
      ...T,
      "--view-id",
      "vewA",
      "--hidden",
      "fldB",
    ]);
    assert.equal(hide.code, 0, hide.stderr);
    const hidden = await larkit(["base", "+view-get-visible-fields", ...T, "--view-id", "vewA"]);
    assert.deepEqual(hidden.json<{ data: { hidden_fields: string[] } }>().data.hidden_fields, ["fldB"]);
  });
});

Deno.test("base +field-search-options keeps the options whose name contains the keyword", async () => {
  await withSuite(async (emu, larkit) => {
    seedStatusField(emu);
    const r = await larkit(["base", "+field-search-options", ...T, "--field-id", "fldS", "--keyword", "DO"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json<{ data: { name: string }[] }>().data.map((o) => o.name), ["Todo", "Done"]);
    const one = await larkit([
      "base",
      "+field-search-options",
      ...T,
      "--field-id",
      "fldS",
      "--keyword",
      "tod",
    ]);
    assert.deepEqual(one.json<{ data: { name: string }[] }>().data.map((o) => o.name), ["Todo"]);
    const none = await larkit(["base", "+field-search-options", ...T, "--field-id", "fldX"]);
    assert.equal(none.errorJson().error.subtype, "not_found");
  });
});
