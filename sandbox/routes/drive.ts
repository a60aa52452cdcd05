/**
 * Drive v1 files: one-shot upload (`upload_all`, ≤ 20 MB), chunked upload (`upload_prepare` → `upload_part` ×
 * block_num → `upload_finish`), download as a binary body with Content-Disposition, and folder listing.
 */
import { z } from "zod";
import { all, newHex, one, run, tx } from "../db.ts";
import { DRIVE } from "../fixtures.ts";
import { pageOf, paginate } from "../paging.ts";
import { invalidParam, ok, raise, type Reply } from "../reply.ts";
import { type CallerCtx, jsonBody, multipartBody, type Route } from "../router.ts";
import { DRIVE_DOWNLOAD, DRIVE_READ, DRIVE_UPLOAD } from "../scopes.ts";
import type { EmulatorState } from "../state.ts";

const MAX_UPLOAD_ALL = 20 * 1024 * 1024;
/** The suite's fixed block size for chunked uploads. */
export const BLOCK_SIZE = 4 * 1024 * 1024;
const PARAMS_ERROR = 1061002;

interface BlobRow {
  key: string;
  name: string;
  file_type: string;
  bytes: Uint8Array;
  owner: string;
  parent: string;
  create_time: number;
}

function storeFile(
  st: EmulatorState,
  name: string,
  parent: string,
  bytes: Uint8Array,
  owner: string,
): string {
  const token = `boxcn${newHex(st.db, "drive", 22)}`;
  run(
    st.db,
    "INSERT INTO blobs (key, kind, name, file_type, bytes, owner, parent, create_time) VALUES (?, 'drive', ?, 'file', ?, ?, ?, ?)",
    token,
    name,
    bytes,
    owner,
    parent,
    st.clock.now(),
  );
  return token;
}

function field(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === "string" && v !== "" ? v : invalidParam(`${name} is required`);
}

async function fileField(form: FormData): Promise<Uint8Array> {
  const f = form.get("file");
  if (!(f instanceof File)) invalidParam("file is required");
  return new Uint8Array(await f.arrayBuffer());
}

async function uploadAll(ctx: CallerCtx): Promise<Reply> {
  const form = await multipartBody(ctx);
  const name = field(form, "file_name");
  const size = Number(field(form, "size"));
  const bytes = await fileField(form);
  if (bytes.length !== size) {
    raise(400, PARAMS_ERROR, `params error: size ${size} does not match the file (${bytes.length})`);
  }
  if (size > MAX_UPLOAD_ALL) {
    raise(400, PARAMS_ERROR, "params error: upload_all accepts at most 20MB; use upload_prepare");
  }
  // `file_token` given: the upload replaces that file's content as its new version (same token and name).
  const replacing = form.get("file_token");
  if (typeof replacing === "string" && replacing !== "") {
    if (!one(ctx.st.db, "SELECT key FROM blobs WHERE kind = 'drive' AND key = ?", replacing)) {
      raise(404, 1061007, `file not found: ${replacing}`);
    }
    run(ctx.st.db, "UPDATE blobs SET bytes = ? WHERE kind = 'drive' AND key = ?", bytes, replacing);
    return ok({ file_token: replacing });
  }
  return ok({
    file_token: storeFile(ctx.st, name, String(form.get("parent_node") ?? ""), bytes, ctx.caller.openId),
  });
}

const Prepare = z.object({
  file_name: z.string().min(1),
  parent_type: z.string().default("explorer"),
  parent_node: z.string().default(""),
  size: z.number().int().min(0),
});

function prepare(ctx: CallerCtx): Reply {
  const body = jsonBody(ctx, Prepare);
  const block_num = Math.max(1, Math.ceil(body.size / BLOCK_SIZE));
  const upload_id = `upload_${newHex(ctx.st.db, "upload", 16)}`;
  run(
    ctx.st.db,
    "INSERT INTO uploads (upload_id, name, parent, size, block_size, block_num, owner) VALUES (?, ?, ?, ?, ?, ?, ?)",
    upload_id,
    body.file_name,
    body.parent_node,
    body.size,
    BLOCK_SIZE,
    block_num,
    ctx.caller.openId,
  );
  return ok({ upload_id, block_size: BLOCK_SIZE, block_num });
}

interface UploadRow {
  upload_id: string;
  name: string;
  parent: string;
  size: number;
  block_num: number;
}

function uploadOf(st: EmulatorState, id: string): UploadRow {
  return one<UploadRow>(st.db, "SELECT * FROM uploads WHERE upload_id = ?", id) ??
    raise(400, PARAMS_ERROR, `params error: unknown upload_id ${id}`);
}

