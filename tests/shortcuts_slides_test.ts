/**
 * slides shortcuts end to end against the emulator (the generic handler serves the supplementary slides_ai
 * methods): per shortcut its main path, its dry run (nothing sent, the plan fits the registry's request
 * schemas) and one bad input (exit 2, validation, nothing sent).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadShortcuts } from "../shortcuts/index.ts";
import { dryRunProblems, type Planned } from "./helpers/plan_fit.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

const P = "sldcnSandboxDeck0001";
const X = `/slides_ai/v1/xml_presentations/${P}`;
const SLIDE = "<slide><shape>Hello</shape></slide>";

interface Case {
  argv: string[];
  sends: string[];
  bad: string[];
  says: RegExp;
  files?: Record<string, string>;
}

const CASES: Record<string, Case> = {
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

Deno.test("every slides shortcut has a case here", async () => {
  const mine = (await loadShortcuts("slides")).map((s) => `${s.service} ${s.command}`);
  assert.deepEqual(Object.keys(CASES).sort(), mine.sort());
});

for (const [name, c] of Object.entries(CASES)) {
  Deno.test(`${name}: main path, a dry run that sends nothing and fits the registry, a bad input`, async () => {
    await withSuite(async (emu, larkit) => {
      const cwd = await Deno.makeTempDir();
      for (const [f, t] of Object.entries(c.files ?? {})) await Deno.writeTextFile(join(cwd, f), t);
      const cmd = name.split(" ");
      const r = await larkit([...cmd, ...c.argv], { cwd });
      assert.equal(r.code, 0, r.stderr);
      const sent = suiteCalls(emu).map((q) => `${q.method} ${q.path.replace("/open-apis", "")}`);
      for (const want of c.sends) {
        assert.ok(sent.includes(want), `${name}: ${want} not in ${sent.join(", ")}`);
      }

      emu.clearRequests();
      const dry = await larkit([...cmd, ...c.argv, "--dry-run"], { cwd });
      assert.equal(dry.code, 0, dry.stderr);
      assert.deepEqual(emu.requests(), []);
      const planned = dry.json<{ data: { api: Planned[] } }>().data.api.filter((p) =>
        !p.url.includes("upload_all")
      );
      assert.deepEqual(await dryRunProblems(planned), []);

      const bad = await larkit([...cmd, ...c.bad], { cwd });
      assert.equal(bad.code, 2, bad.stderr);
      assert.equal(bad.errorJson().error.type, "validation");
      assert.match(bad.errorJson().error.message, c.says);
      assert.deepEqual(suiteCalls(emu), []);
    });
  });
}
