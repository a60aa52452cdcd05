/**
 * Records beyond list/upsert: read some by ID, search with a filter, and the batch writes. The suite takes at
 * most 500 records per batch call, so batches are sent in chunks of 500 in order; when a chunk fails, the error
 * says which input rows were already written (and their record IDs) so a rerun can start after them.
 */
import * as z from "zod";
import { errors, LarkitError, toLarkitError } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { itemsPage, listPages, pageFlags } from "../im/paging.ts";
import { idOf, tableFlags, tablePath } from "./simple.ts";

/** The suite's limit on records per batch call. */
export const BATCH_LIMIT = 500;
const B = "bascnAbc123";
const T = "tblXyz";
const Rec = z.looseObject({ record_id: z.string(), fields: z.optional(z.record(z.string(), z.unknown())) });
const Records = z.looseObject({ records: z.nullish(z.array(Rec)) });

/** `a,b,c` -> record IDs, each checked. */
function recordIds(text: string): string[] {
  const ids = text.split(",").map((s) => s.trim()).filter(Boolean).map((id) => idOf("record-id", id));
  if (ids.length === 0) throw errors.validation("--record-id names no record");
  return ids;
}

/** Splits rows into the suite's batch size. */
export function chunks<T>(rows: T[], size = BATCH_LIMIT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export const recordGet = defineShortcut({
  service: "base",
  command: "+record-get",
  description: "Read records by ID (at most 100 per call)",
  examples: [`larkit base +record-get --base-token ${B} --table-id ${T} --record-id recA,recB`],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["base:record:read"], bot: ["base:record:read"] },
  hasFormat: true,
  flags: { ...tableFlags, "record-id": flag.requiredString("record IDs, comma-separated (at most 100)") },
  async run(ctx) {
    const ids = recordIds(ctx.flags["record-id"]);
    if (ids.length > 100) throw errors.validation("at most 100 record IDs per call");
    const { records } = await ctx.api({
      method: "POST",
      path: `${tablePath(ctx.flags)}/records/batch_get`,
      body: { record_ids: ids },
      response: Records,
      planned: { records: [] },
    });
    await ctx.outFormat(records ?? [], { count: (records ?? []).length });
  },
});

const Search = z.extend(itemsPage(Rec), { total: z.optional(z.number()) });

export const recordSearch = defineShortcut({
  service: "base",
  command: "+record-search",
  description: "Find records with a filter and sort (the suite's search JSON), optionally through a view",
  examples: [
    `larkit base +record-search --base-token ${B} --table-id ${T} --filter '{"conjunction":"and","conditions":[{"field_name":"Status","operator":"is","value":["Done"]}]}'`,
    `larkit base +record-search --base-token ${B} --table-id ${T} --view-id vewAbc --field-names Title,Status --page-all`,
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["base:record:read"], bot: ["base:record:read"] },
  hasFormat: true,
  flags: {
    ...tableFlags,
    "view-id": flag.string("view ID: only what the view shows"),
    "field-names": flag.string("only these fields, comma-separated"),
    filter: flag.json('filter JSON: {"conjunction": "and", "conditions": [...]}', {
      input: ["file", "stdin"],
    }),
    sort: flag.json('sort JSON: [{"field_name": "Due", "desc": false}]', { input: ["file", "stdin"] }),
    ...pageFlags({ default: 100, max: 500, noun: "records" }),
  },
  async run(ctx) {
    const f = ctx.flags;
    if (
      f.filter !== undefined && (typeof f.filter !== "object" || f.filter === null || Array.isArray(f.filter))
    ) {
      throw errors.validation("--filter must be a JSON object");
    }
    if (f.sort !== undefined && !Array.isArray(f.sort)) {
      throw errors.validation("--sort must be a JSON array");
    }
    const body = {
      ...(f["view-id"] ? { view_id: idOf("view-id", f["view-id"]) } : {}),
      ...(f["field-names"] ? { field_names: f["field-names"].split(",").map((s) => s.trim()) } : {}),
      ...(f.filter !== undefined ? { filter: f.filter } : {}),
      ...(f.sort !== undefined ? { sort: f.sort } : {}),
    };
    const { pages, meta } = await listPages(ctx, f, {
      method: "POST",
      path: `${tablePath(f)}/records/search`,
      body,
      response: Search,
      planned: { items: [], has_more: false },
    });
    const records = pages.flatMap((p) => p.items ?? []);
    await ctx.outFormat(records, meta(records.length));
  },
});

/** Rows of a batch: `[{"fields": {...}}]` (create) or `[{"record_id", "fields"}]` (update). */
function rowsOf(json: unknown, withId: boolean) {
  const Row = withId
    ? z.object({
      record_id: z.string().check(z.regex(/^[\w-]+$/)),
      fields: z.record(z.string(), z.unknown()),
    })
    : z.object({ fields: z.record(z.string(), z.unknown()) });
  const r = z.array(Row).check(z.minLength(1), z.maxLength(10_000)).safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    throw errors.validation(`--json: ${i.path.join(".") || "the list"}: ${i.message}`, {
      hint: withId
        ? 'rows look like [{"record_id": "rec\u2026", "fields": {\u2026}}]'
        : 'rows look like [{"fields": {\u2026}}]',
    });
  }
  return r.data;
}