async function part(ctx: CallerCtx): Promise<Reply> {
  const form = await multipartBody(ctx);
  const up = uploadOf(ctx.st, field(form, "upload_id"));
  const seq = Number(field(form, "seq"));
  const bytes = await fileField(form);
  if (!Number.isInteger(seq) || seq < 0 || seq >= up.block_num) {
    raise(400, PARAMS_ERROR, `params error: seq ${seq} out of range`);
  }
  if (bytes.length !== Number(field(form, "size"))) {
    raise(400, PARAMS_ERROR, "params error: size does not match the part");
  }
  run(
    ctx.st.db,
    "INSERT INTO upload_parts (upload_id, seq, bytes) VALUES (?, ?, ?) ON CONFLICT(upload_id, seq) DO UPDATE SET bytes = excluded.bytes",
    up.upload_id,
    seq,
    bytes,
  );
  return ok({});
}

function finish(ctx: CallerCtx): Reply {
  const body = jsonBody(ctx, z.object({ upload_id: z.string(), block_num: z.number().int() }));
  const up = uploadOf(ctx.st, body.upload_id);
  if (body.block_num !== up.block_num) raise(400, PARAMS_ERROR, "params error: block_num mismatch");
  const parts = all<{ seq: number; bytes: Uint8Array }>(
    ctx.st.db,
    "SELECT seq, bytes FROM upload_parts WHERE upload_id = ? ORDER BY seq",
    up.upload_id,
  );
  if (parts.length !== up.block_num) {
    raise(400, PARAMS_ERROR, `params error: ${parts.length} of ${up.block_num} parts uploaded`);
  }
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.bytes.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p.bytes, at);
    at += p.bytes.length;
  }
  if (bytes.length !== up.size) {
    raise(400, PARAMS_ERROR, "params error: uploaded size differs from the prepared size");
  }
  const token = tx(ctx.st.db, () => {
    run(ctx.st.db, "DELETE FROM upload_parts WHERE upload_id = ?", up.upload_id);
    run(ctx.st.db, "DELETE FROM uploads WHERE upload_id = ?", up.upload_id);
    return storeFile(ctx.st, up.name, up.parent, bytes, ctx.caller.openId);
  });
  return ok({ file_token: token });
}

function download(ctx: CallerCtx): Reply {
  const blob =
    one<BlobRow>(ctx.st.db, "SELECT * FROM blobs WHERE key = ? AND kind = 'drive'", ctx.params.file_token) ??
      raise(404, 1061007, `file not found: ${ctx.params.file_token}`);
  return {
    kind: "raw",
    status: 200,
    body: blob.bytes as Uint8Array<ArrayBuffer>,
    headers: {
      "content-type": "application/octet-stream",
      "content-length": String(blob.bytes.length),
      "content-disposition": `attachment; filename="${blob.name.replace(/[^\x20-\x7e]|"/g, "_")}"; ` +
        `filename*=UTF-8''${encodeURIComponent(blob.name)}`,
    },
  };
}

function list(ctx: CallerCtx): Reply {
  const folder = ctx.query.get("folder_token") || DRIVE.folder;
  const rows = all<BlobRow>(
    ctx.st.db,
    "SELECT key, name, owner, parent, create_time FROM blobs WHERE kind = 'drive' AND parent = ? ORDER BY create_time, key",
    folder,
  );
  const docs = all<{ document_id: string; title: string; owner: string; create_time: number }>(
    ctx.st.db,
    "SELECT document_id, title, owner, create_time FROM docs WHERE folder_token = ? ORDER BY create_time",
    folder,
  );
  const entry = (token: string, name: string, type: "docx" | "file", created: number, owner: string) => ({
    token,
    name,
    type,
    parent_token: folder,
    url: `${ctx.st.origin}/${type}/${token}`,
    created_time: String(Math.floor(created / 1000)),
    modified_time: String(Math.floor(created / 1000)),
    owner_id: owner,
  });
  const files = [
    ...docs.map((d) => entry(d.document_id, d.title, "docx", d.create_time, d.owner)),
    ...rows.map((b) => entry(b.key, b.name, "file", b.create_time, b.owner)),
  ];
  const page = paginate(files, pageOf(ctx.query, { size: 100, max: 200 }));
  // Drive names its cursor `next_page_token`.
  return ok({
    files: page.items,
    has_more: page.has_more,
    ...(page.page_token ? { next_page_token: page.page_token } : {}),
  });
}

const FILES = "/open-apis/drive/v1/files";

export const driveRoutes: Route[] = [
  { method: "POST", path: `${FILES}/upload_all`, auth: "token", scopes: DRIVE_UPLOAD, handle: uploadAll },
  { method: "POST", path: `${FILES}/upload_prepare`, auth: "token", scopes: DRIVE_UPLOAD, handle: prepare },
  { method: "POST", path: `${FILES}/upload_part`, auth: "token", scopes: DRIVE_UPLOAD, handle: part },
  { method: "POST", path: `${FILES}/upload_finish`, auth: "token", scopes: DRIVE_UPLOAD, handle: finish },
  {
    method: "GET",
    path: `${FILES}/:file_token/download`,
    auth: "token",
    scopes: DRIVE_DOWNLOAD,
    handle: download,
  },
  { method: "GET", path: FILES, auth: "token", scopes: DRIVE_READ, handle: list },
];
