/**
 * The drive shortcuts beyond upload/download, end to end against the emulator (generic handler for registry
 * and supplementary methods; `sandbox/routes/doc_tasks.ts` for tasks, media uploads and previews): per
 * shortcut its main path (exit 0, the requests it names sent), its dry run (nothing sent, the plan fits the
 * registry's request schemas) and one bad input (exit 2, validation, nothing sent).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type ShortcutCase, shortcutCaseTests } from "./helpers/shortcut_cases.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";
import type { Emulator } from "./helpers/emulator.ts";
import { seedPath } from "../sandbox/fixtures.ts";

const DOC = "doxcnSandboxDoc0001";
const FILE = "boxcnSandboxFile0001";
const FOLDER = "fldcnSandboxRoot0001";
const CMT = "6916106822734578184";
const RPL = "6916106822734594568";

/** The tenant's drive as these cases find it: a document with a comment and its reply, a file, a sub-folder. */
function seedDrive(emu: Emulator): void {
  const files = "/open-apis/drive/v1/files";
  seedPath(emu.db, `${files}/${DOC}`, { token: DOC, name: "Plan", type: "docx", parent_token: FOLDER });
  seedPath(emu.db, `${files}/${FILE}`, {
    token: FILE,
    name: "notes.txt",
    type: "file",
    parent_token: FOLDER,
  });
  seedPath(emu.db, `${files}/fldcnSub0001`, { token: "fldcnSub0001", name: "Sub", type: "folder" });
  seedPath(emu.db, `${files}/${DOC}/comments/${CMT}`, { comment_id: CMT, is_solved: false });
  seedPath(emu.db, `${files}/${DOC}/comments/${CMT}/replies/${RPL}`, { reply_id: RPL });
  seedPath(emu.db, `/open-apis/drive/v1/permissions/${DOC}/members/ou_1`, {
    member_id: "ou_1",
    perm: "view",
  });
}

