import assert from "node:assert/strict";
import * as z from "zod";
import { LarkitError } from "../../cli/output/errors.ts";
import { defineShortcut } from "../declare.ts";
import { runShortcut } from "../pipeline.ts";
import { testRun } from "../test_context.ts";
import { itemsPage, listPages, pageFlags, PageInfo } from "./paging.ts";

const list = defineShortcut({
  service: "test",
  command: "+list",
  description: "a list",
  examples: [],
  risk: "read",
  authTypes: ["bot"],
  scopes: {},
  hasFormat: true,
  flags: pageFlags({ default: 2, max: 5, noun: "things" }),
  async run(ctx) {
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: "/open-apis/test/v1/things",
      params: { kind: "a" },
      response: z.extend(PageInfo, { items: z.array(z.number()) }),
      planned: { items: [], has_more: false },
    });
    const items = pages.flatMap((p) => p.items);
    await ctx.outFormat(items, meta(items.length));
  },
});

/** Five pages of two: page n answers [2n, 2n+1] and the token of page n+1. */
function run(flags: Record<string, string | boolean | undefined>) {
  const t = testRun({
    respond: (req) => {
      const n = Number(req.query.page_token ?? "0");
      return { items: [2 * n, 2 * n + 1], has_more: n < 4, page_token: n < 4 ? String(n + 1) : "" };
    },
  });
  return { t, done: runShortcut(t.run, list, { dryRun: false, yes: true, flags }) };
}

Deno.test("listPages: one page keeps the token for the next; --page-all follows it up to --page-limit", async () => {
  const one = run({ "page-token": "3" });
  await one.done;
  assert.deepEqual(JSON.parse(one.t.out.text()).data, [6, 7]);
  assert.deepEqual(JSON.parse(one.t.out.text()).meta, { count: 2, has_more: true, page_token: "4" });
  assert.deepEqual(one.t.requests[0].query, { kind: "a", page_size: "2", page_token: "3" });

  const all = run({ "page-all": true });
  await all.done;
  assert.deepEqual(JSON.parse(all.t.out.text()).data, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(JSON.parse(all.t.out.text()).meta, { count: 10, has_more: false });

  const limited = run({ "page-all": true, "page-limit": "2" });
  await limited.done;
  assert.deepEqual(JSON.parse(limited.t.out.text()).meta, {
    count: 4,
    has_more: true,
    page_token: "2",
    truncated: true,
  });
  assert.equal(limited.t.requests.length, 2);

  const unlimited = run({ "page-all": true, "page-limit": "0" });
  await unlimited.done;
  assert.deepEqual(JSON.parse(unlimited.t.out.text()).meta, { count: 10, has_more: false });
  assert.equal(unlimited.t.requests.length, 5);
});

Deno.test("listPages: --page-all with --page-token, and a page size over the limit, are refused unsent", async () => {
  for (const flags of [{ "page-all": true, "page-token": "3" }, { "page-size": "6" }]) {
    const r = run(flags);
    await assert.rejects(r.done, (e) => e instanceof LarkitError && e.type === "validation");
    assert.equal(r.t.requests.length, 0);
  }
});

Deno.test("itemsPage: a page may leave its items out or send null; the paging fields default as in PageInfo", () => {
  const Page = itemsPage(z.number());
  assert.deepEqual(Page.parse({ items: [1, 2], has_more: true, page_token: "t" }), {
    items: [1, 2],
    has_more: true,
    page_token: "t",
  });
  assert.deepEqual(Page.parse({}), { has_more: false });
  assert.deepEqual(Page.parse({ items: null }), { items: null, has_more: false });
  assert.equal(Page.safeParse({ items: ["a"] }).success, false);
});
