/**
 * Bitable v1: one record by ID, read from the same `records` table the hand-written list/create/update routes
 * keep (the generic store would not see records those routes wrote).
 */
import { one } from "../db.ts";
import { ok, raise } from "../reply.ts";
import type { Route } from "../router.ts";
import { BASE_READ } from "../scopes.ts";

export const baseRecordGetRoutes: Route[] = [
  {
    method: "GET",
    path: "/open-apis/bitable/v1/apps/:app_token/tables/:table_id/records/:record_id",
    auth: "token",
    scopes: BASE_READ,
    handle(ctx) {
      const { app_token, table_id, record_id } = ctx.params;
      const row = one<{ fields: string }>(
        ctx.st.db,
        "SELECT fields FROM records WHERE app_token = ? AND table_id = ? AND record_id = ?",
        app_token,
        table_id,
        record_id,
      ) ?? raise(404, 1254043, `RecordIdNotFound: ${record_id}`);
      return ok({ record: { record_id, fields: JSON.parse(row.fields) } });
    },
  },
];
