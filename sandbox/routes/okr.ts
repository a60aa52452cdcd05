/**
 * OKR v2 creation: a new objective in a cycle, a new key result under an objective, each with its own ID and
 * stored in the generic collection its list reads, so `okr +cycle-detail` sees what `okr +create` made. The
 * generic handler would answer these action-shaped paths with one fixed ID; a batch of creates needs distinct
 * ones (and deleting one must not delete another). Everything else of OKR v2 is served generically.
 */
import * as z from "zod";
import { nextCounter, run } from "../db.ts";
import { ok } from "../reply.ts";
import { type CallerCtx, jsonBody, type Route } from "../router.ts";

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

export const okrRoutes: Route[] = [
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
