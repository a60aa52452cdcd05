/**
 * Markdown files kept in Drive as `.md` files: `+create` uploads one (as bot, shared with the logged-in user),
 * `+fetch` downloads one. The content is stored byte for byte: nothing is converted, so nothing is lost.
 */
import { basename, extname } from "node:path";
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { grantRequester, tokenOf } from "../drive/common.ts";
import { fileNameOf } from "../drive/download.ts";
import { SINGLE_UPLOAD_MAX } from "../drive/upload.ts";

export const create = defineShortcut({
  service: "markdown",
  command: "+create",
  description:
    "Store a local markdown file in Drive as-is (up to 20 MB); as bot, the logged-in user gets full access",
  examples: [
    "larkit markdown +create --file notes.md",
    "larkit markdown +create --file notes.md --folder-token fldcn123 --name plan.md",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["drive:file:upload"], bot: ["drive:file:upload", "docs:permission.member:create"] },
  hasFormat: false,
  flags: {
    file: flag.requiredString("local .md file", { placeholder: "path" }),
    "folder-token": flag.string("target folder (default: the root of My Space)"),
    name: flag.string("name in Drive (default: the local name; must end in .md)"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const name = f.name ?? basename(f.file);
    if (![".md", ".markdown"].includes(extname(name).toLowerCase())) {
      throw errors.validation(`--name: ${name} must end in .md or .markdown`);
    }
    const { size } = await ctx.localFile("file", f.file, { maxBytes: SINGLE_UPLOAD_MAX });
    const folder = f["folder-token"];
    const { file_token } = await ctx.upload({
      path: "/open-apis/drive/v1/files/upload_all",
      fields: {
        file_name: name,
        parent_type: "explorer",
        parent_node: folder ? tokenOf(folder, "folder-token") : "",
        size: String(size),
      },
      file: { field: "file", path: f.file, flag: "file", name, maxBytes: SINGLE_UPLOAD_MAX },
      response: z.object({ file_token: z.string() }),
      planned: { file_token: "<file_token>" },
    });
    const grant = await grantRequester(ctx, file_token, "file");
    await ctx.out({ file_token, name, size, ...grant });
  },
});

export const fetchFile = defineShortcut({
  service: "markdown",
  command: "+fetch",
  description: "Download a markdown file from Drive, byte for byte",
  examples: [
    "larkit markdown +fetch --file-token boxcnAbc123",
    "larkit markdown +fetch --file-token boxcnAbc123 --output notes.md --overwrite",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["drive:file:download"], bot: ["drive:file:download"] },
  hasFormat: true,
  flags: {
    "file-token": flag.requiredString("the markdown file's token"),
    output: flag.string("local path (default: the file's name in Drive)"),
    overwrite: flag.boolean("replace the output file if it exists"),
  },
  async run(ctx) {
    const token = tokenOf(ctx.flags["file-token"], "file-token");
    const saved = await ctx.download({
      path: `/open-apis/drive/v1/files/${encodeURIComponent(token)}/download`,
      output: ctx.flags.output,
      overwrite: ctx.flags.overwrite,
      nameOf: (h) => fileNameOf(h.get("content-disposition")),
      fallbackName: `${token}.md`,
    });
    await ctx.outFormat({ file_token: token, ...saved });
  },
});
