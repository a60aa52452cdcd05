/**
 * What `larkit schema <service.resource.method>` shows: the JSON document (parameters flat, lark-cli style,
 * plus JSON Schemas of path, query, body and response; identities, scopes, risk, pagination, examples) and the
 * `--format pretty` tree. Loaded only by `schema`, with the response shapes. Pure.
 */
import { closedSchema, type JsonSchema, jsonSchemaFromFields } from "./fields.ts";
import { exampleRequest } from "./example.ts";
import type { ApiMethod } from "./method.ts";
import type { FieldSpec } from "./schema.ts";

export interface Pagination {
  /** The query parameter carrying the cursor. */
  pageToken: string;
  pageSize?: string;
  /** The response field holding the items. */
  listField?: string;
}

export function paginationOf(m: ApiMethod): Pagination | undefined {
  if (m.parameters.page_token?.location !== "query") return undefined;
  return {
    pageToken: "page_token",
    ...(m.parameters.page_size ? { pageSize: "page_size" } : {}),
    ...(m.listField ? { listField: m.listField } : {}),
  };
}

/** What a reader picks first from an item: its id, its name, when, then its state. */
const RANKS = [/^id$|_id$/, /(^|_)(name|title|summary|subject)$/, /(^|_)time$/, /(^|_)status$/];

/** Up to three scalar fields worth picking: one of each rank first (id, name, time, status), then the rest. */
function pickFields(shape: JsonSchema | undefined): string[] {
  const scalars = Object.entries(shape?.properties ?? {}).filter(([, p]) =>
    p.type === "string" || p.type === "number" || p.type === "integer" || p.type === "boolean"
  ).map(([k]) => k);
  const picked: string[] = [];
  for (const rank of RANKS) {
    const first = scalars.find((k) => rank.test(k) && !picked.includes(k));
    if (first && picked.length < 3) picked.push(first);
  }
  for (const k of scalars) if (picked.length < 3 && !picked.includes(k)) picked.push(k);
  return picked;
}

