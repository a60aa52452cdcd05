/**
 * A document's resources; today the one the suite exposes is the cover image (`--type cover`):
 * `+resource-download` saves it, `+resource-update` uploads a local image and makes it the cover,
 * `+resource-delete` removes it (succeeding with `deleted: false` when there is none, so a retry is harmless).
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type ShortcutContext } from "../declare.ts";
import { tokenOf } from "../drive/common.ts";
import { fileNameOf } from "../drive/download.ts";
import { SINGLE_UPLOAD_MAX } from "../drive/upload.ts";

const DOCS = "/open-apis/docx/v1/documents";
const typeFlag = flag.choice(["cover"] as const, "which resource", { default: "cover" });
const Cover = z.looseObject({ token: z.string() });
const Document = z.looseObject({
  document: z.looseObject({ document_id: z.string(), cover: z.optional(Cover) }),
});

// deno-lint-ignore no-explicit-any
type Ctx = ShortcutContext<any>;

/** The document's current cover token, if it has one. */
async function currentCover(ctx: Ctx, doc: string): Promise<string | undefined> {
  const { document } = await ctx.api({
    method: "GET",
    path: `${DOCS}/${encodeURIComponent(doc)}`,
    description: "the document's current cover",
    response: Document,
    planned: { document: { document_id: doc, cover: { token: "<cover_token>" } } },
  });
  return document.cover?.token || undefined;
}

function setCover(
  ctx: Ctx,
  doc: string,
  cover: { token: string; offset_ratio_x?: number; offset_ratio_y?: number },
) {
  return ctx.api({
    method: "PATCH",
    path: `${DOCS}/${encodeURIComponent(doc)}`,
    body: { cover },
    // Setting the same cover twice leaves the same document.
    repeatable: true,
    response: Document,
    planned: { document: { document_id: doc } },
  });
}

const ratio = (name: string) =>
  flag.string(`${name} of the visible part, 0 to 1 (default 0)`, { placeholder: "ratio" });

function ratioOf(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) {
    throw errors.validation(`--${name}: ${value} is not a number from 0 to 1`);
  }
  return n;
}

export const resourceDownload = defineShortcut({
  service: "docs",
  command: "+resource-download",
  description: "Save a document's cover image to a local file",
  examples: [
    "larkit docs +resource-download --doc doxcnAbc123 --output cover.png",
    "larkit docs +resource-download --doc https://example.feishu.cn/docx/doxcnAbc123 --output cover.png --overwrite",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["docx:document:readonly", "docs:document.media:download"],
    bot: ["docx:document:readonly", "docs:document.media:download"],
  },
  hasFormat: true,
  flags: {
    doc: flag.requiredString("document URL or token"),
    type: typeFlag,
    output: flag.requiredString("local path", { placeholder: "path" }),
    overwrite: flag.boolean("replace the output file if it exists"),
  },
  async run(ctx) {
    const doc = tokenOf(ctx.flags.doc, "doc");
    const cover = await currentCover(ctx, doc);
    if (!cover) {
      throw errors.notFound(`document ${doc} has no cover`, { hint: "set one with docs +resource-update" });
    }
    const saved = await ctx.download({
      path: `/open-apis/drive/v1/medias/${encodeURIComponent(cover)}/download`,
      output: ctx.flags.output,
      overwrite: ctx.flags.overwrite,
      nameOf: (h) => fileNameOf(h.get("content-disposition")),
      fallbackName: cover,
    });
    await ctx.outFormat({ document_id: doc, type: ctx.flags.type, cover_token: cover, ...saved });
  },
});

export const resourceUpdate = defineShortcut({
  service: "docs",
  command: "+resource-update",
  description: "Upload a local image and make it the document's cover (replacing any cover it had)",
  examples: [
    "larkit docs +resource-update --doc doxcnAbc123 --file cover.png",
    "larkit docs +resource-update --doc doxcnAbc123 --file cover.png --offset-ratio-y 0.4",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["docx:document:readonly", "docx:document:write_only", "docs:document.media:upload"],
    bot: ["docx:document:readonly", "docx:document:write_only", "docs:document.media:upload"],
  },
  hasFormat: false,
  flags: {
    doc: flag.requiredString("document URL or token"),
    type: typeFlag,
    file: flag.requiredString("local image (up to 20 MB)", { placeholder: "path" }),
    "offset-ratio-x": ratio("horizontal offset"),
    "offset-ratio-y": ratio("vertical offset"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const doc = tokenOf(f.doc, "doc");
    const x = ratioOf(f["offset-ratio-x"], "offset-ratio-x");
    const y = ratioOf(f["offset-ratio-y"], "offset-ratio-y");
    const { size, name } = await ctx.localFile("file", f.file, { maxBytes: SINGLE_UPLOAD_MAX });
    const { file_token } = await ctx.upload({
      path: "/open-apis/drive/v1/medias/upload_all",
      fields: { file_name: name, parent_type: "docx_image", parent_node: doc, size: String(size) },
      file: { field: "file", path: f.file, flag: "file", maxBytes: SINGLE_UPLOAD_MAX },
      response: z.object({ file_token: z.string() }),
      planned: { file_token: "<cover_token>" },
    });
    await setCover(ctx, doc, {
      token: file_token,
      ...(x === undefined ? {} : { offset_ratio_x: x }),
      ...(y === undefined ? {} : { offset_ratio_y: y }),
    });
    await ctx.out({ document_id: doc, type: f.type, cover_token: file_token, size });
  },
});

export const resourceDelete = defineShortcut({
  service: "docs",
  command: "+resource-delete",
  description: "Remove a document's cover image (nothing to do when it has none)",
  examples: [
    "larkit docs +resource-delete --doc doxcnAbc123",
    "larkit docs +resource-delete --doc doxcnAbc123 --dry-run",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["docx:document:readonly", "docx:document:write_only"],
    bot: ["docx:document:readonly", "docx:document:write_only"],
  },
  hasFormat: false,
  flags: { doc: flag.requiredString("document URL or token"), type: typeFlag },
  async run(ctx) {
    const doc = tokenOf(ctx.flags.doc, "doc");
    const cover = await currentCover(ctx, doc);
    if (cover) await setCover(ctx, doc, { token: "" });
    await ctx.out({
      document_id: doc,
      type: ctx.flags.type,
      deleted: cover !== undefined,
      cover_token: cover,
    });
  },
});
