/**
 * A document's cover image (docs +resource-update/-download/-delete): `PATCH /docx/v1/documents/:id` sets or
 * clears it, and the document's GET shows it (`coverOf`). Covers live in their own table, made on first use.
 */
import * as z from "zod";
import { findDoc } from "../docs_store.ts";
import { one, run } from "../db.ts";
import { ok, raise } from "../reply.ts";
import { jsonBody, type Route } from "../router.ts";
import { WRITE_DOC } from "../scopes.ts";
import type { EmulatorState } from "../state.ts";

const TABLE =
  "CREATE TABLE IF NOT EXISTS doc_covers (document_id TEXT PRIMARY KEY, token TEXT NOT NULL, x REAL, y REAL)";

const Patch = z.object({
  cover: z.object({
    token: z.string(),
    offset_ratio_x: z.optional(z.number().check(z.minimum(0), z.maximum(1))),
    offset_ratio_y: z.optional(z.number().check(z.minimum(0), z.maximum(1))),
  }),
});

export function coverOf(st: EmulatorState, documentId: string) {
  run(st.db, TABLE);
  const row = one<{ token: string; x: number | null; y: number | null }>(
    st.db,
    "SELECT token, x, y FROM doc_covers WHERE document_id = ?",
    documentId,
  );
  return row ? { cover: { token: row.token, offset_ratio_x: row.x ?? 0, offset_ratio_y: row.y ?? 0 } } : {};
}

export const docCoverRoutes: Route[] = [
  {
    method: "PATCH",
    path: "/open-apis/docx/v1/documents/:document_id",
    auth: "token",
    scopes: WRITE_DOC,
    handle(ctx) {
      const doc = findDoc(ctx.st, ctx.params.document_id) ??
        raise(404, 1770002, `not found: ${ctx.params.document_id}`);
      const { cover } = jsonBody(ctx, Patch);
      run(ctx.st.db, TABLE);
      // An empty token removes the cover.
      if (cover.token === "") run(ctx.st.db, "DELETE FROM doc_covers WHERE document_id = ?", doc.document_id);
      else {
        run(
          ctx.st.db,
          "INSERT OR REPLACE INTO doc_covers (document_id, token, x, y) VALUES (?, ?, ?, ?)",
          doc.document_id,
          cover.token,
          cover.offset_ratio_x ?? null,
          cover.offset_ratio_y ?? null,
        );
      }
      return ok({ document: { document_id: doc.document_id, ...coverOf(ctx.st, doc.document_id) } });
    },
  },
];
