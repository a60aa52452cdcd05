/**
 * OKR v2 objectives and key results, stored where their lists read them (the generic collections
 * `.../cycles/<id>/objectives` and `.../objectives/<id>/key_results`), so `okr +cycle-detail` sees what
 * `okr +create` made and `okr +patch` changed. Creation gives each item its own 19-digit ID (the generic
 * handler would answer these action-shaped paths with one fixed ID; a batch of creates needs distinct ones);
 * an item is read, patched and deleted by its ID wherever its list keeps it (deleting an objective deletes its
 * key results). Content and notes are stored as sent -- the request check (`request_check.ts`) has already
 * held them to the suite's block document (`block_element_type`, `paragraph_element_type`, `text_run`) -- and
 * come back the same. Reordering and reweighting a level change the items stored there, with the bodies the
 * suite takes (`objective_ids`, `key_result_weights: [{key_result_id, weight}]`...), refusing unknown fields.
 * Everything else of OKR v2 is served generically.
 */
import * as z from "zod";
import { all, nextCounter, one, run, tx } from "../db.ts";
import { invalidParam, ok, raise } from "../reply.ts";
import { type CallerCtx, jsonBody, type Route } from "../router.ts";
import { strictBody, strictQuery } from "./strict_body.ts";

const OKR_WRITE = ["okr:okr.content:writeonly"];
const OKR_READ = ["okr:okr.content:readonly", "okr:okr.content:writeonly"];
const Blocks = z.object({ blocks: z.array(z.looseObject({})) });
/**
 * What a patch may set per level (a key result has no notes or category); a field outside it (let through
 * only with lenient fields) is dropped, as the suite ignores it. A create also needs the content.
 */
const KeyResultFields = z.object({
  content: z.optional(Blocks),
  score: z.optional(z.number()),
  deadline: z.optional(z.string()),
});
const FIELDS = {
  key_result: KeyResultFields,
  objective: z.extend(KeyResultFields, { notes: z.optional(Blocks), category_id: z.optional(z.string()) }),
};

type Level = "objective" | "key_result";
/** The lists each level's items live in (`%` stands for the parent's ID). */
const LISTS: Record<Level, string> = {
  objective: "/open-apis/okr/v2/cycles/%/objectives",
  key_result: "/open-apis/okr/v2/objectives/%/key_results",
};

/** Stores the new item where its list (`GET <collection>`) finds it; returns its 19-digit suite-style ID. */
function create(ctx: CallerCtx, level: Level, parent: string): string {
  const body = jsonBody(ctx, z.extend(FIELDS[level], { content: Blocks }));
  const id = String(7100000000000000000n + BigInt(nextCounter(ctx.st.db, "okr_item")));
  const now = String(ctx.st.clock.now());
  const item = {
    id,
    create_time: now,
    update_time: now,
    owner: { owner_type: "user", user_id: ctx.caller.openId },
    ...(level === "objective" ? { cycle_id: parent } : { objective_id: parent }),
    ...body,
    weight: 0,
    score: body.score ?? 0,
  };
  run(
    ctx.st.db,
    "INSERT INTO generic_objects (collection, id, body, deleted, seq) VALUES (?, ?, ?, 0, ?)",
    LISTS[level].replace("%", parent),
    id,
    JSON.stringify(item),
    nextCounter(ctx.st.db, "generic_seq"),
  );
  return id;
}

/** A live item by its ID, in whichever list of its level keeps it; the suite's not-found otherwise. */
function findItem(
  ctx: CallerCtx,
  level: Level,
  id: string,
): { collection: string; item: Record<string, unknown> } {
  const row = one<{ collection: string; body: string }>(
    ctx.st.db,
    "SELECT collection, body FROM generic_objects WHERE id = ? AND deleted = 0 AND collection LIKE ?",
    id,
    LISTS[level],
  );
  if (!row) return raise(404, 404, `not found: ${level} ${id}`);
  return { collection: row.collection, item: JSON.parse(row.body) };
}

function getItem(ctx: CallerCtx, level: Level, id: string) {
  strictQuery(ctx, Query);
  return ok({ [level]: findItem(ctx, level, id).item });
}

function patchItem(ctx: CallerCtx, level: Level, id: string) {
  strictQuery(ctx, Query);
  const { collection, item } = findItem(ctx, level, id);
  const changed = { ...item, ...jsonBody(ctx, FIELDS[level]), update_time: String(ctx.st.clock.now()) };
  run(
    ctx.st.db,
    "UPDATE generic_objects SET body = ? WHERE collection = ? AND id = ?",
    JSON.stringify(changed),
    collection,
    id,
  );
  return ok({ [level]: changed });
}

function deleteItem(ctx: CallerCtx, level: Level, id: string) {
  const { collection } = findItem(ctx, level, id);
  tx(ctx.st.db, () => {
    run(ctx.st.db, "UPDATE generic_objects SET deleted = 1 WHERE collection = ? AND id = ?", collection, id);
    if (level === "objective") {
      run(
        ctx.st.db,
        "UPDATE generic_objects SET deleted = 1 WHERE collection = ?",
        LISTS.key_result.replace("%", id),
      );
    }
  });
  return ok({ [`${level}_id`]: id });
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

const cycleList = (ctx: CallerCtx) => LISTS.objective.replace("%", ctx.params.cycle_id);
const objectiveList = (ctx: CallerCtx) => LISTS.key_result.replace("%", ctx.params.objective_id);

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
    handle: (ctx) => {
      strictQuery(ctx, Query);
      return ok({ objective_id: create(ctx, "objective", ctx.params.cycle_id) });
    },
  },
  {
    method: "POST",
    path: "/open-apis/okr/v2/objectives/:objective_id/key_results",
    auth: "token",
    scopes: OKR_WRITE,
    handle: (ctx) => {
      strictQuery(ctx, Query);
      // A key result needs its objective (a cycle is the tenant's and has no create method to make one).
      findItem(ctx, "objective", ctx.params.objective_id);
      return ok({ key_result_id: create(ctx, "key_result", ctx.params.objective_id) });
    },
  },
  ...(["objective", "key_result"] as const).flatMap((level): Route[] => {
    const path = `/open-apis/okr/v2/${level}s/:${level}_id`;
    const id = (ctx: CallerCtx) => ctx.params[`${level}_id`];
    return [
      { method: "GET", path, auth: "token", scopes: OKR_READ, handle: (c) => getItem(c, level, id(c)) },
      { method: "PATCH", path, auth: "token", scopes: OKR_WRITE, handle: (c) => patchItem(c, level, id(c)) },
      {
        method: "DELETE",
        path,
        auth: "token",
        scopes: OKR_WRITE,
        handle: (c) => deleteItem(c, level, id(c)),
      },
    ];
  }),
];
