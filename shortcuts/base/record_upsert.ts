/**
 * `base +record-upsert`: creates a record, or with `--record-id` updates that record's fields (the fields not
 * named keep their values). A create carries `client_token` (this invocation's id), so a retried create does
 * not add the record twice.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { recordsPath, tableFlags } from "./table.ts";

const flags = {
  ...tableFlags,
  "record-id": flag.string("record ID (rec\u2026) to update; omit to create a record"),
  json: flag.requiredJson(
    'the record\'s fields as a JSON object, e.g. \'{"Title":"Fix login","Done":false}\'',
    { input: ["file", "stdin"] },
  ),
};

const Fields = z.record(z.string(), z.unknown());

/** The fields to write: the object itself, or the `fields` of a `{"fields": {...}}` record. */
export function fieldsOf(raw: unknown): Record<string, unknown> {
  const wrapped = z.strictObject({ fields: Fields }).safeParse(raw);
  if (wrapped.success) return wrapped.data.fields;
  const plain = Fields.safeParse(raw);
  if (!plain.success || Array.isArray(raw) || Object.keys(plain.data).length === 0) {
    throw errors.validation("--json must be a non-empty JSON object of field names to values", {
      hint: `e.g. --json '{"Title":"Fix login","Done":false}'`,
    });
  }
  return plain.data;
}

const Saved = z.object({ record: z.looseObject({ record_id: z.string(), fields: Fields }) });

export const recordUpsert = defineShortcut({
  service: "base",
  command: "+record-upsert",
  description: "Create a record, or update one with --record-id",
  examples: [
    `larkit base +record-upsert --base-token bascnAbc123 --table-id tblXyz --json '{"Title":"Fix login"}'`,
    "larkit base +record-upsert --base-token bascnAbc123 --table-id tblXyz --record-id recAbc --json @fields.json",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["bitable:app"], bot: ["bitable:app"] },
  hasFormat: false,
  flags,
  idempotencyKey: true,
  async run(ctx) {
    const f = ctx.flags;
    const body = { fields: fieldsOf(f.json) };
    const recordId = f["record-id"];
    ctx.note({ action: recordId === undefined ? "create" : "update" });
    const planned = { record: { record_id: recordId ?? "<record_id>", fields: body.fields } };
    // Creating is keyed (the suite creates once per client_token); updating one record is repeatable as is.
    const saved = recordId === undefined
      ? await ctx.api({
        method: "POST",
        path: recordsPath(f["base-token"], f["table-id"]),
        body,
        dedup: { field: "client_token", in: "query" },
        response: Saved,
        planned,
      })
      : await ctx.api({
        method: "PUT",
        path: recordsPath(f["base-token"], f["table-id"], recordId),
        body,
        response: Saved,
        planned,
      });
    await ctx.out(saved.record, { action: recordId === undefined ? "created" : "updated" });
  },
});
