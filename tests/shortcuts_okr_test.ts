/**
 * okr shortcuts end to end against the emulator (the generic handler serves OKR v1 progress records and the
 * supplementary OKR v2 entries): per shortcut its main path, a dry run that sends nothing and fits the
 * registry, and one bad input; then the batch's rollback when a key result cannot be created.
 */
import assert from "node:assert/strict";
import { type Emulator, fixtures } from "./helpers/emulator.ts";
import { type ShortcutCase, shortcutCaseTests } from "./helpers/shortcut_cases.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

const CYCLE = "7012345678901234567";
const OBJ = "7012345678901234568";
const KR = "7012345678901234569";
const PROGRESS = "7012345678901234570";

const CASES: Record<string, ShortcutCase> = {
  "okr +cycle-list": {
    argv: ["--user-id", fixtures.USERS.alice.open_id, "--time-range", "2026-01--2026-12"],
    sends: ["GET /okr/v2/cycles"],
    bad: ["--user-id", fixtures.USERS.alice.open_id, "--time-range", "2026"],
    says: /--time-range must look like/,
  },
  "okr +cycle-detail": {
    argv: ["--cycle-id", CYCLE],
    sends: [`GET /okr/v2/cycles/${CYCLE}/objectives`],
    bad: ["--cycle-id", "../x"],
    says: /is not an ID/,
  },
  "okr +create": {
    argv: ["--level", "key-result", "--objective-id", OBJ, "--content", "Ship onboarding v2"],
    sends: [`POST /okr/v2/objectives/${OBJ}/key_results`],
    bad: ["--level", "objective", "--content", "x"],
    says: /--cycle-id is required with --level objective/,
  },
  "okr +patch": {
    argv: ["--level", "key-result", "--target-id", KR, "--score", "0.7", "--deadline", "2026-12-31"],
    sends: [`PATCH /okr/v2/key_results/${KR}`],
    bad: ["--level", "key-result", "--target-id", KR, "--score", "1.5"],
    says: /from 0 to 1/,
  },
  "okr +batch-create": {
    argv: [
      "--cycle-id",
      CYCLE,
      "--input",
      '[{"content":"Grow","key_results":[{"content":"A"},{"content":"B"}]}]',
    ],
    sends: [`POST /okr/v2/cycles/${CYCLE}/objectives`],
    bad: ["--cycle-id", CYCLE, "--input", '[{"title":"x"}]'],
    says: /--input/,
  },
  "okr +reorder": {
    argv: ["--level", "objective", "--cycle-id", CYCLE, "--ids", "a,b"],
    sends: [`GET /okr/v2/cycles/${CYCLE}/objectives`],
    bad: ["--level", "objective", "--cycle-id", CYCLE, "--ids", "a,a"],
    says: /names an item twice/,
  },
  "okr +weight": {
    argv: ["--level", "key-result", "--objective-id", OBJ, "--weights", "k1=0.6,k2=0.4"],
    sends: [`GET /okr/v2/objectives/${OBJ}/key_results`],
    bad: ["--level", "key-result", "--objective-id", OBJ, "--weights", "k1=0.6,k2=0.6"],
    says: /add up to 1/,
  },
  "okr +indicator-update": {
    setup: (emu) =>
      seed(emu, `/open-apis/okr/v2/key_results/${KR}/indicators`, "ind_1", { current_value: 10 }),
    argv: ["--level", "key-result", "--id", KR, "--value", "42"],
    sends: [`GET /okr/v2/key_results/${KR}/indicators`],
    bad: ["--level", "key-result", "--id", KR, "--value", "lots"],
    says: /must be a number/,
  },
  "okr +progress-list": {
    argv: ["--target-id", KR, "--target-type", "key_result", "--page-all"],
    sends: [`GET /okr/v2/key_results/${KR}/progresses`],
    bad: ["--target-id", KR, "--target-type", "kr"],
    says: /must be one of: objective, key_result/,
  },
  "okr +progress-get": {
    argv: ["--progress-id", PROGRESS],
    sends: [`GET /okr/v1/progress_records/${PROGRESS}`],
    bad: ["--progress-id", "abc"],
    says: /numeric ID/,
  },
  "okr +progress-create": {
    argv: ["--target-id", KR, "--target-type", "key_result", "--content", "Shipped\nthe beta"],
    sends: ["POST /okr/v1/progress_records"],
    bad: ["--target-id", KR, "--target-type", "key_result", "--content", "x", "--style", "richtext"],
    says: /must be JSON/,
  },
  "okr +progress-update": {
    argv: ["--progress-id", PROGRESS, "--content", '{"blocks":[]}', "--style", "richtext"],
    sends: [`PUT /okr/v1/progress_records/${PROGRESS}`],
    bad: ["--progress-id", PROGRESS, "--content", '{"x":1}', "--style", "richtext"],
    says: /needs a "blocks" array/,
  },
  "okr +progress-delete": {
    // The main path runs as the user only: a delete cannot run twice.
    runAs: [true],
    argv: ["--progress-id", PROGRESS, "--yes"],
    sends: [`DELETE /okr/v1/progress_records/${PROGRESS}`],
    bad: ["--progress-id", "1 OR 1", "--yes"],
    says: /numeric ID/,
  },
};