const T = ["--token", DOC];
const CASES: Record<string, ShortcutCase> = {
  "drive +create-folder": {
    argv: ["--name", "Reports", "--folder-token", FOLDER],
    sends: ["POST /drive/v1/files/create_folder"],
    bad: ["--name", "x", "--folder-token", "a b"],
    says: /not a token/,
  },
  "drive +create-shortcut": {
    argv: ["--file-token", DOC, "--type", "docx", "--folder-token", FOLDER],
    sends: ["POST /drive/v1/files/create_shortcut"],
    bad: ["--file-token", DOC, "--type", "nope", "--folder-token", FOLDER],
    says: /type/,
  },
  "drive +copy": {
    argv: [...T, "--name", "Copy", "--folder-token", FOLDER],
    sends: [`POST /drive/v1/files/${DOC}/copy`],
    bad: ["--token", "a/b c", "--name", "Copy", "--folder-token", FOLDER],
    says: /not a token/,
  },
  "drive +move": {
    argv: [
      "--file-token",
      "fldcnSub0001",
      "--type",
      "folder",
      "--folder-token",
      FOLDER,
      "--poll-interval",
      "1",
    ],
    sends: ["POST /drive/v1/files/fldcnSub0001/move"],
    bad: ["--file-token", DOC, "--type", "docx"],
    says: /folder-token/,
  },
  "drive +delete": {
    argv: ["--file-token", FILE, "--type", "file", "--yes"],
    sends: [`DELETE /drive/v1/files/${FILE}`],
    bad: ["--file-token", FILE, "--type", "file", "--timeout", "0", "--yes"],
    says: /timeout/,
  },
  "drive +update-title": {
    argv: [...T, "--type", "docx", "--title", "Plan v2"],
    sends: [`PATCH /drive/v1/files/${DOC}`],
    bad: [...T, "--title", "a/b"],
    says: /must not contain/,
  },
  "drive +inspect": {
    argv: ["--url", `https://sandbox.feishu.cn/docx/${DOC}`],
    sends: ["POST /drive/v1/metas/batch_query"],
    bad: ["--url", "https://x/docx/a b"],
    says: /not a token/,
  },
  "drive +add-comment": {
    argv: [...T, "--content", "Looks good"],
    sends: [`POST /drive/v1/files/${DOC}/comments`],
    bad: [...T],
    says: /content/,
  },
  "drive +list-comments": {
    argv: [...T, "--solved-status", "unsolved", "--page-all"],
    sends: [`GET /drive/v1/files/${DOC}/comments`],
    bad: [...T, "--solved-status", "maybe"],
    says: /solved-status/,
  },
  "drive +batch-query-comments": {
    argv: [...T, "--comment-ids", `${CMT},6916106822734578185`],
    sends: [`POST /drive/v1/files/${DOC}/comments/batch_query`],
    bad: [...T, "--comment-ids", "a/b"],
    says: /not an ID/,
  },
  "drive +resolve-comment": {
    argv: [...T, "--comment-id", CMT],
    sends: [`PATCH /drive/v1/files/${DOC}/comments/${CMT}`],
    bad: [...T, "--comment-id", "../x"],
    says: /not an ID/,
  },
  "drive +restore-comment": {
    argv: [...T, "--comment-id", CMT],
    sends: [`PATCH /drive/v1/files/${DOC}/comments/${CMT}`],
    bad: [...T],
    says: /comment-id/,
  },
  "drive +add-reply": {
    argv: [...T, "--comment-id", CMT, "--content", "Fixed"],
    sends: [`POST /drive/v1/files/${DOC}/comments/${CMT}/replies`],
    bad: [...T, "--comment-id", "x y", "--content", "Fixed"],
    says: /not an ID/,
  },
  "drive +list-replies": {
    argv: [...T, "--comment-id", CMT],
    sends: [`GET /drive/v1/files/${DOC}/comments/${CMT}/replies`],
    bad: [...T, "--comment-id", CMT, "--page-size", "1000"],
    says: /page-size/,
  },
  "drive +update-reply": {
    argv: [...T, "--comment-id", CMT, "--reply-id", RPL, "--content", "v2"],
    sends: [`PUT /drive/v1/files/${DOC}/comments/${CMT}/replies/${RPL}`],
    bad: [...T, "--comment-id", CMT, "--reply-id", "a/b", "--content", "v2"],
    says: /not an ID/,
  },
  "drive +delete-reply": {
    argv: [...T, "--comment-id", CMT, "--reply-id", RPL, "--yes"],
    sends: [`DELETE /drive/v1/files/${DOC}/comments/${CMT}/replies/${RPL}`],
    bad: [...T, "--comment-id", CMT, "--yes"],
    says: /reply-id/,
  },
  "drive +react-reply": {
    argv: [...T, "--reply-id", RPL, "--emoji", "THUMBSUP", "--action", "add"],
    sends: [`POST /drive/v2/files/${DOC}/comments/reaction`],
    bad: [...T, "--reply-id", RPL, "--emoji", "👍", "--action", "add"],
    says: /emoji key/,
  },
  "drive +member-list": {
    argv: [...T],
    sends: [`GET /drive/v1/permissions/${DOC}/members`],
    bad: [...T, "--type", "pdf"],
    says: /type/,
  },
  "drive +member-add": {
    argv: [...T, "--member-id", "ou_1", "--member-type", "openid", "--perm", "edit", "--yes"],
    sends: [`POST /drive/v1/permissions/${DOC}/members`],
    bad: [...T, "--member-id", "ou_1", "--member-type", "openid", "--perm", "owner", "--yes"],
    says: /perm/,
  },
  "drive +member-remove": {
    argv: [...T, "--member-id", "ou_1", "--member-type", "openid", "--yes"],
    sends: [`DELETE /drive/v1/permissions/${DOC}/members/ou_1`],
    bad: [...T, "--member-id", "a/b", "--member-type", "openid", "--yes"],
    says: /not an ID/,
  },
  "drive +permission-get-setting": {
    argv: [...T],
    sends: [`GET /drive/v2/permissions/${DOC}/public`],
    bad: ["--token", "a b"],
    says: /not a token/,
  },
  "drive +apply-permission": {
    argv: [...T, "--perm", "edit"],
    asUser: true,
    sends: [`POST /drive/v1/permissions/${DOC}/members/apply`],
    bad: [...T, "--perm", "full_access"],
    says: /perm/,
  },
  "drive +secure-label-list": {
    argv: [],
    asUser: true,
    sends: ["GET /drive/v2/my_secure_labels"],
    bad: ["--page-all", "--page-token", "x"],
    says: /page-token/,
  },
  "drive +secure-label-update": {
    argv: [...T, "--label-id", "7223012384519"],
    asUser: true,
    sends: [`PATCH /drive/v2/files/${DOC}/secure_label`],
    bad: [...T, "--label-id", "a b"],
    says: /not a token/,
  },
  "drive +version-history": {
    argv: ["--file-token", FILE],
    sends: [`GET /drive/v1/files/${FILE}/history`],
    bad: ["--file-token", FILE, "--limit", "0"],
    says: /limit/,
  },
  "drive +version-revert": {
    argv: ["--file-token", FILE, "--version-id", "6"],
    sends: [`POST /drive/v1/files/${FILE}/revert`],
    bad: ["--file-token", FILE, "--version-id", "6/7"],
    says: /not a version/,
  },
  "drive +version-delete": {
    argv: ["--file-token", FILE, "--version-id", "3", "--yes"],
    sends: [`POST /drive/v1/files/${FILE}/version_del`],
    bad: ["--file-token", FILE, "--version-id", "a b", "--yes"],
    says: /not a version/,
  },
  "drive +import": {
    argv: ["--file", "notes.md", "--type", "docx", "--poll-interval", "1"],
    files: { "notes.md": "# Notes\n\nhello\n" },
    sends: ["POST /drive/v1/medias/upload_all", "POST /drive/v1/import_tasks"],
    bad: ["--file", "notes.md", "--type", "sheet"],
    says: /imports as docx/,
  },
  "drive +export": {
    argv: [
      ...T,
      "--file-extension",
      "pdf",
      "--output-dir",
      "out",
      "--file-name",
      "plan.pdf",
      "--poll-interval",
      "1",
    ],
    sends: ["POST /drive/v1/export_tasks"],
    bad: [...T, "--file-extension", "csv"],
    says: /exports as docx or pdf/,
  },
  "drive +export-download": {
    argv: ["--file-token", "boxcnexp0001", "--file-name", "e.pdf"],
    sends: ["GET /drive/v1/export_tasks/file/boxcnexp0001/download"],
    bad: ["--file-token", "a b"],
    says: /not a token/,
  },
  "drive +task_result": {
    argv: ["--scenario", "import", "--ticket", "7369583175086912356"],
    sends: ["GET /drive/v1/import_tasks/7369583175086912356"],
    bad: ["--scenario", "export", "--ticket", "7369583175086912356"],
    says: /needs --file-token/,
  },
  "drive +preview": {
    argv: ["--file-token", FILE, "--output", "p.pdf"],
    sends: [`GET /drive/v1/medias/${FILE}/preview_download`],
    bad: ["--file-token", FILE, "--type", "gif"],
    says: /type/,
  },
  "drive +cover": {
    argv: ["--file-token", FILE],
    sends: [`GET /drive/v1/medias/${FILE}/preview_download`],
    bad: ["--file-token", "x y"],
    says: /not a token/,
  },
  "drive +search": {
    argv: ["--query", "plan", "--doc-types", "docx,sheet"],
    asUser: true,
    sends: ["POST /search/v2/doc_wiki/search"],
    bad: ["--query", "plan", "--doc-types", "folder"],
    says: /doc-types/,
  },
};

