/**
 * Drive v1 files: one-shot upload (`upload_all`, <= 20 MB), chunked upload (`upload_prepare` -> `upload_part` ×
 * block_num -> `upload_finish`), download as a binary body with Content-Disposition, and folder listing. The
 * bytes are kept on disk (`file_store.ts`) and downloads stream from there, so a file may exceed any memory.
 * Sizes and the optional Adler-32 `checksum` are checked with the suite's codes.
 */
import * as z from "zod";
import { all, newHex, one, run, tx } from "../db.ts";
import { DRIVE } from "../fixtures.ts";
import { decodePageToken, pageOf, paginate } from "../paging.ts";
import { attachment, invalidParam, ok, raise, type Reply } from "../reply.ts";
import { type CallerCtx, jsonBody, multipartBody, type Route } from "../router.ts";
import { DRIVE_DOWNLOAD, DRIVE_READ, DRIVE_UPLOAD } from "../scopes.ts";
import type { EmulatorState } from "../state.ts";
import { adler32 } from "../file_store.ts";
import { driveDocs } from "../drive_index.ts";
import { seedObject } from "../fixtures.ts";

const MAX_UPLOAD_ALL = 20 * 1024 * 1024;
/** The suite's fixed block size for chunked uploads. */
export const BLOCK_SIZE = 4 * 1024 * 1024;
/** The suite's drive upload codes (its error-code table for upload_all / upload_part / upload_finish). */
const PARAMS_ERROR = 1061002;
const SIZE_BEYOND_LIMIT = 1061043;
const CHECKSUM_INVALID = 1062008;
const SIZE_MISMATCH = 1062009;
const BLOCK_MISSING = 1062010;
const BLOCK_OUT_OF_BOUNDS = 1062011;

interface BlobRow {
  key: string;
  name: string;
  file_type: string;
  size: number;
  owner: string;
  parent: string;
  create_time: number;
}

function newFileToken(st: EmulatorState): string {
  return `boxcn${newHex(st.db, "drive", 22)}`;
}

function recordFile(
  st: EmulatorState,
  token: string,
  name: string,
  parent: string,
  size: number,
  owner: string,
) {
  run(
    st.db,
    "INSERT INTO blobs (key, kind, name, file_type, size, owner, parent, create_time) VALUES (?, 'drive', ?, 'file', ?, ?, ?, ?)",
    token,
    name,
    size,
    owner,
    parent,
    st.clock.now(),
  );
}

function field(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === "string" && v !== "" ? v : invalidParam(`${name} is required`);
}

/**
 * The `file` part, checked as the suite checks it: its length against the declared `size`, and against the
 * optional `checksum` (Adler-32, decimal) when one is sent.
 */
async function checkedFile(form: FormData): Promise<Uint8Array> {
  const f = form.get("file");
  if (!(f instanceof File)) invalidParam("file is required");
  const bytes = new Uint8Array(await f.arrayBuffer());
  const size = Number(field(form, "size"));
  if (bytes.length !== size) {
    raise(
      400,
      SIZE_MISMATCH,
      `the actual size is inconsistent with the parameter declaration size (${bytes.length} sent, ${size} declared)`,
    );
  }
  const checksum = form.get("checksum");
  if (typeof checksum === "string" && checksum !== "" && checksum !== adler32(bytes)) {
    raise(400, CHECKSUM_INVALID, "checksum param Invalid: the Adler-32 of the bytes sent differs");
  }
  return bytes;
}

async function uploadAll(ctx: CallerCtx): Promise<Reply> {
  const form = await multipartBody(ctx);
  const name = field(form, "file_name");
  const bytes = await checkedFile(form);
  if (bytes.length > MAX_UPLOAD_ALL) {
    raise(
      400,
      SIZE_BEYOND_LIMIT,
      "file size beyond limit: upload_all accepts at most 20MB; use upload_prepare",
    );
  }
  // `file_token` given: the upload replaces that file's content as its new version (same token and name).
  const replacing = form.get("file_token");
  if (typeof replacing === "string" && replacing !== "") {
    if (!one(ctx.st.db, "SELECT key FROM blobs WHERE kind = 'drive' AND key = ?", replacing)) {
      raise(404, 1061007, `file not found: ${replacing}`);
    }
    ctx.st.files.put(replacing, bytes);
    run(ctx.st.db, "UPDATE blobs SET size = ? WHERE kind = 'drive' AND key = ?", bytes.length, replacing);
    return ok({ file_token: replacing });
  }
  const token = newFileToken(ctx.st);
  ctx.st.files.put(token, bytes);
  recordFile(ctx.st, token, name, String(form.get("parent_node") ?? ""), bytes.length, ctx.caller.openId);
  return ok({ file_token: token });
}

