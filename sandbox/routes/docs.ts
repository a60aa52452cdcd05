/**
 * Docx v1 over OpenAPI: creating an empty document (the same document the MCP tools, drive and search see),
 * document metadata, raw (plain-text) content and blocks (derived from the text, so they agree with it).
 * Content writes go through MCP.
 */
import * as z from "zod";
import { blocksOf, createDoc, findDoc, plainText } from "../docs_store.ts";
import { pageOf, paginate } from "../paging.ts";
import { coverOf } from "./doc_cover.ts";
import { ok, raise } from "../reply.ts";
import { type CallerCtx, jsonBody, type Route } from "../router.ts";
import { CREATE_DOC, READ_DOC } from "../scopes.ts";
import { DRIVE } from "../fixtures.ts";
import { isFolder } from "./drive.ts";

function docOrFail(ctx: CallerCtx) {
  return findDoc(ctx.st, ctx.params.document_id) ??
    raise(404, 1770002, `not found: ${ctx.params.document_id}`);
}

export const docsRoutes: Route[] = [
  {
    method: "POST",
    path: "/open-apis/docx/v1/documents",
    auth: "token",
    scopes: CREATE_DOC,
    handle(ctx) {
      // Fields were checked against the SDK's request type before this handler (request_check.ts).
      const body = jsonBody(
        ctx,
        z.object({ title: z.optional(z.string()), folder_token: z.optional(z.string()) }),
      );
      const folder = body.folder_token || DRIVE.folder;
      if (!isFolder(ctx.st, folder)) raise(404, 1061007, `file not found: ${folder}`);
      const doc = createDoc(ctx.st, ctx.caller.openId, "", body.title ?? "", folder);
      return ok({ document: { document_id: doc.document_id, revision_id: doc.revision, title: doc.title } });
    },
  },
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
  {
    method: "GET",
    path: "/open-apis/docx/v1/documents/:document_id/blocks",
    auth: "token",
    scopes: READ_DOC,
    handle(ctx) {
      const page = paginate(blocksOf(docOrFail(ctx)), pageOf(ctx.query, { size: 500, max: 500 }));
      return ok({ ...page, page_token: page.page_token ?? "" });
    },
  },
  {
    method: "GET",
    path: "/open-apis/docx/v1/documents/:document_id/blocks/:block_id",
    auth: "token",
    scopes: READ_DOC,
    handle(ctx) {
      const block = blocksOf(docOrFail(ctx)).find((b) => b.block_id === ctx.params.block_id) ??
        raise(404, 1770002, `not found: ${ctx.params.block_id}`);
      return ok({ block });
    },
  },
];