/** Covered by tests/shortcuts_drive_test.ts (uploads and downloads) and the version download below. */
const ELSEWHERE = ["drive +upload", "drive +download", "drive +version-get"];

shortcutCaseTests(CASES, {
  coverage: {
    title: "every drive shortcut has a case here or in shortcuts_drive_test.ts",
    services: ["drive"],
    elsewhere: ELSEWHERE,
  },
  unplanned: /upload_all/,
  setup: seedDrive,
});

Deno.test("drive +import and +export poll their task to the end, +export saves the file, +version-get downloads", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeTextFile(join(cwd, "t.csv"), "a,b\n1,2\n");
    const imp = await larkit([
      "drive",
      "+import",
      "--file",
      "t.csv",
      "--type",
      "sheet",
      "--poll-interval",
      "1",
    ], { cwd });
    assert.equal(imp.code, 0, imp.stderr);
    const ticket = imp.json<{ data: { ticket: string; token: string } }>().data.ticket;
    const checks = suiteCalls(emu).filter((q) => q.path.endsWith(`/import_tasks/${ticket}`));
    assert.equal(checks.length, 2, "a running first answer, then the finished one");
    assert.match(imp.json<{ data: { token: string } }>().data.token, /^doxcn/);

    const exp = await larkit(
      [
        "drive",
        "+export",
        "--token",
        DOC,
        "--file-extension",
        "pdf",
        "--output-dir",
        "o",
        "--file-name",
        "p.pdf",
        "--poll-interval",
        "1",
      ],
      { cwd },
    );
    assert.equal(exp.code, 0, exp.stderr);
    assert.match(await Deno.readTextFile(join(cwd, "o", "p.pdf")), /^exported boxcnexp/);

    const up = await larkit(["drive", "+upload", "--file", "t.csv"], { cwd });
    const token = up.json<{ data: { file_token: string } }>().data.file_token;
    const v = await larkit([
      "drive",
      "+version-get",
      "--file-token",
      token,
      "--version-id",
      "1",
      "--output",
      "v1.csv",
    ], {
      cwd,
    });
    assert.equal(v.code, 0, v.stderr);
    assert.equal(await Deno.readTextFile(join(cwd, "v1.csv")), "a,b\n1,2\n");
    const bad = await larkit(["drive", "+version-get", "--file-token", token, "--version-id", "a b"], {
      cwd,
    });
    assert.equal(bad.code, 2);
  });
});

Deno.test("a task still running at --timeout is a timeout error naming the command to check it later", async () => {
  await withSuite(async (emu, larkit) => {
    seedPath(emu.db, "/open-apis/drive/v1/files/fldcnSub0002", { token: "fldcnSub0002", type: "folder" });
    const r = await larkit([
      "drive",
      "+move",
      "--file-token",
      "fldcnSub0002",
      "--type",
      "folder",
      "--folder-token",
      FOLDER,
      "--timeout",
      "1",
      "--poll-interval",
      "2",
      // The first check answers "running"; the next would come after the deadline (on the emulator's clock).
    ]);
    assert.notEqual(r.code, 0);
    const e = r.errorJson().error as { type: string; subtype?: string; message: string; hint?: string };
    assert.match(e.message, /still running after 1s/);
    assert.match(e.hint ?? "", /drive \+task_result --scenario task_check --task-id/);
  });
});