/** The chunks in order; a failure names the rows written before it (0-based, inclusive) and their IDs. */
async function batchWrite<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  path: string,
  rows: unknown[],
) {
  const written: { chunk: number; rows: [number, number]; record_ids: string[] }[] = [];
  let done = 0;
  for (const [i, chunk] of chunks(rows).entries()) {
    try {
      const { records } = await ctx.api({
        method: "POST",
        path,
        description: `chunk ${i + 1}: rows ${done}-${done + chunk.length - 1}`,
        body: { records: chunk },
        response: Records,
        planned: { records: [] },
      });
      written.push({
        chunk: i + 1,
        rows: [done, done + chunk.length - 1],
        record_ids: (records ?? []).map((r) => r.record_id),
      });
      done += chunk.length;
    } catch (e) {
      const cause = toLarkitError(e);
      throw new LarkitError(
        cause.subtype,
        `${cause.message} (chunk ${i + 1} failed: rows ${done}-${done + chunk.length - 1} not written; ${
          done ? `rows 0-${done - 1} were written` : "no rows were written"
        })`,
        {
          hint: done ? `rerun with the rows from ${done} on` : cause.hint,
          code: cause.body.code,
          log_id: cause.body.log_id,
          detail: { written, failed_rows: [done, done + chunk.length - 1], cause: cause.body.detail ?? null },
        },
      );
    }
  }
  return written;
}

const rowsFlag = (what: string) => flag.requiredJson(what, { input: ["file", "stdin"] });

export const recordBatchCreate = defineShortcut({
  service: "base",
  command: "+record-batch-create",
  description: "Create many records (sent in chunks of 500; a failure says which rows were written)",
  examples: [
    `larkit base +record-batch-create --base-token ${B} --table-id ${T} --json '[{"fields":{"Title":"A"}},{"fields":{"Title":"B"}}]'`,
    `larkit base +record-batch-create --base-token ${B} --table-id ${T} --json @rows.json`,
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["base:record:create"], bot: ["base:record:create"] },
  hasFormat: false,
  flags: { ...tableFlags, json: rowsFlag('rows as JSON: [{"fields": {"Title": "A"}}, \u2026]') },
  async run(ctx) {
    const rows = rowsOf(ctx.flags.json, false);
    const written = await batchWrite(ctx, `${tablePath(ctx.flags)}/records/batch_create`, rows);
    await ctx.out({ rows: rows.length, chunks: written }, { count: rows.length });
  },
});

export const recordBatchUpdate = defineShortcut({
  service: "base",
  command: "+record-batch-update",
  description: "Update many records by ID (sent in chunks of 500; a failure says which rows were written)",
  examples: [
    `larkit base +record-batch-update --base-token ${B} --table-id ${T} --json '[{"record_id":"recA","fields":{"Status":"Done"}}]'`,
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["base:record:update"], bot: ["base:record:update"] },
  hasFormat: false,
  flags: {
    ...tableFlags,
    json: rowsFlag('rows as JSON: [{"record_id": "rec\u2026", "fields": {\u2026}}, \u2026]'),
  },
  async run(ctx) {
    const rows = rowsOf(ctx.flags.json, true);
    const written = await batchWrite(ctx, `${tablePath(ctx.flags)}/records/batch_update`, rows);
    await ctx.out({ rows: rows.length, chunks: written }, { count: rows.length });
  },
});

export const recordDelete = defineShortcut({
  service: "base",
  command: "+record-delete",
  description: "Delete records by ID (at most 500; cannot be undone; asks for confirmation)",
  examples: [`larkit base +record-delete --base-token ${B} --table-id ${T} --record-id recA,recB --yes`],
  risk: "high-risk-write",
  authTypes: ["user", "bot"],
  scopes: { user: ["base:record:delete"], bot: ["base:record:delete"] },
  hasFormat: false,
  flags: { ...tableFlags, "record-id": flag.requiredString("record IDs, comma-separated") },
  async run(ctx) {
    const ids = recordIds(ctx.flags["record-id"]);
    if (ids.length > BATCH_LIMIT) throw errors.validation(`at most ${BATCH_LIMIT} records per run`);
    const data = await ctx.api({
      method: "POST",
      path: `${tablePath(ctx.flags)}/records/batch_delete`,
      body: { records: ids },
      response: z.looseObject({ records: z.nullish(z.array(z.looseObject({}))) }),
      planned: { records: [] },
    });
    await ctx.out({ requested: ids, records: data.records ?? [] }, { count: ids.length });
  },
});
