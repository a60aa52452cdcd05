/**
 * The suite's long-running document tasks, as a shortcut waits on them: wiki moves and deletions, Drive
 * imports and exports, Drive's async file moves/deletions (`task_check`) and history reverts of documents and
 * decks. Each task answers "running" on its first check and "done" from the second on, so a caller's polling
 * (progress, interval) is exercised; an export's result downloads as a file. The generic handler knows no task's
 * progress. Moves and deletions find the file first, in whichever table holds it (`drive_index.ts`); a wiki
 * node is found by its token in whichever space holds it. Also the byte-carrying media endpoints these flows
 * use: a media upload (an import's source) is stored like a Drive file, and a preview downloads as bytes.
 */
import { newHex, one, run } from "../db.ts";
import { driveDocs } from "../drive_index.ts";
import { seedObject } from "../fixtures.ts";
import { invalidParam, ok, raise, type Reply } from "../reply.ts";
import { type CallerCtx, multipartBody, type Route } from "../router.ts";
import { DOCS_WORK, DRIVE_READ } from "../scopes.ts";
import type { EmulatorState } from "../state.ts";

/** Checks seen per task id, per emulator. */
const checks = new WeakMap<EmulatorState, Map<string, number>>();

function nthCheck(ctx: CallerCtx, id: string): number {
  const seen = checks.get(ctx.st) ?? new Map<string, number>();
  checks.set(ctx.st, seen);
  const n = (seen.get(id) ?? 0) + 1;
  seen.set(id, n);
  return n;
}

function idParam(ctx: CallerCtx, name: string): string {
  const id = ctx.params[name] ?? ctx.query.get(name) ?? "";
  if (!/^[A-Za-z0-9_-]+$/.test(id)) raise(400, 99992402, `field validation failed: ${name}`);
  return id;
}

function wikiTask(ctx: CallerCtx): Reply {
  const id = idParam(ctx, "task_id");
  const done = nthCheck(ctx, id) > 1;
  return ok({
    task: {
      task_id: id,
      move_result: [{
        node: {
          space_id: "7034502641455497244",
          node_token: `wikcn${id.slice(0, 16)}`,
          obj_token: `doxcn${id.slice(0, 16)}`,
          obj_type: "docx",
          node_type: "origin",
          title: "moved",
        },
        status: done ? 0 : 1,
        status_msg: done ? "success" : "processing",
      }],
    },
  });
}

function importTask(ctx: CallerCtx): Reply {
  const ticket = idParam(ctx, "ticket");
  const done = nthCheck(ctx, ticket) > 1;
  return ok({
    result: {
      ticket,
      type: "docx",
      job_status: done ? 0 : 2,
      job_error_msg: done ? "success" : "processing",
      ...(done
        ? {
          token: `doxcn${ticket.slice(0, 20)}`,
          url: `https://sandbox.feishu.cn/docx/doxcn${ticket.slice(0, 20)}`,
        }
        : {}),
    },
  });
}

function exportTask(ctx: CallerCtx): Reply {
  const ticket = idParam(ctx, "ticket");
  const done = nthCheck(ctx, ticket) > 1;
  return ok({
    result: {
      file_extension: "pdf",
      type: "docx",
      job_status: done ? 0 : 2,
      job_error_msg: done ? "success" : "processing",
      ...(done ? { file_name: "export", file_token: `boxcnexp${ticket.slice(0, 16)}`, file_size: 18 } : {}),
    },
  });
}

function exportDownload(ctx: CallerCtx): Reply {
  const token = idParam(ctx, "file_token");
  const body = new TextEncoder().encode(`exported ${token}\n`);
  return {
    kind: "raw",
    status: 200,
    body,
    headers: {
      "content-type": "application/octet-stream",
      "content-length": String(body.length),
      "content-disposition": `attachment; filename="${token}.pdf"`,
    },
  };
}

/** Where revert tasks are kept (the generic store): per document or deck, by task id. */
export const REVERT_TASKS = "revert_tasks";

/** A history revert of a document (docs_ai) or deck (slides_ai) that exists: a task, checked by its status. */
function revert(kind: "document" | "deck") {
  return (ctx: CallerCtx): Reply => {
    const id = kind === "document" ? ctx.params.document_id : ctx.params.xml_presentation_id;
    const exists = kind === "document"
      ? driveDocs(ctx.st).some((d) => d.token === id && d.type === "docx")
      : one(
        ctx.st.db,
        "SELECT 1 AS x FROM generic_objects WHERE collection = '/open-apis/slides_ai/v1/xml_presentations' AND id = ? AND deleted = 0",
        id,
      ) !== undefined;
    if (!exists) raise(404, kind === "document" ? 1770002 : 404, `not found: ${id}`);
    const task = `7${newHex(ctx.st.db, "revert_task", 18)}`;
    seedObject(ctx.st.db, REVERT_TASKS, task, { target: id });
    return ok({ task_id: task });
  };
}

