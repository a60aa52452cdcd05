/**
 * okr shortcuts end to end against the emulator (the generic handler serves OKR v1 progress records and the
 * supplementary OKR v2 entries): per shortcut its main path, a dry run that sends nothing and fits the
 * registry, and one bad input; then the batch's rollback when a key result cannot be created.
 */
import assert from "node:assert/strict";
import { type Emulator, fixtures, tenantToken } from "./helpers/emulator.ts";
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
    // The emulator creates a key result under an objective it holds.
    setup: (emu) => seed(emu, `/open-apis/okr/v2/cycles/${CYCLE}/objectives`, OBJ, {}),
    argv: ["--level", "key-result", "--objective-id", OBJ, "--content", "Ship onboarding v2"],
    sends: [`POST /okr/v2/objectives/${OBJ}/key_results`],
    bad: ["--level", "objective", "--content", "x"],
    says: /--cycle-id is required with --level objective/,
  },
  "okr +patch": {
    // The emulator patches the key result its list holds (an unknown one is not found).
    setup: (emu) => seed(emu, `/open-apis/okr/v2/objectives/${OBJ}/key_results`, KR, { score: 0 }),
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
    setup: (emu) =>
      ["a", "b"].forEach((id) => seed(emu, `/open-apis/okr/v2/cycles/${CYCLE}/objectives`, id, {})),
    argv: ["--level", "objective", "--cycle-id", CYCLE, "--ids", "b,a"],
    sends: [`GET /okr/v2/cycles/${CYCLE}/objectives`, `PUT /okr/v2/cycles/${CYCLE}/objectives_position`],
    bad: ["--level", "objective", "--cycle-id", CYCLE, "--ids", "a,a"],
    says: /names an item twice/,
  },
  "okr +weight": {
    setup: (emu) =>
      ["k1", "k2"].forEach((id) => seed(emu, `/open-apis/okr/v2/objectives/${OBJ}/key_results`, id, {})),
    argv: ["--level", "key-result", "--objective-id", OBJ, "--weights", "k1=0.6,k2=0.4"],
    sends: [`GET /okr/v2/objectives/${OBJ}/key_results`, `PUT /okr/v2/objectives/${OBJ}/key_results_weight`],
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

Deno.test("okr +reorder and +weight send the fields the suite takes, and the lists show the change", async () => {
  await withSuite(async (emu, larkit) => {
    const objectives = `/open-apis/okr/v2/cycles/${CYCLE}/objectives`;
    const krs = `/open-apis/okr/v2/objectives/${OBJ}/key_results`;
    ["o1", "o2", "o3"].forEach((id) => seed(emu, objectives, id, {}));
    ["k1", "k2"].forEach((id) => seed(emu, krs, id, {}));
    for (
      const argv of [
        ["+reorder", "--level", "objective", "--cycle-id", CYCLE, "--ids", "o3,o1,o2"],
        ["+reorder", "--level", "key-result", "--objective-id", OBJ, "--ids", "k2,k1"],
        ["+weight", "--level", "objective", "--cycle-id", CYCLE, "--weights", "o1=0.5,o2=0.3,o3=0.2"],
        ["+weight", "--level", "key-result", "--objective-id", OBJ, "--weights", "k1=0.25,k2=0.75"],
      ]
    ) {
      const r = await larkit(["okr", ...argv]);
      assert.equal(r.code, 0, `${argv.join(" ")}: ${r.stderr}`);
    }
    const puts = suiteCalls(emu).filter((q) => q.method === "PUT").map((q) => [q.path, q.body]);
    assert.deepEqual(puts, [
      [`${objectives}_position`, { objective_ids: ["o3", "o1", "o2"] }],
      [`${krs}_position`, { key_result_ids: ["k2", "k1"] }],
      [`${objectives}_weight`, {
        objective_weights: [
          { objective_id: "o1", weight: 0.5 },
          { objective_id: "o2", weight: 0.3 },
          { objective_id: "o3", weight: 0.2 },
        ],
      }],
      [`${krs}_weight`, {
        key_result_weights: [{ key_result_id: "k1", weight: 0.25 }, { key_result_id: "k2", weight: 0.75 }],
      }],
    ]);
    // The emulator stored both: the list comes back in the new order with the new weights.
    const detail = await larkit(["okr", "+cycle-detail", "--cycle-id", CYCLE]);
    assert.equal(detail.code, 0, detail.stderr);
    const objectives_ = detail.json<{ data: { objectives: { id: string; weight: number }[] } }>().data
      .objectives;
    assert.deepEqual(objectives_.map((o) => [o.id, o.weight]), [["o3", 0.2], ["o1", 0.5], ["o2", 0.3]]);
  });
});

Deno.test("the emulator refuses the old reorder/weight bodies with the suite's field violations", async () => {
  await withSuite(async (emu) => {
    seed(emu, `/open-apis/okr/v2/cycles/${CYCLE}/objectives`, "o1", {});
    const token = await tenantToken(emu);
    const put = async (path: string, body: unknown) => {
      const res = await fetch(`${emu.url}${path}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    };
    const a = await put(`/open-apis/okr/v2/cycles/${CYCLE}/objectives_position`, { ids: ["o1"] });
    assert.equal(a.status, 400);
    assert.equal(a.body.code, 99992402);
    assert.ok(a.body.error.field_violations.some((v: { field: string }) => v.field === "objective_ids"));
    const b = await put(`/open-apis/okr/v2/cycles/${CYCLE}/objectives_weight`, {
      weights: [{ id: "o1", weight: 1 }],
    });
    assert.equal(b.status, 400);
    assert.ok(b.body.error.field_violations.some((v: { field: string }) => v.field === "objective_weights"));
  });
});

Deno.test("okr +create and +patch write OKR v2 blocks; +cycle-detail reads back what was written", async () => {
  await withSuite(async (emu, larkit) => {
    const made = await larkit(
      ["okr", "+create", "--level", "objective", "--cycle-id", CYCLE, "--content", "Grow\nusers"],
      { asUser: true },
    );
    assert.equal(made.code, 0, made.stderr);
    const objective = made.json<{ data: { id: string } }>().data.id;
    const post = suiteCalls(emu).find((q) => q.method === "POST")?.body as Record<string, unknown>;
    assert.deepEqual(post.content, {
      blocks: ["Grow", "users"].map((text) => ({
        block_element_type: "paragraph",
        paragraph: { elements: [{ paragraph_element_type: "textRun", text_run: { text } }] },
      })),
    });
    const kr = await larkit(
      ["okr", "+create", "--level", "key-result", "--objective-id", objective, "--content", "Ship it"],
      { asUser: true },
    );
    assert.equal(kr.code, 0, kr.stderr);
    const patched = await larkit(
      [
        "okr",
        "+patch",
        "--level",
        "objective",
        "--target-id",
        objective,
        "--content",
        "Grow more",
        "--score",
        "0.5",
      ],
      { asUser: true },
    );
    assert.equal(patched.code, 0, patched.stderr);
    const detail = await larkit(["okr", "+cycle-detail", "--cycle-id", CYCLE], { asUser: true });
    assert.equal(detail.code, 0, detail.stderr);
    type Item = { id: string; text: string; score: number; content: { blocks: Record<string, unknown>[] } };
    const [o] = detail.json<{ data: { objectives: (Item & { key_results: Item[] })[] } }>().data.objectives;
    assert.deepEqual([o.id, o.text, o.score], [objective, "Grow more", 0.5]);
    assert.equal(o.content.blocks[0].block_element_type, "paragraph");
    assert.deepEqual(o.key_results.map((k) => k.text), ["Ship it"]);
    // An objective that does not exist is not found, for a patch and for a key result under it.
    for (
      const argv of [
        ["+patch", "--level", "objective", "--target-id", "7999999999999999999", "--score", "0.1"],
        ["+create", "--level", "key-result", "--objective-id", "7999999999999999999", "--content", "x"],
      ]
    ) {
      const missing = await larkit(["okr", ...argv], { asUser: true });
      assert.notEqual(missing.code, 0);
      assert.match(missing.errorJson().error.message, /not found: objective 7999999999999999999/);
    }
  });
});

Deno.test("okr +cycle-list --time-range keeps the cycles overlapping the months, without a query the method lacks", async () => {
  await withSuite(async (emu, larkit) => {
    const ms = (date: string) => String(Date.parse(`${date}T00:00:00Z`));
    seed(emu, "/open-apis/okr/v2/cycles", "c2025", {
      start_time: ms("2025-01-01"),
      end_time: ms("2025-06-30"),
    });
    seed(emu, "/open-apis/okr/v2/cycles", "c2026", {
      start_time: ms("2026-01-01"),
      end_time: ms("2026-06-30"),
    });
    seed(emu, "/open-apis/okr/v2/cycles", "c2027", {
      start_time: ms("2026-12-31"),
      end_time: ms("2027-06-30"),
    });
    const r = await larkit(
      ["okr", "+cycle-list", "--user-id", fixtures.USERS.alice.open_id, "--time-range", "2026-02--2026-12"],
      { asUser: true },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json<{ data: { id: string }[] }>().data.map((c) => c.id), ["c2026", "c2027"]);
    const get = suiteCalls(emu).find((q) => q.path === "/open-apis/okr/v2/cycles");
    assert.ok(get && !("time_range" in get.query), JSON.stringify(get?.query));
  });
});

Deno.test("okr +create / +patch refuse notes and a category for a key result, which has neither", async () => {
  await withSuite(async (emu, larkit) => {
    const p = await larkit(["okr", "+patch", "--level", "key-result", "--target-id", KR, "--notes", "n"], {
      asUser: true,
    });
    assert.equal(p.code, 2, p.stderr);
    assert.match(p.errorJson().error.message, /--notes is for objectives/);
    const c = await larkit(
      [
        "okr",
        "+create",
        "--level",
        "key-result",
        "--objective-id",
        OBJ,
        "--content",
        "x",
        "--category-id",
        "c1",
      ],
      { asUser: true },
    );
    assert.equal(c.code, 2, c.stderr);
    assert.match(c.errorJson().error.message, /--category-id is for objectives/);
    assert.deepEqual(suiteCalls(emu).filter((q) => q.method !== "GET"), []);
  });
});
