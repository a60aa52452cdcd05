/**
 * Versions of an uploaded Drive file: `+version-history`, `+version-get` (downloads one version),
 * `+version-revert`, `+version-delete`.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { tokenOf } from "./common.ts";
import { fileNameOf } from "./download.ts";

const file = (token: string) => `/open-apis/drive/v1/files/${encodeURIComponent(token)}`;
const Version = z.looseObject({
  version: z.string(),
  name: z.optional(z.string()),
  size: z.optional(z.number()),
});

function versionOf(v: string): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(v)) throw errors.validation(`--version-id: ${v} is not a version`);
  return v;
}

const fileFlags = { "file-token": flag.requiredString("the Drive file (uploaded file, not a document)") };
const versionFlags = {
  ...fileFlags,
  "version-id": flag.requiredString("the version (see +version-history; --version-id is larkit's own)"),
};

export const versionHistory = defineShortcut({
  service: "drive",
  command: "+version-history",
  description: "List the uploaded versions of a Drive file, newest first",
  examples: [
    "larkit drive +version-history --file-token boxcnAbc",
    "larkit drive +version-history --file-token boxcnAbc --limit 5 --cursor c2",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["drive:file:download"], bot: ["drive:file:download"] },
  hasFormat: true,
  columns: ["name", "version", "size"],
  flags: {
    ...fileFlags,
    limit: flag.integer("versions per page", { default: 20, min: 1, max: 100 }),
    cursor: flag.string("cursor from the previous answer's meta.cursor"),
  },
  async run(ctx) {
    const token = tokenOf(ctx.flags["file-token"], "file-token");
    const answer = await ctx.api({
      method: "GET",
      path: `${file(token)}/history`,
      params: { limit: ctx.flags.limit, cursor: ctx.flags.cursor },
      response: z.object({
        items: z._default(z.array(Version), []),
        has_more: z._default(z.boolean(), false),
        cursor: z.optional(z.string()),
      }),
      planned: { items: [], has_more: false },
    });
    await ctx.outFormat(
      answer.items,
      {
        count: answer.items.length,
        has_more: answer.has_more,
        ...(answer.has_more && answer.cursor ? { cursor: answer.cursor } : {}),
      },
      (d) =>
        (d as z.infer<typeof Version>[]).map((v) => `${v.version}  ${v.name ?? ""}  ${v.size ?? ""}`).join(
          "\n",
        ) || "no versions",
    );
  },
});

export const versionGet = defineShortcut({
  service: "drive",
  command: "+version-get",
  description: "Download one version of a Drive file",
  examples: [
    "larkit drive +version-get --file-token boxcnAbc --version-id 7",
    "larkit drive +version-get --file-token boxcnAbc --version-id 7 --output ./report-v7.pdf",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["drive:file:download"], bot: ["drive:file:download"] },
  hasFormat: true,
  flags: {
    ...versionFlags,
    output: flag.string("local path (default: the file's name)"),
    overwrite: flag.boolean("replace the output file if it exists"),
  },
  async run(ctx) {
    const token = tokenOf(ctx.flags["file-token"], "file-token");
    const saved = await ctx.download({
      path: `${file(token)}/download`,
      params: { version: versionOf(ctx.flags["version-id"]) },
      output: ctx.flags.output,
      overwrite: ctx.flags.overwrite,
      nameOf: (headers) => fileNameOf(headers.get("content-disposition")),
      fallbackName: `${token}-v${ctx.flags["version-id"]}`,
    });
    await ctx.outFormat({ file_token: token, version: ctx.flags["version-id"], ...saved });
  },
});

export const versionRevert = defineShortcut({
  service: "drive",
  command: "+version-revert",
  description: "Make an earlier version of a Drive file the current one",
  examples: ["larkit drive +version-revert --file-token boxcnAbc --version-id 6"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["drive:file:upload"], bot: ["drive:file:upload"] },
  hasFormat: false,
  flags: versionFlags,
  async run(ctx) {
    const token = tokenOf(ctx.flags["file-token"], "file-token");
    const answer = await ctx.api({
      method: "POST",
      path: `${file(token)}/revert`,
      body: { version: versionOf(ctx.flags["version-id"]) },
      response: z.looseObject({ version: z.optional(z.string()) }),
      planned: { version: "<new_version>" },
    });
    await ctx.out({
      file_token: token,
      reverted_to: ctx.flags["version-id"],
      current_version: answer.version,
    });
  },
});

export const versionDelete = defineShortcut({
  service: "drive",
  command: "+version-delete",
  description: "Delete one version of a Drive file (cannot be undone)",
  examples: ["larkit drive +version-delete --file-token boxcnAbc --version-id 3 --yes"],
  risk: "high-risk-write",
  authTypes: ["user", "bot"],
  scopes: { user: ["drive:file:upload"], bot: ["drive:file:upload"] },
  hasFormat: false,
  flags: versionFlags,
  async run(ctx) {
    const token = tokenOf(ctx.flags["file-token"], "file-token");
    await ctx.api({
      method: "POST",
      path: `${file(token)}/version_del`,
      body: { version: versionOf(ctx.flags["version-id"]) },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ file_token: token, version: ctx.flags["version-id"], deleted: true });
  },
});
