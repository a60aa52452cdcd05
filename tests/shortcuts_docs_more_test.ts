/**
 * docs (history, media, search, whiteboard), whiteboard and markdown shortcuts end to end against the
 * emulator: per shortcut its main path (exit 0, the requests it names sent), its dry run (nothing sent, the plan
 * fits the registry's request schemas) and one bad input (exit 2, validation, nothing sent).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fixtures } from "./helpers/emulator.ts";
import { REVERT_TASKS } from "../sandbox/routes/doc_tasks.ts";
import { type ShortcutCase, shortcutCaseTests } from "./helpers/shortcut_cases.ts";
import { withSuite } from "./helpers/suite_session.ts";

const DOC = "doxcnSandboxDoc0001";
const WB = "wbcnSandboxBoard0001";
const VER = "7312345678901234567";

const CASES: Record<string, ShortcutCase> = {
  "docs +search": {
    argv: ["--query", "onboarding"],
    asUser: true,
    sends: ["POST /search/v2/doc_wiki/search"],
    bad: ["--query", "x", "--page-size", "99"],
    says: /page-size/,
  },
  "docs +history-list": {
    argv: ["--doc", DOC, "--page-all"],
    sends: [`GET /docs_ai/v1/documents/${DOC}/histories`],
    bad: ["--doc", "a b"],
    says: /not a token/,
  },
  "docs +history-revert": {
    argv: ["--doc", DOC, "--history-version-id", VER, "--poll-interval", "1"],
    sends: [`POST /docs_ai/v1/documents/${DOC}/history/revert`],
    bad: ["--doc", DOC, "--history-version-id", "a/b"],
    says: /not an ID/,
  },
  "docs +history-revert-status": {
    // The task a revert started earlier.
    setup: (emu) => fixtures.seedObject(emu.db, REVERT_TASKS, "7312345678901234568", {}),
    argv: ["--doc", DOC, "--task-id", "7312345678901234568"],
    sends: [`GET /docs_ai/v1/documents/${DOC}/history/revert_status`],
    bad: ["--doc", DOC],
    says: /task-id/,
  },
  "docs +media-upload": {
    argv: ["--file", "chart.png", "--parent-type", "docx_image", "--parent-node", DOC],
    files: { "chart.png": "PNGDATA" },
    sends: ["POST /drive/v1/medias/upload_all"],
    bad: ["--file", "chart.png", "--parent-type", "slide", "--parent-node", DOC],
    says: /parent-type/,
  },
  "docs +media-download": {
    argv: ["--token", "boxcnMedia0001", "--output", "m.bin"],
    sends: ["GET /drive/v1/medias/boxcnMedia0001/download"],
    bad: ["--token", "a b"],
    says: /not a token/,
  },
  "docs +media-preview": {
    argv: ["--token", "boxcnMedia0001"],
    sends: ["GET /drive/v1/medias/boxcnMedia0001/preview_download"],
    bad: [],
    says: /token/,
  },
  "docs +whiteboard-update": {
    argv: ["--whiteboard-token", WB, "--source", "graph TD; A-->B", "--input-format", "mermaid"],
    sends: [`POST /board/v1/whiteboards/${WB}/nodes/plantuml`],
    bad: ["--whiteboard-token", WB, "--source", "x", "--input-format", "svg"],
    says: /input-format/,
  },
  "whiteboard +query": {
    argv: ["--whiteboard-token", WB],
    sends: [`GET /board/v1/whiteboards/${WB}/nodes`],
    bad: ["--whiteboard-token", "a/b c"],
    says: /not a token/,
  },
  "whiteboard +export": {
    argv: ["--whiteboard-token", WB, "--output", "b.png"],
    sends: [`GET /board/v1/whiteboards/${WB}/download_as_image`],
    bad: [],
    says: /whiteboard-token/,
  },
  "whiteboard +update": {
    argv: ["--whiteboard-token", WB, "--source", '[{"type":"text_shape"}]', "--input-format", "nodes"],
    sends: [`POST /board/v1/whiteboards/${WB}/nodes`],
    bad: ["--whiteboard-token", WB, "--source", "not json", "--input-format", "nodes"],
    says: /JSON array/,
  },
  "markdown +create": {
    argv: ["--file", "notes.md"],
    files: { "notes.md": "# Notes\n\n![img](x.png)\n" },
    sends: ["POST /drive/v1/files/upload_all"],
    bad: ["--file", "notes.md", "--name", "notes.txt"],
    says: /must end in \.md/,
  },
};

/**
 * Covered by tests/shortcuts_docs_test.ts, by the round trip below, or by
 * tests/shortcuts_markdown_docs_extra_test.ts (diff/patch/overwrite and the cover resource).
 */
