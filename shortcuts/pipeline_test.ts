import assert from "node:assert/strict";
import { join } from "node:path";
import * as z from "zod";
import { errors, LarkitError } from "../cli/output/errors.ts";
import { defineShortcut, flag } from "./declare.ts";
import { type Invocation, runShortcut } from "./pipeline.ts";
import { testRun, type TestRunOptions } from "./test_context.ts";

/** A high-risk shortcut that records what ran; its one flag takes JSON from a file or stdin. */
function probe() {
  const calls: string[] = [];
  const shortcut = defineShortcut({
    service: "probe",
    command: "+probe",
    description: "a probe",
    examples: [],
    risk: "high-risk-write",
    authTypes: ["user", "bot"],
    scopes: { user: ["probe:write"], bot: ["probe:write"] },
    hasFormat: true,
    flags: { body: flag.json("payload", { input: ["file", "stdin"] }) },
    async run(ctx) {
      const data = await ctx.api({
        method: "POST",
        path: "/open-apis/probe",
        body: ctx.flags.body,
        response: z.looseObject({ planned: z.optional(z.boolean()) }),
        planned: { planned: true },
      });
      calls.push(data.planned ? "plan" : "execute");
      await ctx.outFormat(data);
    },
  });
  return { shortcut, calls };
}

const inv = (over: Partial<Invocation> = {}): Invocation => ({
  dryRun: false,
  yes: true,
  flags: { body: '{"a":1}' },
  ...over,
});

async function attempt(opts: TestRunOptions, invocation: Invocation) {
  const t = testRun({ respond: () => ({ done: true }), ...opts });
  const { shortcut, calls } = probe();
  let error: LarkitError | undefined;
  try {
    await runShortcut(t.run, shortcut, invocation);
  } catch (e) {
    if (!(e instanceof LarkitError)) throw e;
    error = e;
  }
  return { ...t, calls, error, identity: t.run.state.identity };
}

const GRANTED = ["probe:write"];
const MISSING: string[] = [];

// ---- each step ----

Deno.test("step 1: --as is honoured, strict mode forbids the other identity, bad --as is validation", async () => {
  assert.equal((await attempt({}, inv({ as: "bot" }))).identity, "bot");
  const strict = await attempt({ strictMode: "bot" }, inv({ as: "user" }));
  assert.deepEqual([strict.error?.type, strict.error?.subtype], ["policy", "strict_mode"]);
  assert.equal((await attempt({}, inv({ as: "robot" }))).error?.type, "validation");
});

Deno.test("step 2: an unconfigured account is a config error and nothing is sent", async () => {
  const r = await attempt({ configured: false }, inv());
  assert.equal(r.error?.type, "config");
  assert.equal(r.requests.length, 0);
});

Deno.test("step 3: a scope missing from the known grant fails before any request, with the login hint", async () => {
  const r = await attempt({ granted: MISSING }, inv({ as: "user" }));
  assert.deepEqual([r.error?.type, r.error?.subtype], ["authorization", "missing_scope"]);
  assert.match(r.error?.hint ?? "", /auth login --scope "probe:write"/);
  assert.equal(r.requests.length, 0);
  assert.deepEqual(r.calls, []);
  assert.equal((await attempt({ granted: undefined }, inv())).error, undefined, "unknown grants pass");
});

Deno.test("step 4: a bad --format and a jq syntax error fail before any request; --jq filters before a table", async () => {
  for (const over of [{ format: "yaml" }, { format: "table", jq: ".data[" }, { jq: ".data[" }]) {
    const r = await attempt({ granted: GRANTED }, inv(over));
    assert.equal(r.error?.type, "validation", JSON.stringify(over));
    assert.equal(r.requests.length, 0);
  }
  // --jq picks what a table or csv shows (the filter runs first), so the pair is no longer refused.
  const combined = await attempt({ granted: GRANTED }, inv({ format: "table", jq: ".data" }));
  assert.notEqual(combined.error?.type, "validation");
});

