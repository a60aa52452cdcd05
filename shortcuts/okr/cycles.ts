/** `okr +cycle-list` (a person's OKR cycles) and `okr +cycle-detail` (a cycle's objectives and key results). */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { listPages, pageFlags } from "../im/paging.ts";
import { enc, OKR, OkrPage, plainText, READ } from "./common.ts";

const Cycle = z.looseObject({
  id: z.string(),
  start_time: z.optional(z.string()),
  end_time: z.optional(z.string()),
});

export const cycleList = defineShortcut({
  service: "okr",
  command: "+cycle-list",
  description: "List a person's OKR cycles (periods)",
  examples: [
    "larkit okr +cycle-list --user-id ou_1a2b3c --format table",
    "larkit okr +cycle-list --user-id ou_1a2b3c --time-range 2026-01--2026-12",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["okr:okr.period:readonly"], bot: ["okr:okr.period:readonly"] },
  hasFormat: true,
  columns: ["start_time", "end_time", "cycle_status", "id"],
  flags: {
    "user-id": flag.requiredString("whose cycles (open_id, ou_\u2026)"),
    "time-range": flag.string(
      "only cycles overlapping yyyy-mm--yyyy-mm (UTC months; filtered after reading)",
    ),
    ...pageFlags({ default: 100, max: 100, noun: "cycles" }),
  },
  async run(ctx) {
    const range = monthRange(ctx.flags["time-range"]);
    // The method takes no time filter: every page is read as asked, and the cycles outside the range dropped.
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: `${OKR}/v2/cycles`,
      params: { user_id: ctx.flags["user-id"], user_id_type: "open_id" },
      response: z.extend(OkrPage, { items: z.nullish(z.array(Cycle)) }),
      planned: { items: [], has_more: false },
    });
    const items = pages.flatMap((p) => p.items ?? []).filter((c) => !range || overlaps(c, range));
    await ctx.outFormat(items, meta(items.length));
  },
});

/** `2026-01--2026-06` as epoch milliseconds (UTC): the first of the first month to the end of the last. */
function monthRange(text: string | undefined): { start: number; end: number } | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d{4})-(\d{2})--(\d{4})-(\d{2})$/.exec(text);
  const [y1, m1, y2, m2] = (m?.slice(1) ?? []).map(Number);
  if (!m || m1 < 1 || m1 > 12 || m2 < 1 || m2 > 12) {
    throw errors.validation(`--time-range must look like 2026-01--2026-06, got "${text}"`);
  }
  const start = Date.UTC(y1, m1 - 1, 1);
  const end = Date.UTC(y2, m2, 1) - 1;
  if (start > end) throw errors.validation(`--time-range starts after it ends: "${text}"`);
  return { start, end };
}

/** A cycle (start and end as epoch milliseconds in text) overlapping the range; one without times does not. */
function overlaps(cycle: z.infer<typeof Cycle>, range: { start: number; end: number }): boolean {
  const start = Number(cycle.start_time);
  const end = Number(cycle.end_time);
  if (!cycle.start_time || !cycle.end_time || !Number.isFinite(start) || !Number.isFinite(end)) return false;
  return start <= range.end && end >= range.start;
}

export const cycleDetail = defineShortcut({
  service: "okr",
  command: "+cycle-detail",
  description: "Show a cycle's objectives, each with its key results",
  examples: ["larkit okr +cycle-detail --cycle-id 7012345678901234567"],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: READ,
  hasFormat: true,
  flags: { "cycle-id": flag.requiredString("cycle ID (okr +cycle-list gives it)") },
  async run(ctx) {
    const id = ctx.flags["cycle-id"];
    if (!/^[\w-]+$/.test(id)) throw errors.validation(`--cycle-id "${id}" is not an ID`);
    const pages = await ctx.paginate({
      method: "GET",
      path: `${OKR}/v2/cycles/${enc(id)}/objectives`,
      params: { page_size: 100, user_id_type: "open_id" },
      response: OkrPage,
      planned: { items: [{ id: "<objective_id>" }], has_more: false },
    }, { maxPages: 20 });
    const objectives = [];
    for (const o of pages.flatMap((p) => p.items ?? [])) {
      const krs = await ctx.paginate({
        method: "GET",
        path: `${OKR}/v2/objectives/${enc(o.id)}/key_results`,
        params: { page_size: 100, user_id_type: "open_id" },
        response: OkrPage,
        planned: { items: [], has_more: false },
      }, { maxPages: 20 });
      const keyResults = krs.flatMap((p) => p.items ?? []).map((k) => ({ ...k, text: plainText(k.content) }));
      objectives.push({ ...o, text: plainText(o.content), key_results: keyResults });
    }
    await ctx.outFormat({ cycle_id: id, objectives }, { count: objectives.length });
  },
});
