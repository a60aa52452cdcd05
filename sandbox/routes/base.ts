/**
 * Bitable (base) v1 records: list (paginated), create, update (fields merge), and search with a simple
 * filter (`conjunction` over `is` / `isNot` / `contains` conditions).
 */
import * as z from "zod";
import { all, newHex, one, run } from "../db.ts";
import { createOnce } from "../dedup.ts";
import { pageOf, paginate } from "../paging.ts";
import { ok, raise } from "../reply.ts";
import { type CallerCtx, jsonBody, type Route } from "../router.ts";
import { BASE_READ, BASE_WRITE } from "../scopes.ts";

type Fields = Record<string, unknown>;

interface RecordRow {
  record_id: string;
  fields: string;
}

/** Whether the generic store holds a live object (a base or table created through the tables API). */
function heldGenerically(ctx: CallerCtx, collection: string, id: string): boolean {
  return one(
    ctx.st.db,
    "SELECT 1 AS x FROM generic_objects WHERE collection = ? AND id = ? AND deleted = 0",
    collection,
    id,
  ) !== undefined;
}

/** The table's records; a base or table that exists neither here nor in the tables API is not found. */
function tableRows(ctx: CallerCtx): RecordRow[] {
  const { app_token, table_id } = ctx.params;
  const apps = "/open-apis/bitable/v1/apps";
  if (
    !one(ctx.st.db, "SELECT 1 AS x FROM records WHERE app_token = ?", app_token) &&
    !heldGenerically(ctx, apps, app_token)
  ) {
    raise(404, 1254040, `BaseTokenNotFound: ${app_token}`);
  }
  const rows = all<RecordRow>(
    ctx.st.db,
    "SELECT record_id, fields FROM records WHERE app_token = ? AND table_id = ? ORDER BY seq",
    app_token,
    table_id,
  );
  if (rows.length === 0 && !heldGenerically(ctx, `${apps}/${app_token}/tables`, table_id)) {
    raise(404, 1254041, `TableIdNotFound: ${table_id}`);
  }
  return rows;
}

const recordJson = (r: RecordRow) => ({ record_id: r.record_id, fields: JSON.parse(r.fields) as Fields });

const FieldsBody = z.object({ fields: z.record(z.string(), z.unknown()) });

const Condition = z.object({
  field_name: z.string(),
  operator: z.enum(["is", "isNot", "contains"]),
  value: z._default(z.array(z.unknown()), []),
});
const SearchBody = z.object({
  field_names: z.optional(z.array(z.string())),
  filter: z.optional(
    z.object({ conjunction: z._default(z.enum(["and", "or"]), "and"), conditions: z.array(Condition) }),
  ),
});

function holds(fields: Fields, c: z.infer<typeof Condition>): boolean {
  const v = fields[c.field_name];
  const want = c.value[0];
  if (c.operator === "is") return v === want;
  if (c.operator === "isNot") return v !== want;
  return typeof v === "string" && typeof want === "string" && v.includes(want);
}

function listPage(ctx: CallerCtx, records: { record_id: string; fields: Fields }[]) {
  const page = paginate(records, pageOf(ctx.query, { size: 20, max: 500 }));
  return ok({ ...page, total: records.length });
}

const RECORDS = "/open-apis/bitable/v1/apps/:app_token/tables/:table_id/records";

export const baseRoutes: Route[] = [
  {
    method: "GET",
    path: RECORDS,
    auth: "token",
    scopes: BASE_READ,
    handle: (ctx) => listPage(ctx, tableRows(ctx).map(recordJson)),
  },
  {
    method: "POST",
    path: `${RECORDS}/search`,
    auth: "token",
    scopes: BASE_READ,
    handle(ctx) {
      const body = jsonBody(ctx, SearchBody);
      const filter = body.filter;
      const matched = tableRows(ctx).map(recordJson).filter((r) =>
        !filter || filter.conditions.length === 0 ||
        (filter.conjunction === "and"
          ? filter.conditions.every((c) => holds(r.fields, c))
          : filter.conditions.some((c) => holds(r.fields, c)))
      ).map((r) =>
        body.field_names
          ? {
            ...r,
            fields: Object.fromEntries(
              Object.entries(r.fields).filter(([k]) => body.field_names!.includes(k)),
            ),
          }
          : r
      );
      return listPage(ctx, matched);
    },
  },
  {
    method: "POST",
    path: RECORDS,
    auth: "token",
    scopes: BASE_WRITE,
    handle(ctx) {
      tableRows(ctx);
      const { fields } = jsonBody(ctx, FieldsBody);
      const scope = `record ${ctx.caller.openId} ${ctx.params.app_token} ${ctx.params.table_id}`;
      const record_id = createOnce(ctx.st, scope, ctx.query.get("client_token") ?? undefined, () => {
        const last = one<{ seq: number }>(
          ctx.st.db,
          "SELECT MAX(seq) AS seq FROM records WHERE app_token = ?",
          ctx.params.app_token,
        );
        const id = `rec${newHex(ctx.st.db, "record", 12)}`;
        run(
          ctx.st.db,
          "INSERT INTO records (app_token, table_id, record_id, fields, seq) VALUES (?, ?, ?, ?, ?)",
          ctx.params.app_token,
          ctx.params.table_id,
          id,
          JSON.stringify(fields),
          (last?.seq ?? 0) + 1,
        );
        return id;
      });
      const stored = one<{ fields: string }>(
        ctx.st.db,
        "SELECT fields FROM records WHERE app_token = ? AND record_id = ?",
        ctx.params.app_token,
        record_id,
      );
      return ok({ record: { record_id, fields: stored ? JSON.parse(stored.fields) : fields } });
    },
  },
  {
    method: "PUT",
    path: `${RECORDS}/:record_id`,
    auth: "token",
    scopes: BASE_WRITE,
    handle(ctx) {
      const row = tableRows(ctx).find((r) => r.record_id === ctx.params.record_id) ??
        raise(404, 1254043, `RecordIdNotFound: ${ctx.params.record_id}`);
      const { fields } = jsonBody(ctx, FieldsBody);
      const merged = { ...JSON.parse(row.fields), ...fields };
      run(
        ctx.st.db,
        "UPDATE records SET fields = ? WHERE app_token = ? AND table_id = ? AND record_id = ?",
        JSON.stringify(merged),
        ctx.params.app_token,
        ctx.params.table_id,
        row.record_id,
      );
      return ok({ record: { record_id: row.record_id, fields: merged } });
    },
  },
];
