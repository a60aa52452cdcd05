/**
 * `drive +upload`: a local file into a Drive folder. Files up to 20 MB go in one `upload_all` request; larger
 * ones in the suite's chunked protocol — `upload_prepare` (the suite chooses block size and count),
 * one `upload_part` per block, `upload_finish` — because upload_all refuses them.
 */
import { basename } from "node:path";
import { z } from "zod";
import { errors } from "../../cli/output/errors.ts";
import { parseResponse } from "../common/response.ts";
import { defineShortcut, flag, type FlagValues, type ShortcutContext } from "../declare.ts";
import { resolveLocalFile } from "../../cli/local_paths.ts";

const FILES = "/open-apis/drive/v1/files";
/** The largest file `upload_all` accepts; above it the chunked upload is used. */
export const SINGLE_UPLOAD_MAX = 20 * 1024 * 1024;

const flags = {
  file: flag.requiredString("local file path (relative; files over 20 MB are uploaded in chunks)", {
    placeholder: "path",
  }),
  "folder-token": flag.string("target folder token (default: the root of My Space)"),
  name: flag.string("file name in Drive (default: the local file name)"),
};
type Flags = typeof flags;

export type UploadMethod = "upload_all" | "chunked";

export function uploadMethodFor(size: number): UploadMethod {
  return size > SINGLE_UPLOAD_MAX ? "chunked" : "upload_all";
}

/** The blocks of a chunked upload: [start, end) byte offsets of each of `count` blocks of `blockSize`. */
export function blocksOf(size: number, blockSize: number, count: number): [number, number][] {
  if (blockSize <= 0 || count !== Math.max(1, Math.ceil(size / blockSize))) {
    throw errors.api(
      `upload_prepare answered an inconsistent plan: ${count} blocks of ${blockSize} bytes for ${size}`,
    );
  }
  return Array.from({ length: count }, (_, i) => [i * blockSize, Math.min(size, (i + 1) * blockSize)]);
}

async function localFile(ctx: ShortcutContext<Flags>) {
  const path = await resolveLocalFile(ctx.p, "file", ctx.flags.file);
  const size = (await ctx.p.files.stat(path))?.size ?? 0;
  return { path, size, name: ctx.flags.name ?? basename(ctx.flags.file) };
}

function target(f: FlagValues<Flags>) {
  return { parent_type: "explorer", parent_node: f["folder-token"] ?? "" };
}

const Uploaded = z.object({ file_token: z.string() });
const Prepared = z.object({
  upload_id: z.string(),
  block_size: z.number().int(),
  block_num: z.number().int(),
});

async function uploadAll(ctx: ShortcutContext<Flags>, bytes: Uint8Array, name: string): Promise<string> {
  const form = new FormData();
  const { parent_type, parent_node } = target(ctx.flags);
  form.set("file_name", name);
  form.set("parent_type", parent_type);
  form.set("parent_node", parent_node);
  form.set("size", String(bytes.length));
  form.set("file", new File([new Uint8Array(bytes)], name));
  const data = await ctx.api({ method: "POST", path: `${FILES}/upload_all`, form });
  return parseResponse(Uploaded, data, "drive upload_all").file_token;
}

async function uploadChunked(ctx: ShortcutContext<Flags>, bytes: Uint8Array, name: string): Promise<string> {
  const prepared = parseResponse(
    Prepared,
    await ctx.api({
      method: "POST",
      path: `${FILES}/upload_prepare`,
      body: { file_name: name, ...target(ctx.flags), size: bytes.length },
    }),
    "drive upload_prepare",
  );
  const blocks = blocksOf(bytes.length, prepared.block_size, prepared.block_num);
  for (const [seq, [start, end]] of blocks.entries()) {
    await ctx.diag.progress(`uploading block ${seq + 1}/${blocks.length}`);
    const form = new FormData();
    form.set("upload_id", prepared.upload_id);
    form.set("seq", String(seq));
    form.set("size", String(end - start));
    form.set("file", new File([bytes.slice(start, end)], name));
    // A part is addressed by (upload_id, seq): sending it twice stores it once, so a lost answer may be retried.
    await ctx.client.call({
      method: "POST",
      path: `${FILES}/upload_part`,
      form,
      identity: ctx.identity,
      idempotent: true,
    });
  }
  const data = await ctx.api({
    method: "POST",
    path: `${FILES}/upload_finish`,
    body: { upload_id: prepared.upload_id, block_num: prepared.block_num },
  });
  return parseResponse(Uploaded, data, "drive upload_finish").file_token;
}

export const upload = defineShortcut({
  service: "drive",
  command: "+upload",
  description: "Upload a local file to Drive (chunked above 20 MB)",
  examples: [
    "larkit drive +upload --file ./report.pdf",
    "larkit drive +upload --file ./video.mp4 --folder-token fldcn123 --name demo.mp4",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["drive:file:upload"], bot: ["drive:file:upload"] },
  hasFormat: false,
  flags,
  async dryRun(ctx) {
    const { size, name } = await localFile(ctx);
    const method = uploadMethodFor(size);
    const common = { file_name: name, ...target(ctx.flags), size };
    const api = method === "upload_all"
      ? [
        await ctx.plan({
          method: "POST",
          path: `${FILES}/upload_all`,
          body: { ...common, file: `@${ctx.flags.file}` },
        }),
      ]
      : [
        await ctx.plan({ method: "POST", path: `${FILES}/upload_prepare`, body: common }),
        await ctx.plan({
          method: "POST",
          path: `${FILES}/upload_part`,
          body: { upload_id: "<upload_id>", seq: "<0..block_num-1>", file: `@${ctx.flags.file}` },
          description: "once per block, block size chosen by upload_prepare",
        }),
        await ctx.plan({
          method: "POST",
          path: `${FILES}/upload_finish`,
          body: { upload_id: "<upload_id>", block_num: "<block_num>" },
        }),
      ];
    return { api, upload_method: method, size };
  },
  async execute(ctx) {
    const { path, size, name } = await localFile(ctx);
    const bytes = await ctx.p.files.readFile(path);
    const method = uploadMethodFor(size);
    const token = method === "upload_all"
      ? await uploadAll(ctx, bytes, name)
      : await uploadChunked(ctx, bytes, name);
    await ctx.out({ file_token: token, file_name: name, size }, { upload_method: method });
  },
});