const jqKey = (k: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `.${k}` : `.[${JSON.stringify(k)}]`;

/** A `--jq` expression over the method's real response fields, or undefined when the shape says too little. */
export function jqExample(m: ApiMethod, response: JsonSchema | undefined): string | undefined {
  if (!response?.properties) return undefined;
  if (m.listField) {
    const items = response.properties[m.listField]?.items as JsonSchema | undefined;
    const fields = pickFields(items);
    return fields.length
      ? `.data${jqKey(m.listField)}[] | {${fields.join(", ")}}`
      : `.data${jqKey(m.listField)} | length`;
  }
  const top = pickFields(response);
  if (top.length) return `.data | {${top.join(", ")}}`;
  const objects = Object.entries(response.properties).filter(([, p]) => p.type === "object");
  if (objects.length === 1) {
    const [slot, inner] = objects[0];
    const fields = pickFields(inner);
    if (fields.length) return `.data${jqKey(slot)} | {${fields.join(", ")}}`;
  }
  return undefined;
}

const quote = (v: unknown) => `'${JSON.stringify(v).replace(/'/g, "'\\''")}'`;

/** The command line that calls the method with its required parameters filled from the schema. */
export function cliExample(m: ApiMethod): string {
  const { params, data } = exampleRequest(m);
  const parts = [`larkit ${m.service} ${m.resource} ${m.name}`];
  if (Object.keys(params).length) parts.push(`--params ${quote(params)}`);
  if (data && m.httpMethod !== "GET") parts.push(`--data ${quote(data)}`);
  for (const f of m.fileFields) parts.push(`--file ${f}=./path`);
  if (m.identities.length) parts.push(`--as ${m.identities.includes("bot") ? "bot" : "user"}`);
  return parts.join(" ");
}

/** The JSON document for one method: parameters flat (lark-cli style) plus JSON Schemas of each part. */
export function describeMethod(m: ApiMethod, response?: JsonSchema): Record<string, unknown> {
  const byLocation = (loc: "path" | "query") =>
    Object.fromEntries(Object.entries(m.parameters).filter(([, p]) => p.location === loc));
  const doc: Record<string, unknown> = {
    id: m.id,
    command: `larkit ${m.service} ${m.resource} ${m.name}`,
    httpMethod: m.httpMethod,
    path: m.path,
    summary: m.summary,
    description: m.description,
    descriptionZh: m.descriptionZh,
    identities: m.identities,
    risk: m.risk,
    scopes: m.scopes,
    requiredScopes: m.requiredScopes,
    parameters: m.parameters,
    schemas: {
      path: closedSchema(jsonSchemaFromFields(byLocation("path"))),
      query: closedSchema(jsonSchemaFromFields(byLocation("query"))),
      ...(m.requestBody ? { body: closedSchema(jsonSchemaFromFields(m.requestBody)) } : {}),
      ...(response ? { response } : {}),
    },
    pagination: paginationOf(m) ?? null,
    examples: { cli: cliExample(m), ...(jqExample(m, response) ? { jq: jqExample(m, response) } : {}) },
  };
  if (m.listField) doc.listField = m.listField;
  if (m.idempotency) doc.idempotency = m.idempotency;
  if (m.fileFields.length) doc.fileFields = m.fileFields;
  if (m.docUrl) doc.docUrl = m.docUrl;
  if (m.tips?.length) doc.tips = m.tips;
  return doc;
}

export function clip(text: string | undefined, n = 100): string {
  const t = (text ?? "").replace(/\s+/g, " ");
  return t.length > n ? t.slice(0, n - 1) + "\u2026" : t;
}

const MAX_TREE_LINES = 80;

function typeText(type: unknown, items?: { type?: unknown }): string {
  if (type === "array") return `array<${String(items?.type ?? "any")}>`;
  return String(type ?? "any");
}

/** A request field map as an indented tree: name, type, required, enum, description. */
function fieldTree(fields: Record<string, FieldSpec>, indent: string, out: string[], depth = 0): void {
  const entries = Object.entries(fields).sort(([a, fa], [b, fb]) =>
    Number(!!fb.required) - Number(!!fa.required) || (a < b ? -1 : 1)
  );
  for (const [name, f] of entries) {
    if (out.length >= MAX_TREE_LINES) return;
    const values = f.enum?.length ? f.enum : f.options?.map((o) => o.value).filter((v) => v !== undefined);
    const allowed = values?.length ? ` [${values.join("|")}]` : "";
    const label = `${indent}${name}${f.type === "array" ? "[]" : ""}`;
    out.push(
      `${label.padEnd(34)} ${typeText(f.type, f.items).padEnd(14)} ${
        f.required ? "required" : "        "
      }${allowed}${f.description ? `  ${clip(f.description, 70)}` : ""}`,
    );
    const inner = f.type === "array" ? f.items?.properties : f.properties;
    if (inner && depth < 4) fieldTree(inner, indent + "  ", out, depth + 1);
  }
}

/** A response JSON Schema as an indented tree. */
function schemaTree(schema: JsonSchema, indent: string, out: string[], depth = 0): void {
  const required = new Set(schema.required ?? []);
  for (const [name, p] of Object.entries(schema.properties ?? {})) {
    if (out.length >= MAX_TREE_LINES) return;
    const items = Array.isArray(p.items) ? undefined : p.items;
    const allowed = p.enum?.length ? ` [${p.enum.join("|")}]` : "";
    const label = `${indent}${name}${p.type === "array" ? "[]" : ""}`;
    out.push(
      `${label.padEnd(34)} ${typeText(p.type, items).padEnd(14)} ${
        required.has(name) ? "required" : ""
      }${allowed}`.trimEnd(),
    );
    const inner = p.type === "array" ? items : p;
    if (inner?.properties && depth < 4) schemaTree(inner, indent + "  ", out, depth + 1);
  }
}

function capped(lines: string[], id: string): string[] {
  return lines.length >= MAX_TREE_LINES
    ? [...lines, `  \u2026 (larkit schema ${id} prints the whole schema as JSON)`]
    : lines;
}

export function prettyMethod(m: ApiMethod, response?: JsonSchema): string {
  const lines = [`${m.httpMethod} ${m.path}`, "", clip(m.description, 300), "", "Parameters:"];
  const params = Object.entries(m.parameters).sort(([a, pa], [b, pb]) =>
    Number(!!pb.required) - Number(!!pa.required) || (a < b ? -1 : 1)
  );
  if (!params.length) lines.push("  (none)");
  for (const [name, p] of params) {
    const values = p.enum?.length ? p.enum : p.options?.map((o) => o.value).filter((v) => v !== undefined);
    const allowed = values?.length ? ` [${values.join("|")}]` : "";
    lines.push(
      `  ${name} (${p.type ?? "any"}, ${p.location}, ${p.required ? "required" : "optional"})${allowed}`,
    );
    if (p.description) lines.push(`      ${clip(p.description)}`);
  }
  if (m.requestBody) {
    const tree: string[] = [];
    fieldTree(m.requestBody, "  ", tree);
    lines.push("", "Body (--data):", ...capped(tree, m.id));
  }
  if (m.fileFields.length) lines.push("", `File (--file): ${m.fileFields.join(", ")}`);
  lines.push("", "Response (data):");
  if (!response) lines.push("  (shape unknown)");
  else if (response.format === "binary") lines.push("  binary file (use --output <path>)");
  else {
    const tree: string[] = [];
    schemaTree(response, "  ", tree);
    lines.push(...(tree.length ? capped(tree, m.id) : ["  {}"]));
  }
  const pagination = paginationOf(m);
  const jq = jqExample(m, response);
  lines.push(
    "",
    `Identity: ${m.identities.join(", ") || "none (no access token)"}`,
    `Risk: ${m.risk}`,
    `Scopes: ${m.scopes.join(", ") || "unknown"}`,
    `Pagination: ${
      pagination
        ? `page_token/has_more${
          pagination.listField ? `, items in ${pagination.listField}` : ""
        } (--page-all)`
        : "none"
    }`,
    `CLI: ${cliExample(m)}`,
  );
  if (jq) lines.push(`jq: ${cliExample(m)} --jq '${jq}'`);
  if (m.docUrl) lines.push(`Docs: ${m.docUrl}`);
  return lines.join("\n");
}