function revertStatus(ctx: CallerCtx): Reply {
  const id = idParam(ctx, "task_id");
  const task = one(
    ctx.st.db,
    "SELECT 1 AS x FROM generic_objects WHERE collection = ? AND id = ? AND deleted = 0",
    REVERT_TASKS,
    id,
  );
  if (!task) raise(404, 404, `revert task not found: ${id}`);
  return ok({ status: nthCheck(ctx, id) > 1 ? "success" : "processing" });
}

function taskCheck(ctx: CallerCtx): Reply {
  const id = idParam(ctx, "task_id");
  return ok({ status: nthCheck(ctx, id) > 1 ? "success" : "process" });
}

async function mediaUpload(ctx: CallerCtx): Promise<Reply> {
  const form = await multipartBody(ctx);
  const name = form.get("file_name");
  const file = form.get("file");
  if (typeof name !== "string" || !name) invalidParam("file_name is required");
  if (!(file instanceof File)) invalidParam("file is required");
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (String(bytes.length) !== form.get("size")) {
    raise(400, 1061002, "params error: size does not match the file");
  }
  const token = `boxcn${newHex(ctx.st.db, "drive", 22)}`;
  ctx.st.files.put(token, bytes);
  run(
    ctx.st.db,
    "INSERT INTO blobs (key, kind, name, file_type, size, owner, parent, create_time) VALUES (?, 'drive', ?, 'file', ?, ?, ?, ?)",
    token,
    name,
    bytes.length,
    ctx.caller.openId,
    String(form.get("parent_type") ?? ""),
    ctx.st.clock.now(),
  );
  return ok({ file_token: token });
}

function previewDownload(ctx: CallerCtx): Reply {
  const token = idParam(ctx, "file_token");
  const body = new TextEncoder().encode(`preview ${ctx.query.get("preview_type") ?? "pdf"} of ${token}\n`);
  return {
    kind: "raw",
    status: 200,
    body,
    headers: { "content-type": "application/octet-stream", "content-length": String(body.length) },
  };
}

/** A media token answers the bytes stored under it (a media upload), else a rendered stand-in. */
async function mediaDownload(ctx: CallerCtx): Promise<Reply> {
  const token = idParam(ctx, "file_token");
  const row = one<{ key: string; name: string }>(
    ctx.st.db,
    "SELECT key, name FROM blobs WHERE key = ?",
    token,
  );
  const stored = row && await ctx.st.files.open(row.key);
  const standIn = new TextEncoder().encode(`media ${token}\n`);
  return {
    kind: "raw",
    status: 200,
    body: stored?.body ?? standIn,
    headers: {
      "content-type": "application/octet-stream",
      "content-length": String(stored?.size ?? standIn.length),
      ...(row
        ? { "content-disposition": `attachment; filename="${row.name.replace(/[^\x20-\x7e]|"/g, "_")}"` }
        : {}),
    },
  };
}

function boardImage(ctx: CallerCtx): Reply {
  const id = idParam(ctx, "whiteboard_id");
  const body = new TextEncoder().encode(`\x89PNG whiteboard ${id}\n`);
  return {
    kind: "raw",
    status: 200,
    body,
    headers: { "content-type": "image/png", "content-length": String(body.length) },
  };
}

/**
 * A move or deletion of what Drive holds: the file is looked up first (1061007 when it names nothing); a
 * folder's runs as a task (`task_check`), a file's is done at once. A deletion removes the file from every
 * listing and search.
 */
function moveOrDelete(ctx: CallerCtx, del: boolean): Reply {
  const token = ctx.params.file_token;
  const doc = driveDocs(ctx.st).find((d) => d.token === token);
  if (!doc) raise(404, 1061007, `file not found: ${token}`);
  if (del) {
    run(ctx.st.db, "DELETE FROM docs WHERE document_id = ?", token);
    run(ctx.st.db, "DELETE FROM blobs WHERE key = ? AND kind = 'drive'", token);
    run(ctx.st.db, "UPDATE generic_objects SET deleted = 1 WHERE collection = ? AND id = ?", FILES, token);
  } else {
    const target = (JSON.parse(new TextDecoder().decode(ctx.bytes) || "{}") as { folder_token?: unknown })
      .folder_token;
    if (typeof target === "string") {
      run(ctx.st.db, "UPDATE docs SET folder_token = ? WHERE document_id = ?", target, token);
      run(ctx.st.db, "UPDATE blobs SET parent = ? WHERE key = ? AND kind = 'drive'", target, token);
      run(
        ctx.st.db,
        "UPDATE generic_objects SET body = json_set(body, '$.parent_token', ?) WHERE collection = ? AND id = ?",
        target,
        FILES,
        token,
      );
    }
  }
  return ok(doc.type === "folder" ? { task_id: `7${newHex(ctx.st.db, "drive_task", 18)}` } : {});
}

