/**
 * A record's attachment field: upload a local file into it (kept alongside the files already there) and
 * download one of its files. Both read the table's fields first because v1 records key their values by field
 * name while the user names the field by ID, and refuse a field that is not an attachment field.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type ShortcutContext } from "../declare.ts";
import { itemsPage } from "../im/paging.ts";
import { fileNameOf } from "../drive/download.ts";
import { SINGLE_UPLOAD_MAX } from "../drive/upload.ts";
import { idOf, tableFlags, tablePath } from "./simple.ts";

const enc = encodeURIComponent;
const B = "bascnAbc123";
const T = "tblXyz";
const ATTACHMENT = 17;
const MEDIAS = "/open-apis/drive/v1/medias";

const Fields = itemsPage(z.looseObject({ field_id: z.string(), field_name: z.string(), type: z.number() }));
const File = z.looseObject({ file_token: z.string(), name: z.optional(z.string()) });
const Rec = z.looseObject({
  record: z.looseObject({ fields: z._default(z.record(z.string(), z.unknown()), {}) }),
});

const recordFlags = {
  ...tableFlags,
  "record-id": flag.requiredString("record ID (rec\u2026)"),
  "field-id": flag.requiredString("the attachment field's ID (fld\u2026)"),
};
type RecordFlags = { "base-token": string; "table-id": string; "record-id": string; "field-id": string };

/** The attachment field's name (records are keyed by it) and the record's files in it. */
async function filesOf(
  ctx: ShortcutContext<typeof recordFlags>,
  f: RecordFlags,
  planned: z.infer<typeof File>[],
): Promise<{ name: string; files: z.infer<typeof File>[] }> {
  const fieldId = idOf("field-id", f["field-id"]);
  const recordId = idOf("record-id", f["record-id"]);
  const pages = await ctx.paginate({
    method: "GET",
    path: `${tablePath(f)}/fields`,
    params: { page_size: 100 },
    description: "the table's fields, to name the attachment field",
    response: Fields,
    planned: { items: [{ field_id: fieldId, field_name: fieldId, type: ATTACHMENT }], has_more: false },
  }, { maxPages: 10 });
  const field = pages.flatMap((p) => p.items ?? []).find((x) => x.field_id === fieldId);
  if (!field) throw errors.notFound(`no field ${fieldId} in table ${f["table-id"]}`);
  if (field.type !== ATTACHMENT) throw errors.validation(`field ${fieldId} is not an attachment field`);
  const { record } = await ctx.api({
    method: "GET",
    path: `${tablePath(f)}/records/${enc(recordId)}`,
    response: Rec,
    planned: { record: { fields: { [field.field_name]: planned } } },
  });
  const files = z.array(File).safeParse(record.fields[field.field_name] ?? []);
  return { name: field.field_name, files: files.success ? files.data : [] };
}

export const recordUploadAttachment = defineShortcut({
  service: "base",
  command: "+record-upload-attachment",
  description:
    "Upload a local file (up to 20 MB) into a record's attachment field; the files already there stay",
  examples: [
    `larkit base +record-upload-attachment --base-token ${B} --table-id ${T} --record-id recAbc --field-id fldFiles --file ./spec.pdf`,
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["base:record:update", "base:field:read", "docs:document.media:upload"],
    bot: ["base:record:update", "base:field:read", "docs:document.media:upload"],
  },
  hasFormat: false,
  flags: { ...recordFlags, file: flag.requiredString("local file path (relative, at most 20 MB)") },
  async run(ctx) {
    const f = ctx.flags;
    const { size, name } = await ctx.localFile("file", f.file, { maxBytes: SINGLE_UPLOAD_MAX });
    const { name: field, files } = await filesOf(ctx, f, []);
    const { file_token } = await ctx.upload({
      path: `${MEDIAS}/upload_all`,
      fields: {
        file_name: name,
        parent_type: "bitable_file",
        parent_node: idOf("base-token", f["base-token"]),
        size: String(size),
      },
      file: { field: "file", path: f.file, flag: "file", maxBytes: SINGLE_UPLOAD_MAX },
      response: z.object({ file_token: z.string() }),
      planned: { file_token: "<file_token>" },
    });
    const all = [...files.map((a) => ({ file_token: a.file_token })), { file_token }];
    await ctx.api({
      method: "PUT",
      path: `${tablePath(f)}/records/${enc(f["record-id"])}`,
      body: { fields: { [field]: all } },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ record_id: f["record-id"], file_token, file_name: name, size, files: all.length });
  },
});

export const recordDownloadAttachment = defineShortcut({
  service: "base",
  command: "+record-download-attachment",
  description: "Download one file of a record's attachment field to a local path",
  examples: [
    `larkit base +record-download-attachment --base-token ${B} --table-id ${T} --record-id recAbc --field-id fldFiles --file-token boxcnAbc`,
    `larkit base +record-download-attachment --base-token ${B} --table-id ${T} --record-id recAbc --field-id fldFiles --file-token boxcnAbc --output ./spec.pdf --overwrite`,
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["base:record:read", "docs:document.media:download"],
    bot: ["base:record:read", "docs:document.media:download"],
  },
  hasFormat: true,
  flags: {
    ...recordFlags,
    "file-token": flag.requiredString("the file to download (its file_token in the record)"),
    output: flag.string("local path to save to, relative (default: the file's name)", {
      placeholder: "path",
    }),
    overwrite: flag.boolean("replace the output file if it exists"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const token = idOf("file-token", f["file-token"]);
    const { name, files } = await filesOf(ctx, f, [{ file_token: token }]);
    const file = files.find((a) => a.file_token === token);
    if (!file) throw errors.notFound(`record ${f["record-id"]} has no file ${token} in "${name}"`);
    const saved = await ctx.download({
      path: `${MEDIAS}/${enc(token)}/download`,
      // The suite checks a base attachment's access against its table.
      params: { extra: JSON.stringify({ bitablePerm: { tableId: f["table-id"] } }) },
      output: f.output,
      overwrite: f.overwrite,
      nameOf: (headers) => file.name ?? fileNameOf(headers.get("content-disposition")),
      fallbackName: token,
    });
    await ctx.outFormat({ record_id: f["record-id"], file_token: token, ...saved });
  },
});
