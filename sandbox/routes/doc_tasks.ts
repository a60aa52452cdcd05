/**
 * The suite's long-running document tasks, as a shortcut waits on them: wiki moves and deletions, Drive
 * imports and exports, and Drive's async file moves/deletions (`task_check`). Each task answers "running" on
 * its first check and "done" from the second on (document reverts too), so a caller's polling (progress, interval) is exercised; an
 * export's result downloads as a file. The generic handler would answer a plausible but never-ending status.
 * Also the byte-carrying media endpoints these flows use: a media upload (an import's source) is stored like
 * a Drive file, and a preview downloads as bytes.
 */
import { newHex, one, run } from "../db.ts";
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

function revertStatus(ctx: CallerCtx): Reply {
  const id = idParam(ctx, "task_id");
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

const scopes = [...DOCS_WORK, ...DRIVE_READ];
export const docTaskRoutes: Route[] = [
  { method: "GET", path: "/open-apis/wiki/v2/tasks/:task_id", auth: "token", scopes, handle: wikiTask },
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