Deno.test("step 5: flag inputs: invalid JSON names the flag; stdin is read for -", async () => {
  const bad = await attempt({ granted: GRANTED }, inv({ flags: { body: "{nope" } }));
  assert.equal(bad.error?.type, "validation");
  assert.match(bad.error?.message ?? "", /^--body: invalid JSON/);
  const piped = await attempt({ granted: GRANTED, stdin: '{"from":"stdin"}' }, inv({ flags: { body: "-" } }));
  assert.equal(piped.error, undefined);
  assert.deepEqual(piped.requests[0].body, { from: "stdin" });
});

Deno.test("step 6: --dry-run prints the plan as the result and sends nothing", async () => {
  const r = await attempt({ granted: GRANTED }, inv({ dryRun: true, yes: false }));
  assert.equal(r.error, undefined);
  assert.equal(r.requests.length, 0);
  assert.deepEqual(r.calls, ["plan"]);
  const doc = JSON.parse(r.out.text());
  assert.equal(doc.data.as, "user");
  assert.equal(doc.data.appId, "cli_test");
  assert.deepEqual(doc.data.api, [{
    method: "POST",
    url: "http://127.0.0.1:1/open-apis/probe",
    body: { a: 1 },
  }]);
  assert.deepEqual(doc.meta, { dry_run: true });
  assert.match(r.err.text(), /=== Dry Run ===/);
});

Deno.test("step 7: a high-risk write needs --yes (confirmation_required, nothing sent); with it, execute runs", async () => {
  const refused = await attempt({ granted: GRANTED }, inv({ yes: false }));
  assert.deepEqual([refused.error?.type, refused.error?.subtype], ["confirmation", "confirmation_required"]);
  assert.match(refused.error?.hint ?? "", /--yes/);
  assert.equal(refused.requests.length, 0);
  const done = await attempt({ granted: GRANTED }, inv({ yes: true }));
  assert.deepEqual(done.calls, ["plan", "execute"], "the plan is the approval summary, then execute");
  assert.equal(done.requests.length, 1);
  assert.deepEqual(JSON.parse(done.out.text()).data, { done: true });
});

Deno.test("step 7: an agent-server approver that declines stops the write", async () => {
  const summaries: unknown[] = [];
  const r = await attempt({
    granted: GRANTED,
    approver: (req) => {
      summaries.push(req.summary);
      return Promise.resolve("decline");
    },
  }, inv({ yes: true }));
  assert.deepEqual([r.error?.type, r.error?.subtype], ["confirmation", "confirmation_required"]);
  assert.equal(r.requests.length, 0);
  assert.deepEqual((summaries[0] as { api: unknown[] }).api.length, 1);
});

// ---- the order: each test fails if the two named steps are swapped ----

Deno.test("order 1 → 3: strict mode is decided before scopes", async () => {
  const r = await attempt({ strictMode: "bot", granted: MISSING }, inv({ as: "user" }));
  assert.deepEqual([r.error?.type, r.error?.subtype], ["policy", "strict_mode"]);
});

Deno.test("order 3 → 4: a missing scope wins over a bad --format", async () => {
  const r = await attempt({ granted: MISSING }, inv({ format: "yaml" }));
  assert.deepEqual([r.error?.type, r.error?.subtype], ["authorization", "missing_scope"]);
});

Deno.test("order 4 → 5: output settings are checked before inputs are read", async () => {
  const r = await attempt({ granted: GRANTED }, inv({ format: "yaml", flags: { body: "{nope" } }));
  assert.match(r.error?.message ?? "", /--format/);
});

Deno.test("order 3 → 5: a missing scope wins over an unreadable @file (no file is read)", async () => {
  const r = await attempt({ granted: MISSING }, inv({ flags: { body: "@does-not-exist.json" } }));
  assert.deepEqual([r.error?.type, r.error?.subtype], ["authorization", "missing_scope"]);
});

