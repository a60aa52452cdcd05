/**
 * Docx v1 reads over OpenAPI: document metadata and raw (plain-text) content. Writes go through MCP.
 */
import { findDoc, plainText } from "../docs_store.ts";
import { coverOf } from "./doc_cover.ts";
import { ok, raise } from "../reply.ts";
import type { CallerCtx, Route } from "../router.ts";
import { READ_DOC } from "../scopes.ts";

function docOrFail(ctx: CallerCtx) {
  return findDoc(ctx.st, ctx.params.document_id) ??
    raise(404, 1770002, `not found: ${ctx.params.document_id}`);
}

export const docsRoutes: Route[] = [
  {
    method: "GET",
    path: "/open-apis/docx/v1/documents/:document_id",
    auth: "token",
    scopes: READ_DOC,
    handle(ctx) {
      const doc = docOrFail(ctx);
      return ok({
        document: {
          document_id: doc.document_id,
          revision_id: doc.revision,
          title: doc.title,
          ...coverOf(ctx.st, doc.document_id),
        },
      });
    },
  },
  {
    method: "GET",
    path: "/open-apis/docx/v1/documents/:document_id/raw_content",
    auth: "token",
    scopes: READ_DOC,
    handle: (ctx) => ok({ content: plainText(docOrFail(ctx).markdown) }),
  },
];