const ELSEWHERE = [
  "docs +create",
  "docs +fetch",
  "docs +update",
  "markdown +fetch",
  "markdown +diff",
  "markdown +patch",
  "markdown +overwrite",
  "docs +resource-download",
  "docs +resource-update",
  "docs +resource-delete",
];

shortcutCaseTests(CASES, {
  coverage: {
    title: "every docs, whiteboard and markdown shortcut has a case",
    services: ["docs", "whiteboard", "markdown"],
    elsewhere: ELSEWHERE,
  },
  unplanned: /upload_all/,
  // The document these cases work on.
  setup: (emu) => fixtures.seedDoc(emu.db, DOC, "Plan", "# Plan\n\nShip it.\n", Date.UTC(2026, 10, 1)),
});

Deno.test("markdown +create then +fetch round-trips the file byte for byte (images and tables untouched)", async () => {
  await withSuite(async (_emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    const text = "# Plan\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n![chart](chart.png)\n";
    await Deno.writeTextFile(join(cwd, "plan.md"), text);
    const up = await larkit(["markdown", "+create", "--file", "plan.md"], { cwd });
    assert.equal(up.code, 0, up.stderr);
    const token = up.json<{ data: { file_token: string } }>().data.file_token;
    const down = await larkit(["markdown", "+fetch", "--file-token", token, "--output", "copy.md"], { cwd });
    assert.equal(down.code, 0, down.stderr);
    assert.equal(await Deno.readTextFile(join(cwd, "copy.md")), text);
    const again = await larkit(["markdown", "+fetch", "--file-token", token, "--output", "copy.md"], { cwd });
    assert.equal(again.code, 2);
    assert.match(again.errorJson().error.message, /already exists/);
  });
});

Deno.test("docs +media-upload then +media-download returns the same bytes", async () => {
  await withSuite(async (_emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeTextFile(join(cwd, "a.png"), "PNG-BYTES");
    const up = await larkit([
      "docs",
      "+media-upload",
      "--file",
      "a.png",
      "--parent-type",
      "docx_image",
      "--parent-node",
      DOC,
    ], {
      cwd,
    });
    assert.equal(up.code, 0, up.stderr);
    const token = up.json<{ data: { file_token: string } }>().data.file_token;
    const down = await larkit(["docs", "+media-download", "--token", token, "--output", "b.png"], { cwd });
    assert.equal(down.code, 0, down.stderr);
    assert.equal(await Deno.readTextFile(join(cwd, "b.png")), "PNG-BYTES");
  });
});

Deno.test("docs +fetch --scope: outline, one section, keyword lines; bad combinations refused before sending", async () => {
  await withSuite(async (emu, larkit) => {
    const md = "# Plan\n\nintro\n\n## Setup\n\ninstall it\n\n### Detail\n\nmore\n\n## Deadline\n\nFriday\n";
    const c = await larkit(["docs", "+create", "--markdown", "-", "--as", "bot"], { stdin: md });
    assert.equal(c.code, 0, c.stderr);
    const doc = c.json<{ data: { doc_id: string } }>().data.doc_id;
    const get = async (...extra: string[]) => {
      const r = await larkit(["docs", "+fetch", "--doc", doc, "--as", "bot", ...extra]);
      assert.equal(r.code, 0, r.stderr);
      return r.json<{ data: { markdown: string; scope?: string } }>().data;
    };
    const outline = await get("--scope", "outline");
    assert.ok(
      outline.markdown.includes("## Setup") && outline.markdown.includes("### Detail"),
      outline.markdown,
    );
    assert.ok(!outline.markdown.includes("install it"));
    const section = await get("--scope", "section", "--section", "Setup");
    assert.ok(section.markdown.startsWith("## Setup"), section.markdown);
    assert.ok(section.markdown.includes("more") && !section.markdown.includes("Friday"), section.markdown);
    const kw = await get("--scope", "keyword", "--keyword", "friday", "--context-lines", "0");
    assert.equal(kw.markdown, "Friday");
    emu.clearRequests();
    const bad = await larkit(["docs", "+fetch", "--doc", doc, "--scope", "section", "--as", "bot"]);
    assert.equal(bad.code, 2);
    assert.match(bad.errorJson().error.message, /--section/);
    const missing = await larkit([
      "docs",
      "+fetch",
      "--doc",
      doc,
      "--scope",
      "section",
      "--section",
      "Nope",
      "--as",
      "bot",
    ]);
    assert.equal(missing.errorJson().error.subtype, "not_found");
  });
});