/** An object the tenant already has in a generic collection (the emulator's generic store). */
function seed(emu: Emulator, collection: string, id: string, body: Record<string, unknown>): void {
  fixtures.seedObject(emu.db, collection, id, { id, ...body });
}

/** The cycle, objective, key result and progress record the cases name. */
function seedOkr(emu: Emulator): void {
  seed(emu, "/open-apis/okr/v2/cycles", CYCLE, {});
  seed(emu, "/open-apis/okr/v2/objectives", OBJ, { cycle_id: CYCLE });
  seed(emu, "/open-apis/okr/v2/key_results", KR, { objective_id: OBJ });
  seed(emu, "/open-apis/okr/v1/progress_records", PROGRESS, { progress_id: PROGRESS });
}

shortcutCaseTests(CASES, {
  coverage: { title: "every okr shortcut has a case here", services: ["okr"], atLeast: 12 },
  asUser: true,
  // Both identities, so a shortcut cannot work for one only.
  runAs: [true, false],
  setup: seedOkr,
});

Deno.test("okr +progress-create sends the text as rich text on the right target type", async () => {
  await withSuite(async (emu, larkit) => {
    const r = await larkit(
      ["okr", "+progress-create", "--target-id", OBJ, "--target-type", "objective", "--content", "a\nb"],
      { asUser: true },
    );
    assert.equal(r.code, 0, r.stderr);
    const body = suiteCalls(emu).find((q) => q.method === "POST")?.body as Record<string, unknown>;
    assert.equal(body.target_type, 2);
    assert.deepEqual(
      (body.content as { blocks: { paragraph: { elements: { textRun: { text: string } }[] } }[] }).blocks
        .map((b) => b.paragraph.elements[0].textRun.text),
      ["a", "b"],
    );
    assert.equal(body.source_title, "larkit");
  });
});

Deno.test("okr +batch-create: a failed key result removes the objectives made and says which", async () => {
  await withSuite(async (emu, larkit) => {
    const input = JSON.stringify([
      { content: "One" },
      { content: "Two", key_results: [{ content: "2a" }] },
    ]);
    // Both objectives are made; the second's key result (the first request under /objectives/) fails.
    emu.faults.serverError({ path: "/open-apis/okr/v2/objectives/", times: 1, status: 500 });
    const r = await larkit(["okr", "+batch-create", "--cycle-id", CYCLE, "--input", input], { asUser: true });
    assert.notEqual(r.code, 0);
    const err = r.errorJson().error as unknown as {
      message: string;
      detail: { rolled_back: string[]; left: string[] };
    };
    assert.match(err.message, /batch rolled back: 2 of 2 objectives removed/);
    assert.equal(err.detail.rolled_back.length, 2);
    assert.deepEqual(err.detail.left, []);
    const deletes = suiteCalls(emu).filter((q) => q.method === "DELETE").map((q) => q.path);
    assert.deepEqual(deletes, err.detail.rolled_back.map((id) => `/open-apis/okr/v2/objectives/${id}`));
  });
});

Deno.test("okr +indicator-update reports the old value; +weight refuses weights that skip a key result", async () => {
  await withSuite(async (emu, larkit) => {
    seed(emu, `/open-apis/okr/v2/key_results/${KR}/indicators`, "ind_1", { current_value: 10 });
    const r = await larkit([
      "okr",
      "+indicator-update",
      "--level",
      "key-result",
      "--id",
      KR,
      "--value",
      "12.5",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json<{ data: unknown }>().data, {
      level: "key-result",
      id: KR,
      indicator_id: "ind_1",
      previous: 10,
      value: 12.5,
    });
    const patch = suiteCalls(emu).find((q) => q.method === "PATCH");
    assert.deepEqual([patch?.path, patch?.body], ["/open-apis/okr/v2/indicators/ind_1", {
      current_value: 12.5,
    }]);

    seed(emu, `/open-apis/okr/v2/objectives/${OBJ}/key_results`, "k1", {});
    seed(emu, `/open-apis/okr/v2/objectives/${OBJ}/key_results`, "k2", {});
    emu.clearRequests();
    const w = await larkit([
      "okr",
      "+weight",
      "--level",
      "key-result",
      "--objective-id",
      OBJ,
      "--weights",
      "k1=1",
    ]);
    assert.equal(w.code, 2, w.stderr);
    assert.match(w.errorJson().error.message, /missing: k2/);
    assert.ok(!suiteCalls(emu).some((q) => q.method === "PUT"));
  });
});
