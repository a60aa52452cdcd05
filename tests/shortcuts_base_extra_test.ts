/**
 * The base shortcuts of `shortcuts/base/extra.ts` and `attachments.ts`, end to end against the emulator (its
 * generic bitable v1 handler, record and media routes): per shortcut its main path (objects it reads seeded in the
 * suite first), a dry run that sends nothing and fits the registry, and one bad input; then what the single-object
 * reads, the form list and the attachment upload/download/removal really return.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Emulator, fixtures } from "./helpers/emulator.ts";
import { seedBaseParts } from "./helpers/base_parts.ts";
import { type ShortcutCase, shortcutCaseTests } from "./helpers/shortcut_cases.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

const APP = fixtures.BASE.app;
const TBL = fixtures.BASE.table;
const T = ["--base-token", APP, "--table-id", TBL];
const A = `/bitable/v1/apps/${APP}`;
const R = `${A}/tables/${TBL}`;

/** An object the suite already holds in `collection` (a path after /open-apis). */
function seed(emu: Emulator, collection: string, id: string, body: Record<string, unknown>): void {
  fixtures.seedObject(emu.db, `/open-apis${collection}`, id, body);
}
/** A record the suite's record routes hold. */
function seedRecord(emu: Emulator, id: string, fields: Record<string, unknown>): void {
  emu.db.prepare(
    "INSERT INTO records (app_token, table_id, record_id, fields, seq) VALUES (?, ?, ?, ?, (SELECT count(*) FROM records))",
  ).run(APP, TBL, id, JSON.stringify(fields));
}
const FILES = { field_id: "fldF", field_name: "Files", type: 17 };

const CASES: Record<string, ShortcutCase> = {
  "base +field-get": {
    argv: [...T, "--field-id", "fldS"],
    setup: (emu) => seed(emu, `${R}/fields`, "fldS", { field_id: "fldS", field_name: "Status", type: 3 }),
    sends: [`GET ${R}/fields`],
    bad: [...T, "--field-id", "f/x"],
    says: /not an ID/,
  },
  "base +role-get": {
    argv: ["--base-token", APP, "--role-id", "rolA"],
    setup: (emu) =>
      seed(emu, `${A}/roles`, "rolA", { role_id: "rolA", role_name: "Readers", table_roles: [] }),
    sends: [`GET ${A}/roles`],
    bad: ["--base-token", APP],
    says: /--role-id/,
  },
  "base +workflow-get": {
    argv: ["--base-token", APP, "--workflow-id", "wkfA"],
    setup: (emu) =>
      seed(emu, `${A}/workflows`, "wkfA", { workflow_id: "wkfA", title: "Notify", status: "Enable" }),
    sends: [`GET ${A}/workflows`],
    bad: ["--base-token", APP, "--workflow-id", ""],
    says: /must not be empty/,
  },
  "base +dashboard-get": {
    argv: ["--base-token", APP, "--dashboard-id", "blkD"],
    setup: (emu) => seed(emu, `${A}/dashboards`, "blkD", { block_id: "blkD", name: "KPIs" }),
    sends: [`GET ${A}/dashboards`],
    bad: ["--base-token", "a b", "--dashboard-id", "blkD"],
    says: /not an ID/,
  },
  "base +form-list": {
    argv: [...T],
    sends: [`GET ${R}/views`],
    bad: ["--base-token", APP],
    says: /--table-id/,
  },
  "base +form-create": {
    argv: [...T, "--name", "Bug report"],
    sends: [`POST ${R}/views`],
    bad: [...T],
    says: /--name/,
  },
  "base +form-delete": {
    argv: [...T, "--form-id", "vewF", "--yes"],
    sends: [`DELETE ${R}/views/vewF`],
    bad: [...T, "--form-id", "v?f", "--yes"],
    says: /not an ID/,
  },
  "base +form-share-get": {
    argv: [...T, "--form-id", "vewF"],
    sends: [`GET ${R}/forms/vewF`],
    bad: [...T],
    says: /--form-id/,
  },
  "base +form-share-update": {
    argv: [
      ...T,
      "--form-id",
      "vewF",
      "--shared",
      "true",
      "--limit",
      "tenant_editable",
      "--submit-once",
      "false",
    ],
    sends: [`PATCH ${R}/forms/vewF`],
    bad: [...T, "--form-id", "vewF", "--shared", "true", "--limit", "everyone"],
    says: /--limit must be one of/,
  },
  "base +table-copy": {
    argv: [...T, "--name", "Copy"],
    setup: (emu) => seed(emu, `${R}/fields`, "fldT", { field_id: "fldT", field_name: "Title", type: 1 }),
    sends: [`GET ${R}/fields`, `POST ${A}/tables`],
    bad: ["--base-token", APP, "--table-id", "t t", "--name", "Copy"],
    says: /not an ID/,
  },
  "base +record-remove-attachment": {
    argv: [...T, "--record-id", "recA", "--field-id", "fldF", "--file-token", "boxA", "--yes"],
    setup: (emu) => {
      seed(emu, `${R}/fields`, "fldF", FILES);
      seedRecord(emu, "recA", {
        Files: [{ file_token: "boxA", name: "a.png" }, { file_token: "boxB", name: "b.png" }],
      });
    },
    sends: [`GET ${R}/fields`, `GET ${R}/records/recA`, `PUT ${R}/records/recA`],
    bad: [...T, "--record-id", "recA", "--field-id", "fldF", "--file-token", "../x", "--yes"],
    says: /not an ID/,
  },
  "base +record-upload-attachment": {
    argv: [...T, "--record-id", "recA", "--field-id", "fldF", "--file", "spec.txt"],
    files: { "spec.txt": "the spec" },
    setup: (emu) => {
      seed(emu, `${R}/fields`, "fldF", FILES);
      seedRecord(emu, "recA", { Files: [{ file_token: "boxA" }] });
    },
    sends: [`GET ${R}/records/recA`, "POST /drive/v1/medias/upload_all", `PUT ${R}/records/recA`],
    bad: [...T, "--record-id", "recA", "--field-id", "fldF", "--file", "missing.txt"],
    says: /missing\.txt/,
  },
  "base +record-download-attachment": {
    argv: [
      ...T,
      "--record-id",
      "recA",
      "--field-id",
      "fldF",
      "--file-token",
      "boxA",
      "--output",
      "got.bin",
      "--overwrite",
    ],
    setup: (emu) => {
      seed(emu, `${R}/fields`, "fldF", FILES);
      seedRecord(emu, "recA", { Files: [{ file_token: "boxA", name: "a.png" }] });
    },
    sends: [`GET ${R}/records/recA`, "GET /drive/v1/medias/boxA/download"],
    bad: [...T, "--record-id", "recA", "--field-id", "fldF"],
    says: /--file-token/,
  },
  "base +base-block-list": {
    argv: ["--base-token", APP],
    sends: [`GET ${A}/tables`, `GET ${A}/dashboards`],
    bad: [],
    says: /--base-token/,
  },
};