Deno.test("order 3 → 6: --dry-run with a missing scope fails at the scope check, zero requests", async () => {
  const r = await attempt({ granted: MISSING }, inv({ dryRun: true }));
  assert.deepEqual([r.error?.type, r.error?.subtype], ["authorization", "missing_scope"]);
  assert.equal(r.requests.length, 0);
  assert.equal(r.out.text(), "");
});

Deno.test("order 5 → 6: --dry-run with invalid input fails validation instead of printing a plan", async () => {
  const r = await attempt({ granted: GRANTED }, inv({ dryRun: true, flags: { body: "{nope" } }));
  assert.equal(r.error?.type, "validation");
  assert.equal(r.out.text(), "");
});

Deno.test("order 6 → 7: --dry-run of a high-risk write needs no --yes and sends nothing", async () => {
  const r = await attempt({ granted: GRANTED }, inv({ dryRun: true, yes: false }));
  assert.equal(r.error, undefined);
  assert.deepEqual(r.calls, ["plan"]);
  assert.equal(r.requests.length, 0);
});

Deno.test("order 5 → 7: @file input outside the working directory is refused before confirmation", async () => {
  const cwd = await Deno.makeTempDir();
  await Deno.mkdir(join(cwd, "inside"));
  const r = await attempt(
    { granted: GRANTED, cwd: join(cwd, "inside") },
    inv({ yes: false, flags: { body: "@../x.json" } }),
  );
  assert.equal(r.error?.type, "validation");
  assert.match(r.error?.message ?? "", /^--body:/);
});

// ---- what the context enforces ----

/** A write shortcut declaring its calls with the given `run`. */
function shortcutWith(
  run: Parameters<typeof defineShortcut>[0]["run"],
  over: { idempotencyKey?: boolean } = {},
) {
  return defineShortcut({
    service: "probe",
    command: "+probe",
    description: "a probe",
    examples: [],
    risk: "write",
    authTypes: ["bot"],
    scopes: {},
    hasFormat: false,
    flags: {},
    run,
    ...over,
  });
}

async function runWith(shortcut: ReturnType<typeof shortcutWith>, invocation: Partial<Invocation> = {}) {
  const t = testRun({ respond: () => ({ id: "x1" }) });
  let error: LarkitError | undefined;
  try {
    await runShortcut(t.run, shortcut, { dryRun: false, yes: true, flags: {}, ...invocation });
  } catch (e) {
    if (!(e instanceof LarkitError)) throw e;
    error = e;
  }
  return { ...t, error };
}

const keyedCall = {
  method: "POST" as const,
  path: "/open-apis/probe/things",
  body: { name: "n" },
  dedup: { field: "uuid", in: "body" as const },
  response: z.object({ id: z.string() }),
  planned: { id: "<id>" },
};

Deno.test("a keyed write carries the run's key in its field; dry-run and meta show it", async () => {
  const shortcut = shortcutWith(async (ctx) => await ctx.out(await ctx.api(keyedCall)), {
    idempotencyKey: true,
  });
  const sent = await runWith(shortcut, { idempotencyKey: "k-7" });
  assert.equal(sent.error, undefined);
  assert.deepEqual(sent.requests[0].body, { name: "n", uuid: "k-7" });
  assert.equal(JSON.parse(sent.out.text()).meta.idempotency_key, "k-7");
  const dry = await runWith(shortcut, { idempotencyKey: "k-7", dryRun: true });
  const doc = JSON.parse(dry.out.text()).data;
  assert.equal(doc.idempotency_key, "k-7");
  assert.deepEqual(doc.api[0].body, { name: "n", uuid: "k-7" });
  const generated = await runWith(shortcut);
  assert.match((generated.requests[0].body as { uuid: string }).uuid, /^[0-9a-f-]{36}$/);
});

