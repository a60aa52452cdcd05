/**
 * OKR v2 creation: a new objective in a cycle, a new key result under an objective, each with its own ID and
 * stored in the generic collection its list reads, so `okr +cycle-detail` sees what `okr +create` made. The
 * generic handler would answer these action-shaped paths with one fixed ID; a batch of creates needs distinct
 * ones (and deleting one must not delete another). Reordering and reweighting a level change the items
 * stored there, with the bodies the suite takes (`objective_ids`, `key_result_weights: [{key_result_id,
 * weight}]`...), refusing unknown fields. Everything else of OKR v2 is served generically.
 */
import * as z from "zod";
import { all, nextCounter, run, tx } from "../db.ts";
import { invalidParam, ok } from "../reply.ts";
import { type CallerCtx, jsonBody, type Route } from "../router.ts";
import { strictBody, strictQuery } from "./strict_body.ts";

const OKR_WRITE = ["okr:okr.content:writeonly"];
const Blocks = z.object({ blocks: z.array(z.looseObject({})) });
const Create = z.object({
  content: Blocks,
  notes: z.optional(Blocks),
  category_id: z.optional(z.string()),
});

/** Stores the new item where its list (`GET <collection>`) finds it; returns its 19-digit suite-style ID. */
function create(ctx: CallerCtx, collection: string): string {
  const body = jsonBody(ctx, Create);
  const id = String(7100000000000000000n + BigInt(nextCounter(ctx.st.db, "okr_item")));
  run(
    ctx.st.db,
    "INSERT INTO generic_objects (collection, id, body, deleted, seq) VALUES (?, ?, ?, 0, ?)",
    collection,
    id,
    JSON.stringify({ id, ...body, weight: 0, score: 0 }),
    nextCounter(ctx.st.db, "generic_seq"),
  );
  return id;
}

/** The query these methods take (the SDK's `params`). */
const Query = z.strictObject({
  user_id_type: z.optional(z.enum(["user_id", "union_id", "open_id"])),
  department_id_type: z.optional(z.enum(["department_id", "open_department_id"])),
});

/** The items stored under a level's list, in list order. */
function itemsOf(ctx: CallerCtx, collection: string): Record<string, unknown>[] {
  return all<{ body: string }>(
    ctx.st.db,
    "SELECT body FROM generic_objects WHERE collection = ? AND deleted = 0 ORDER BY seq",
    collection,
  ).map((r) => JSON.parse(r.body));
}

/** The suite takes a reorder or weights only when they name each current item exactly once. */
function sameItems(ctx: CallerCtx, collection: string, field: string, ids: string[]) {
  const items = itemsOf(ctx, collection);
  const current = items.map((i) => String(i.id));
  const unknown = ids.filter((id) => !current.includes(id));
  if (unknown.length) invalidParam(`${field}: not in this list: ${unknown.join(", ")}`);
  if (new Set(ids).size !== ids.length || ids.length !== current.length) {
    invalidParam(`${field} must name each of the ${current.length} current items once`);
  }
  return items;
}

function save(ctx: CallerCtx, collection: string, items: Record<string, unknown>[]) {
  tx(ctx.st.db, () => {
    for (const item of items) {
      run(
        ctx.st.db,
        "UPDATE generic_objects SET body = ?, seq = ? WHERE collection = ? AND id = ?",
        JSON.stringify(item),
        nextCounter(ctx.st.db, "generic_seq"),
        collection,
        String(item.id),
      );
    }
  });
}

/** `PUT <list>_position`: the items in the order given, each with its new position. */
function position(ctx: CallerCtx, collection: string, field: "objective_ids" | "key_result_ids") {
  const body = strictBody(ctx, z.strictObject({ [field]: z.array(z.string()).check(z.minLength(1)) }));
  const ids = (body as Record<string, string[]>)[field];
  const items = sameItems(ctx, collection, field, ids);
  const ordered = ids.map((id, i) => ({ ...items.find((it) => String(it.id) === id)!, position: i + 1 }));
  save(ctx, collection, ordered);
  return ok({ items: ordered });
}

/** `PUT <list>_weight`: each item's weight (0-1, three decimals at most, adding up to 1). */
function weight(ctx: CallerCtx, collection: string, field: "objective_weights" | "key_result_weights") {
  const key = field === "objective_weights" ? "objective_id" : "key_result_id";
  const Entry = z.strictObject({
    [key]: z.string(),
    weight: z.number().check(z.minimum(0), z.maximum(1)),
  });
  const body = strictBody(ctx, z.strictObject({ [field]: z.array(Entry).check(z.minLength(1)) }));
  const list = (body as Record<string, Record<string, unknown>[]>)[field];
  const ids = list.map((e) => String(e[key]));
  const items = sameItems(ctx, collection, field, ids);
  const sum = list.reduce((a, e) => a + Number(e.weight), 0);
  if (Math.abs(sum - 1) > 1e-6) invalidParam(`${field}: the weights add up to ${sum}, not 1`);
  const changed = items.map((it) => ({
    ...it,
    weight: Number(list.find((e) => e[key] === String(it.id))!.weight),
  }));
  save(ctx, collection, changed);
  return ok({ items: changed });
}

const cycleList = (ctx: CallerCtx) => `/open-apis/okr/v2/cycles/${ctx.params.cycle_id}/objectives`;
const objectiveList = (ctx: CallerCtx) =>
  `/open-apis/okr/v2/objectives/${ctx.params.objective_id}/key_results`;

export const okrRoutes: Route[] = [
  ...([
    [
      "/open-apis/okr/v2/cycles/:cycle_id/objectives_position",
      (c: CallerCtx) => position(c, cycleList(c), "objective_ids"),
    ],
    [
      "/open-apis/okr/v2/objectives/:objective_id/key_results_position",
      (c: CallerCtx) => position(c, objectiveList(c), "key_result_ids"),
    ],
    [
      "/open-apis/okr/v2/cycles/:cycle_id/objectives_weight",
      (c: CallerCtx) => weight(c, cycleList(c), "objective_weights"),
    ],
    [
      "/open-apis/okr/v2/objectives/:objective_id/key_results_weight",
      (c: CallerCtx) => weight(c, objectiveList(c), "key_result_weights"),
    ],
  ] as const).map(([path, answer]): Route => ({
    method: "PUT",
    path,
    auth: "token",
    scopes: OKR_WRITE,
    handle(ctx) {
      strictQuery(ctx, Query);
      return answer(ctx);
    },
  })),
  {
    method: "POST",
    path: "/open-apis/okr/v2/cycles/:cycle_id/objectives",
    auth: "token",
    scopes: OKR_WRITE,
    handle: (ctx) =>
      ok({ objective_id: create(ctx, `/open-apis/okr/v2/cycles/${ctx.params.cycle_id}/objectives`) }),
  },
  {
    method: "POST",
    path: "/open-apis/okr/v2/objectives/:objective_id/key_results",
    auth: "token",
    scopes: OKR_WRITE,
    handle: (ctx) =>
      ok({
        key_result_id: create(ctx, `/open-apis/okr/v2/objectives/${ctx.params.objective_id}/key_results`),
      }),
  },
];