const Prepare = z.object({
  file_name: z.string().check(z.minLength(1)),
  parent_type: z._default(z.string(), "explorer"),
  parent_node: z._default(z.string(), ""),
  size: z.number().check(z.int(), z.minimum(0)),
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
  if (!Number.isInteger(seq) || seq < 0 || seq >= up.block_num) {
    raise(400, BLOCK_OUT_OF_BOUNDS, `block num out of bounds: seq ${seq} of ${up.block_num} blocks`);
  }
  const bytes = await checkedFile(form);
  ctx.st.files.putPart(up.upload_id, seq, bytes);
  run(
    ctx.st.db,
    "INSERT INTO upload_parts (upload_id, seq, size) VALUES (?, ?, ?) ON CONFLICT(upload_id, seq) DO UPDATE SET size = excluded.size",
    up.upload_id,
    seq,
    bytes.length,
  );
  return ok({});
}

async function finish(ctx: CallerCtx): Promise<Reply> {
  const body = jsonBody(ctx, z.object({ upload_id: z.string(), block_num: z.number().check(z.int()) }));
  const up = uploadOf(ctx.st, body.upload_id);
  if (body.block_num !== up.block_num) raise(400, PARAMS_ERROR, "params error: block_num mismatch");
  const parts = all<{ seq: number; size: number }>(
    ctx.st.db,
    "SELECT seq, size FROM upload_parts WHERE upload_id = ? ORDER BY seq",
    up.upload_id,
  );
  if (parts.length !== up.block_num) {
    raise(400, BLOCK_MISSING, `block missing, please upload all blocks: ${parts.length} of ${up.block_num}`);
  }
  const total = parts.reduce((n, p) => n + p.size, 0);
  if (total !== up.size) {
    raise(400, SIZE_MISMATCH, `the blocks hold ${total} bytes; ${up.size} were declared at upload_prepare`);
  }
  const token = newFileToken(ctx.st);
  const written = await ctx.st.files.assemble(up.upload_id, up.block_num, token);
  if (written !== up.size) raise(500, 1061001, `internal error: assembled ${written} of ${up.size} bytes`);
  tx(ctx.st.db, () => {
    run(ctx.st.db, "DELETE FROM upload_parts WHERE upload_id = ?", up.upload_id);
    run(ctx.st.db, "DELETE FROM uploads WHERE upload_id = ?", up.upload_id);
    recordFile(ctx.st, token, up.name, up.parent, up.size, ctx.caller.openId);
  });
  return ok({ file_token: token });
}

/** The file streams from disk: a download of any size costs the emulator a read buffer, not the file. */
async function download(ctx: CallerCtx): Promise<Reply> {
  const blob =
    one<BlobRow>(ctx.st.db, "SELECT * FROM blobs WHERE key = ? AND kind = 'drive'", ctx.params.file_token) ??
      raise(404, 1061007, `file not found: ${ctx.params.file_token}`);
  const stored = await ctx.st.files.open(blob.key) ??
    raise(500, 1061001, `internal error: the bytes of ${blob.key} are missing`);
  return attachment(stored, blob.name);
}

/** Whether `token` is a folder: the root of My Space, or one made by `create_folder`. */
export function isFolder(st: EmulatorState, token: string): boolean {
  return token === DRIVE.folder || driveDocs(st).some((d) => d.token === token && d.type === "folder");
}

/** A folder's contents, whichever API made them (documents, uploads, spreadsheets, folders, copies). */
function list(ctx: CallerCtx): Reply {
  const folder = ctx.query.get("folder_token") || DRIVE.folder;
  if (!isFolder(ctx.st, folder)) raise(404, 1061007, `file not found: ${folder}`);
  const files = driveDocs(ctx.st).filter((d) => d.parent === folder).map((d) => ({
    token: d.token,
    name: d.title,
    type: d.type,
    parent_token: folder,
    url: `${ctx.st.origin}/${d.type}/${d.token}`,
    ...(d.createTime ? { created_time: d.createTime, modified_time: d.createTime } : {}),
    ...(d.owner ? { owner_id: d.owner } : {}),
  }));
  const page = paginate(files, pageOf(ctx.query, { size: 100, max: 200 }));
  // Drive names its cursor `next_page_token`.
  return ok({
    files: page.items,
    has_more: page.has_more,
    ...(page.page_token ? { next_page_token: page.page_token } : {}),
  });
}

/** A new folder in a folder that exists (My Space's root when none is named). */
function createFolder(ctx: CallerCtx): Reply {
  const body = jsonBody(
    ctx,
    z.object({ name: z.string().check(z.minLength(1)), folder_token: z._default(z.string(), "") }),
  );
  const parent = body.folder_token || DRIVE.folder;
  if (!isFolder(ctx.st, parent)) raise(404, 1061007, `file not found: ${parent}`);
  const token = `fldcn${newHex(ctx.st.db, "drive", 22)}`;
  const url = `${ctx.st.origin}/folder/${token}`;
  seedObject(ctx.st.db, FILES, token, {
    token,
    name: body.name,
    type: "folder",
    parent_token: parent,
    url,
    owner_id: ctx.caller.openId,
    created_time: String(Math.floor(ctx.st.clock.now() / 1000)),
  });
  return ok({ token, url });
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
  {
    method: "POST",
    path: `${FILES}/create_folder`,
    auth: "token",
    scopes: ["space:folder:create", "drive:drive"],
    handle: createFolder,
  },
  {
    method: "POST",
    path: "/open-apis/drive/v1/metas/batch_query",
    auth: "token",
    scopes: ["drive:drive.metadata:readonly", ...DRIVE_READ],
    handle: metas,
  },
  {
    method: "POST",
    path: "/open-apis/search/v2/doc_wiki/search",
    auth: "token",
    scopes: ["search:docs:read"],
    handle: search,
  },
];

/** Metas of the documents the emulator holds; a token that names none is in `failed_list` (970005). */
function metas(ctx: CallerCtx): Reply {
  const body = jsonBody(
    ctx,
    z.object({
      request_docs: z.array(z.object({ doc_token: z.string(), doc_type: z.string() })),
      with_url: z.optional(z.boolean()),
    }),
  );
  const docs = driveDocs(ctx.st);
  const found = [];
  const failed_list = [];
  for (const r of body.request_docs) {
    const d = docs.find((x) => x.token === r.doc_token && (x.type === r.doc_type || r.doc_type === "wiki"));
    if (!d) {
      failed_list.push({ token: r.doc_token, code: 970005 });
      continue;
    }
    found.push({
      doc_token: d.token,
      doc_type: d.type,
      title: d.title,
      owner_id: d.owner,
      create_time: d.createTime,
      latest_modify_user: d.owner,
      latest_modify_time: d.createTime,
      url: body.with_url ? `${ctx.st.origin}/${d.type}/${d.token}` : "",
    });
  }
  return ok({ metas: found, failed_list });
}

/**
 * The document search over what the emulator holds: a document matches when every word of the query is in its
 * title (or, unless `only_title`, its text), case-insensitively; no ranking beyond the order of creation.
 */
function search(ctx: CallerCtx): Reply {
  const body = jsonBody(
    ctx,
    z.object({
      query: z._default(z.string(), ""),
      doc_filter: z.optional(
        z.object({ doc_types: z.optional(z.array(z.string())), only_title: z.optional(z.boolean()) }),
      ),
      page_size: z._default(z.number(), 15),
      page_token: z.optional(z.string()),
    }),
  );
  const words = body.query.toLowerCase().split(/\s+/).filter(Boolean);
  const types = body.doc_filter?.doc_types?.map((t) => t.toLowerCase());
  const hits = driveDocs(ctx.st).filter((d) => {
    if (types?.length && !types.includes(d.type)) return false;
    const hay = (body.doc_filter?.only_title ? d.title : `${d.title}\n${d.text}`).toLowerCase();
    return words.every((w) => hay.includes(w));
  }).map((d) => ({
    entity_type: d.type.toUpperCase(),
    title_highlighted: d.title,
    result_meta: {
      token: d.token,
      doc_types: d.type.toUpperCase(),
      owner_id: d.owner,
      url: `${ctx.st.origin}/${d.type}/${d.token}`,
    },
  }));
  const page = paginate(hits, {
    offset: body.page_token ? decodePageToken(body.page_token) : 0,
    size: Math.min(Math.max(1, body.page_size), 20),
  });
  return ok({
    res_units: page.items,
    has_more: page.has_more,
    total: hits.length,
    ...(page.page_token ? { page_token: page.page_token } : {}),
  });
}