Deno.test("misuse is refused before anything is sent: a key without idempotencyKey, one key twice, no result", async () => {
  const undeclared = await runWith(shortcutWith(async (ctx) => await ctx.out(await ctx.api(keyedCall))));
  assert.equal(undeclared.error?.type, "internal");
  assert.equal(undeclared.requests.length, 0);
  const twice = await runWith(
    shortcutWith(async (ctx) => {
      await ctx.api(keyedCall);
      await ctx.out(await ctx.api(keyedCall));
    }, { idempotencyKey: true }),
  );
  assert.equal(twice.error?.type, "internal");
  assert.equal(twice.requests.length, 0);
  const silent = await runWith(
    shortcutWith(async (ctx) => void await ctx.api({ ...keyedCall, dedup: undefined })),
  );
  assert.equal(silent.error?.type, "internal");
  assert.match(silent.error?.message ?? "", /wrote no result/);
});

Deno.test("a flag error found after a first call in the flow still fails before anything is sent", async () => {
  const r = await runWith(shortcutWith(async (ctx) => {
    await ctx.api({ ...keyedCall, dedup: undefined });
    throw errors.validation("--late is wrong");
  }));
  assert.equal(r.error?.type, "validation");
  assert.equal(r.requests.length, 0);
});

Deno.test("a --jq that fails at run time after a write reports the write as done, with a warning", async () => {
  const r = await runWith(
    shortcutWith(async (ctx) => await ctx.out(await ctx.api({ ...keyedCall, dedup: undefined }))),
    {
      jq: '.data.id | error("boom")',
    },
  );
  assert.equal(r.error, undefined);
  assert.equal(r.requests.length, 1);
  assert.deepEqual(JSON.parse(r.out.text()).data, { id: "x1" });
  assert.match(r.err.text(), /^warning: the write succeeded, but --jq failed/m);
  assert.match(r.err.text(), /do not re-run/);
});

Deno.test("a key the suite would refuse (empty, or a uuid over 50 characters) is a validation error, nothing sent", async () => {
  const shortcut = shortcutWith(async (ctx) => await ctx.out(await ctx.api(keyedCall)), {
    idempotencyKey: true,
  });
  for (const key of ["", "x".repeat(51)]) {
    const r = await runWith(shortcut, { idempotencyKey: key });
    assert.equal(r.error?.type, "validation", JSON.stringify(key));
    assert.equal(r.requests.length, 0);
  }
});

Deno.test("paginate follows page_token while has_more, up to maxPages; the plan shows the first request", async () => {
  const t = testRun({
    respond: (req) =>
      req.query.page_token === undefined
        ? { items: [1], has_more: true, page_token: "p2" }
        : req.query.page_token === "p2"
        ? { items: [2], has_more: true, page_token: "p3" }
        : { items: [3], has_more: false },
  });
  const Page = z.object({ items: z.array(z.number()) });
  const list = (maxPages: number) =>
    shortcutWith(async (ctx) => {
      const pages = await ctx.paginate({
        method: "GET",
        path: "/open-apis/probe/items",
        params: { page_size: 1 },
        response: Page,
        planned: { items: [] },
      }, { maxPages });
      await ctx.out(pages.flatMap((p) => p.items));
    });
  await runShortcut(t.run, list(10), { dryRun: false, yes: true, flags: {} });
  assert.deepEqual(JSON.parse(t.out.text()).data, [1, 2, 3]);
  assert.deepEqual(t.requests.map((r) => r.query.page_token), [undefined, "p2", "p3"]);
  const limited = testRun({ respond: () => ({ items: [1], has_more: true, page_token: "again" }) });
  await runShortcut(limited.run, list(2), { dryRun: false, yes: true, flags: {} });
  assert.equal(limited.requests.length, 2);
  const dry = testRun({});
  await runShortcut(dry.run, list(10), { dryRun: true, yes: true, flags: {} });
  assert.equal(dry.requests.length, 0);
  assert.deepEqual(JSON.parse(dry.out.text()).data.api, [{
    method: "GET",
    url: "http://127.0.0.1:1/open-apis/probe/items",
    params: { page_size: 1 },
  }]);
});
