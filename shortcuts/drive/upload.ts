/**
 * `drive +upload`: a local file into a Drive folder. Files up to 20 MB go in one `upload_all` request; larger
 * ones in the suite's chunked protocol -- `upload_prepare` (the suite chooses block size and count),
 * one `upload_part` per block, `upload_finish` -- because upload_all refuses them.
 */
import { basename } from "node:path";
import * as z from "zod";
import { transferText } from "../../cli/output/diagnostics.ts";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type FlagValues, type ShortcutContext } from "../declare.ts";

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

function target(f: FlagValues<Flags>) {
  return { parent_type: "explorer", parent_node: f["folder-token"] ?? "" };
}

const Uploaded = z.object({ file_token: z.string() });
const Prepared = z.object({
  upload_id: z.string(),
  block_size: z.number().check(z.int()),
  block_num: z.number().check(z.int()),
});

async function uploadAll(ctx: ShortcutContext<Flags>, name: string, size: number): Promise<string> {
  const { parent_type, parent_node } = target(ctx.flags);
  const uploaded = await ctx.upload({
    path: `${FILES}/upload_all`,
    fields: { file_name: name, parent_type, parent_node, size: String(size) },
    file: { field: "file", path: ctx.flags.file, flag: "file", name },
    response: Uploaded,
    planned: { file_token: "<file_token>" },
  });
  return uploaded.file_token;
}

async function uploadChunked(ctx: ShortcutContext<Flags>, name: string, size: number): Promise<string> {
  const prepared = await ctx.api({
    method: "POST",
    path: `${FILES}/upload_prepare`,
    body: { file_name: name, ...target(ctx.flags), size },
    response: Prepared,
    // The plan shows one block: the suite chooses the block size.
    planned: { upload_id: "<upload_id>", block_size: size, block_num: 1 },
  });
  const blocks = blocksOf(size, prepared.block_size, prepared.block_num);
  const began = ctx.now();
  for (const [seq, [start, end]] of blocks.entries()) {
    await ctx.status(`uploading ${name}: ${transferText(start, size, ctx.now() - began)}`);
    await ctx.upload({
      path: `${FILES}/upload_part`,
      fields: { upload_id: prepared.upload_id, seq: String(seq), size: String(end - start) },
      file: { field: "file", path: ctx.flags.file, flag: "file", name, range: [start, end] },
      description: "once per block, block size chosen by upload_prepare",
      // A part is addressed by (upload_id, seq): sending it twice stores it once, so a lost answer may be retried.
      repeatable: true,
      response: z.unknown(),
      planned: {},
    });
  }
  await ctx.status(`uploaded ${name}: ${transferText(size, size, ctx.now() - began)}`);
  await ctx.status();
  const finished = await ctx.api({
    method: "POST",
    path: `${FILES}/upload_finish`,
    body: { upload_id: prepared.upload_id, block_num: prepared.block_num },
    response: Uploaded,
    planned: { file_token: "<file_token>" },
  });
  return finished.file_token;
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
  async run(ctx) {
    const { size } = await ctx.localFile("file", ctx.flags.file);
    const name = ctx.flags.name ?? basename(ctx.flags.file);
    const method = uploadMethodFor(size);
    ctx.note({ upload_method: method, size });
    const token = method === "upload_all"
      ? await uploadAll(ctx, name, size)
      : await uploadChunked(ctx, name, size);
    await ctx.out({ file_token: token, file_name: name, size }, { upload_method: method });
  },
});