/**
 * A wiki node by its token (or, with `obj_type`, by the document it holds), in whichever space it was made.
 */
function getNode(ctx: CallerCtx): Reply {
  const token = ctx.query.get("token") ?? invalidParam("token is required");
  const byObj = ctx.query.get("obj_type") && ctx.query.get("obj_type") !== "wiki";
  const row = one<{ body: string }>(
    ctx.st.db,
    `SELECT body FROM generic_objects WHERE collection LIKE '/open-apis/wiki/v2/spaces/%/nodes' AND deleted = 0
       AND ${byObj ? "json_extract(body, '$.obj_token')" : "id"} = ?`,
    token,
  ) ?? raise(404, 131005, `not found: ${token}`);
  return ok({ node: JSON.parse(row.body) });
}

const FILES = "/open-apis/drive/v1/files";
const scopes = [...DOCS_WORK, ...DRIVE_READ];
export const docTaskRoutes: Route[] = [
  { method: "GET", path: "/open-apis/wiki/v2/tasks/:task_id", auth: "token", scopes, handle: wikiTask },
  {
    method: "GET",
    path: "/open-apis/wiki/v2/spaces/get_node",
    auth: "token",
    scopes: ["wiki:wiki", "wiki:wiki:readonly", "wiki:node:read"],
    handle: getNode,
  },
  {
    method: "GET",
    path: "/open-apis/drive/v1/import_tasks/:ticket",
    auth: "token",
    scopes,
    handle: importTask,
  },
  {
    method: "GET",
    path: "/open-apis/drive/v1/export_tasks/:ticket",
    auth: "token",
    scopes,
    handle: exportTask,
  },
  {
    method: "GET",
    path: "/open-apis/drive/v1/export_tasks/file/:file_token/download",
    auth: "token",
    scopes,
    handle: exportDownload,
  },
  { method: "GET", path: "/open-apis/drive/v1/files/task_check", auth: "token", scopes, handle: taskCheck },
  {
    method: "POST",
    path: `${FILES}/:file_token/move`,
    auth: "token",
    scopes: ["space:document:move", "drive:drive"],
    handle: (ctx) => moveOrDelete(ctx, false),
  },
  {
    method: "DELETE",
    path: `${FILES}/:file_token`,
    auth: "token",
    scopes: ["space:document:delete", "drive:drive"],
    handle: (ctx) => moveOrDelete(ctx, true),
  },
  {
    method: "POST",
    path: "/open-apis/docs_ai/v1/documents/:document_id/history/revert",
    auth: "token",
    scopes: ["docx:document:write_only", "docx:document"],
    handle: revert("document"),
  },
  {
    method: "POST",
    path: "/open-apis/slides_ai/v1/xml_presentations/:xml_presentation_id/history/revert",
    auth: "token",
    scopes: ["slides:presentation:update"],
    handle: revert("deck"),
  },
  {
    method: "GET",
    path: "/open-apis/slides_ai/v1/xml_presentations/:xml_presentation_id/history/revert_status",
    auth: "token",
    scopes: ["slides:presentation:read"],
    handle: revertStatus,
  },
  {
    method: "GET",
    path: "/open-apis/docs_ai/v1/documents/:document_id/history/revert_status",
    auth: "token",
    scopes: [...scopes, "docx:document:readonly"],
    handle: revertStatus,
  },
  {
    method: "POST",
    path: "/open-apis/drive/v1/medias/upload_all",
    auth: "token",
    scopes,
    handle: mediaUpload,
  },
  {
    method: "GET",
    path: "/open-apis/drive/v1/medias/:file_token/download",
    auth: "token",
    scopes,
    handle: mediaDownload,
  },
  {
    method: "GET",
    path: "/open-apis/board/v1/whiteboards/:whiteboard_id/download_as_image",
    auth: "token",
    scopes,
    handle: boardImage,
  },
  {
    method: "GET",
    path: "/open-apis/drive/v1/medias/:file_token/preview_download",
    auth: "token",
    scopes,
    handle: previewDownload,
  },
];