// A multipart upload's body is not JSON: the registry's schemas do not describe it.
shortcutCaseTests(CASES, { asUser: true, unplanned: /\/upload_all$/, setup: seedBaseParts });

Deno.test("base +record-upload-attachment adds the file next to the others; +record-download-attachment gets it back", async () => {
  const cwd = await Deno.makeTempDir();
  await Deno.writeTextFile(join(cwd, "spec.txt"), "the spec v2");
  await withSuite(async (emu, larkit) => {
    seed(emu, `${R}/fields`, "fldF", FILES);
    seedRecord(emu, "recA", { Files: [{ file_token: "boxA" }] });
    const rec = [...T, "--record-id", "recA", "--field-id", "fldF"];
    const up = await larkit(["base", "+record-upload-attachment", ...rec, "--file", "spec.txt"], {
      asUser: true,
      cwd,
    });
    assert.equal(up.code, 0, up.stderr);
    const { file_token, files } = up.json<{ data: { file_token: string; files: number } }>().data;
    assert.equal(files, 2);
    const put = suiteCalls(emu).find((q) => q.method === "PUT");
    assert.deepEqual(put?.body, { fields: { Files: [{ file_token: "boxA" }, { file_token }] } });
    const down = await larkit(
      ["base", "+record-download-attachment", ...rec, "--file-token", file_token, "--output", "back.txt"],
      { asUser: true, cwd },
    );
    assert.equal(down.code, 0, down.stderr);
    assert.equal(await Deno.readTextFile(join(cwd, "back.txt")), "the spec v2");
    const none = await larkit(["base", "+record-download-attachment", ...rec, "--file-token", "boxZ"], {
      asUser: true,
      cwd,
    });
    assert.equal(none.errorJson().error.subtype, "not_found");
  });
  await Deno.remove(cwd, { recursive: true });
});

Deno.test("base +role-get returns the role asked for; an unknown ID is not_found", async () => {
  await withSuite(async (emu, larkit) => {
    seed(emu, `${A}/roles`, "rolA", { role_id: "rolA", role_name: "Readers", table_roles: [] });
    seed(emu, `${A}/roles`, "rolB", { role_id: "rolB", role_name: "Editors", table_roles: [] });
    const r = await larkit(["base", "+role-get", "--base-token", APP, "--role-id", "rolB"], { asUser: true });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json<{ data: { role_name: string } }>().data.role_name, "Editors");
    const none = await larkit(["base", "+role-get", "--base-token", APP, "--role-id", "rolZ"], {
      asUser: true,
    });
    assert.equal(none.errorJson().error.subtype, "not_found");
  });
});

Deno.test("base +record-remove-attachment keeps the other files; a file the record lacks is not_found", async () => {
  await withSuite(async (emu, larkit) => {
    seed(emu, `${R}/fields`, "fldF", FILES);
    seedRecord(emu, "recA", { Files: [{ file_token: "boxA" }, { file_token: "boxB" }] });
    const args = ["base", "+record-remove-attachment", ...T, "--record-id", "recA", "--field-id", "fldF"];
    const r = await larkit([...args, "--file-token", "boxA", "--yes"], { asUser: true });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json<{ data: { remaining: number } }>().data.remaining, 1);
    const put = suiteCalls(emu).find((q) => q.method === "PUT");
    assert.deepEqual(put?.body, { fields: { Files: [{ file_token: "boxB" }] } });
    const again = await larkit([...args, "--file-token", "boxZ", "--yes"], { asUser: true });
    assert.equal(again.errorJson().error.subtype, "not_found");
  });
});

Deno.test("base +form-create then +form-list shows the form, not the grid views", async () => {
  await withSuite(async (_emu, larkit) => {
    const made = await larkit(["base", "+form-create", ...T, "--name", "Intake"], { asUser: true });
    assert.equal(made.code, 0, made.stderr);
    const grid = await larkit(["base", "+view-create", ...T, "--name", "All"], { asUser: true });
    assert.equal(grid.code, 0, grid.stderr);
    const list = await larkit(["base", "+form-list", ...T], { asUser: true });
    assert.equal(list.code, 0, list.stderr);
    const names = list.json<{ data: { view_name: string; view_type: string }[] }>().data;
    assert.deepEqual(names.map((v) => [v.view_name, v.view_type]), [["Intake", "form"]]);
  });
});
