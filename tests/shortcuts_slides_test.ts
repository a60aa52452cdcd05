/**
 * slides shortcuts end to end against the emulator (the generic handler serves the supplementary slides_ai
 * methods): per shortcut its main path, its dry run (nothing sent, the plan fits the registry's request
 * schemas) and one bad input (exit 2, validation, nothing sent).
 */
import assert from "node:assert/strict";
import { fixtures } from "./helpers/emulator.ts";
import { REVERT_TASKS } from "../sandbox/routes/doc_tasks.ts";
import { type ShortcutCase, shortcutCaseTests } from "./helpers/shortcut_cases.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

const P = "sldcnSandboxDeck0001";
const X = `/slides_ai/v1/xml_presentations/${P}`;
const SLIDE = "<slide><shape>Hello</shape></slide>";

const CASES: Record<string, ShortcutCase> = {
  "slides +create": {
    argv: ["--title", "Q3", "--slide", SLIDE],
    sends: ["POST /slides_ai/v1/xml_presentations"],
    bad: ["--title", "Q3", "--slide", "<div/>"],
    says: /<slide>/,
  },
  "slides +xml-get": {
    argv: ["--presentation", P, "--slide-id", "s1"],
    sends: [`GET ${X}/slide`],
    bad: ["--presentation", P, "--slide-id", "a/b"],
    says: /not an ID/,
  },
  "slides +add-slide": {
    argv: ["--presentation", P, "--slide", SLIDE, "--before-slide-id", "s2"],
    sends: [`POST ${X}/slide`],
    bad: ["--presentation", P, "--slide", "plain text"],
    says: /<slide>/,
  },
  "slides +delete-slide": {
    argv: ["--presentation", P, "--slide-id", "s3", "--yes"],
    sends: [`DELETE ${X}/slide`],
    bad: ["--presentation", P, "--yes"],
    says: /slide-id/,
  },
  "slides +replace-slide": {
    argv: ["--presentation", P, "--slide-id", "s2", "--content", SLIDE, "--revision-id", "12"],
    sends: [`POST ${X}/slide/replace`],
    bad: ["--presentation", P, "--slide-id", "s2", "--content", SLIDE, "--revision-id", "-1"],
    says: /revision-id/,
  },
  "slides +update-slide": {
    argv: ["--presentation", P, "--slide-id", "s2", "--content", SLIDE],
    sends: [`POST ${X}/slide/replace`],
    bad: ["--presentation", P, "--slide-id", "s2", "--content", "<slide>"],
    says: /<slide>/,
  },
  "slides +history-list": {
    argv: ["--presentation", P],
    sends: [`GET ${X}/histories`],
    bad: ["--presentation", "a b"],
    says: /not a token/,
  },
  "slides +history-revert": {
    argv: ["--presentation", P, "--history-version-id", "7312345678901234567"],
    sends: [`POST ${X}/history/revert`],
    bad: ["--presentation", P, "--history-version-id", "a/b"],
    says: /not a token/,
  },
  "slides +history-revert-status": {
    // The task a revert started earlier.
    setup: (emu) => fixtures.seedObject(emu.db, REVERT_TASKS, "7312345678901234568", {}),
    argv: ["--presentation", P, "--task-id", "7312345678901234568"],
    sends: [`GET ${X}/history/revert_status`],
    bad: ["--presentation", P],
    says: /task-id/,
  },
  "slides +media-upload": {
    argv: ["--file", "c.png", "--presentation", P],
    files: { "c.png": "PNG" },
    sends: ["POST /drive/v1/medias/upload_all"],
    bad: ["--file", "missing.png", "--presentation", P],
    says: /not found/,
  },
};

shortcutCaseTests(CASES, {
  coverage: { title: "every slides shortcut has a case here", services: ["slides"] },
  unplanned: /upload_all/,
  // The deck the cases edit, as `+create` would have made it.
  setup: (emu) =>
    fixtures.seedPath(emu.db, `/open-apis${X}`, { xml_presentation_id: P, title: "Quarterly review" }),
});

Deno.test("slides +media-upload uploads with a parent_type in upload_all's enum (slide_file)", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeTextFile(`${cwd}/c.png`, "PNG");
    const r = await larkit(["slides", "+media-upload", "--file", "c.png", "--presentation", P], { cwd });
    assert.equal(r.code, 0, r.stderr);
    const up = suiteCalls(emu).find((q) => q.path === "/open-apis/drive/v1/medias/upload_all");
    assert.equal((up?.body as Record<string, unknown>).parent_type, "slide_file");
  });
});
