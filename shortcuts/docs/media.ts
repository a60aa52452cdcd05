/**
 * A document's images and attachments: `+media-upload` (a local file as media of a document),
 * `+media-download`, `+media-preview`. `+search` finds documents (user only).
 */
import * as z from "zod";
import { defineShortcut, flag, type ShortcutContext } from "../declare.ts";
import { tokenOf } from "../drive/common.ts";
import { fileNameOf } from "../drive/download.ts";
import { search as driveSearch } from "../drive/transfer.ts";
import { SINGLE_UPLOAD_MAX } from "../drive/upload.ts";

const MEDIAS = "/open-apis/drive/v1/medias";
const PARENT_TYPES = [
  "docx_image",
  "docx_file",
  "sheet_image",
  "sheet_file",
  "bitable_image",
  "bitable_file",
  "whiteboard",
] as const;

export const mediaUpload = defineShortcut({
  service: "docs",
  command: "+media-upload",
  description:
    "Upload a local image or file as media of a document (up to 20 MB); insert it with the block APIs",
  examples: ["larkit docs +media-upload --file chart.png --parent-type docx_image --parent-node doxcnAbc123"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["docs:document.media:upload"], bot: ["docs:document.media:upload"] },
  hasFormat: false,
  flags: {
    file: flag.requiredString("local file (up to 20 MB)", { placeholder: "path" }),
    "parent-type": flag.requiredChoice(PARENT_TYPES, "what the media belongs to"),
    "parent-node": flag.requiredString("the block or document it belongs to"),
    "doc-id": flag.string("the document, when --parent-node is a block of it"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const { size, name } = await ctx.localFile("file", f.file, { maxBytes: SINGLE_UPLOAD_MAX });
    const docId = f["doc-id"];
    const uploaded = await ctx.upload({
      path: `${MEDIAS}/upload_all`,
      fields: {
        file_name: name,
        parent_type: f["parent-type"],
        parent_node: tokenOf(f["parent-node"], "parent-node"),
        size: String(size),
        ...(docId ? { extra: JSON.stringify({ drive_route_token: tokenOf(docId, "doc-id") }) } : {}),
      },
      file: { field: "file", path: f.file, flag: "file", maxBytes: SINGLE_UPLOAD_MAX },
      response: z.object({ file_token: z.string() }),
      planned: { file_token: "<media_token>" },
    });
    await ctx.out({ file_token: uploaded.file_token, file_name: name, size });
  },
});

const downloadFlags = {
  token: flag.requiredString("media token"),
  output: flag.string("local path (default: the media's name, else its token)"),
  overwrite: flag.boolean("replace the output file if it exists"),
};

/**
 * Saves what the media's `endpoint` answers where `--output` says, else under the name `nameOf` finds, else
 * under the token followed by `fallbackSuffix`.
 */
async function saveMedia(
  ctx: ShortcutContext<typeof downloadFlags>,
  endpoint: string,
  nameOf: (headers: Headers) => string | undefined,
  fallbackSuffix: string,
): Promise<void> {
  const token = tokenOf(ctx.flags.token, "token");
  const saved = await ctx.download({
    path: `${MEDIAS}/${encodeURIComponent(token)}/${endpoint}`,
    output: ctx.flags.output,
    overwrite: ctx.flags.overwrite,
    nameOf,
    fallbackName: `${token}${fallbackSuffix}`,
  });
  await ctx.outFormat({ token, ...saved });
}

export const mediaDownload = defineShortcut({
  service: "docs",
  command: "+media-download",
  description: "Download an image or attachment of a document",
  examples: ["larkit docs +media-download --token boxcnMedia1 --output chart.png"],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["docs:document.media:download"], bot: ["docs:document.media:download"] },
  hasFormat: true,
  flags: downloadFlags,
  async run(ctx) {
    await saveMedia(ctx, "download", (h) => fileNameOf(h.get("content-disposition")), "");
  },
});

export const mediaPreview = defineShortcut({
  service: "docs",
  command: "+media-preview",
  description: "Download a rendered preview of a document's attachment",
  examples: ["larkit docs +media-preview --token boxcnMedia1 --output preview.pdf"],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["docs:document.media:download"], bot: ["docs:document.media:download"] },
  hasFormat: true,
  flags: downloadFlags,
  async run(ctx) {
    await saveMedia(ctx, "preview_download", () => undefined, "-preview");
  },
});

export const search = defineShortcut({
  ...driveSearch,
  service: "docs",
  description: "Search documents and wiki pages you can read (user only: search runs with your access)",
  examples: [
    'larkit docs +search --query "onboarding"',
    "larkit docs +search --query plan --doc-types docx --page-all",
  ],
});
