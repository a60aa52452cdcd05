/**
 * What the generic handler may say: ids in the suite's formats for objects the emulator creates, and `fit`,
 * which shapes a stored object to a method's response shape without inventing anything. A stored value that
 * fits its property's type is kept; a property the emulator does not know is left out, unless the shape
 * requires it, then it gets the empty value of its type (`""`, `0`, `false`, `[]`, an object of its own
 * required properties, the first value of an enum). Deterministic, so tests and recordings are stable.
 */
import type { JsonSchema } from "../registry/fields.ts";

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

function hex(text: string, width: number): string {
  let out = "";
  for (let i = 0; out.length < width; i++) out += hash(`${text}#${i}`).toString(16).padStart(8, "0");
  return out.slice(0, width);
}

function digits(text: string, width: number): string {
  let out = "";
  for (let i = 0; out.length < width; i++) out += String(hash(`${text}#${i}`)).padStart(10, "0");
  return out.slice(0, width);
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function token(text: string, width: number): string {
  let out = "";
  for (let i = 0; out.length < width; i++) out += ALNUM[hash(`${text}#${i}`) % ALNUM.length];
  return out;
}

const PREFIXED: [RegExp, string, number][] = [
  [/(^|_)view_id$/, "vew", 10],
  [/(^|_)table_id$/, "tbl", 13],
  [/(^|_)record_id$/, "rec", 10],
  [/(^|_)field_id$/, "fld", 10],
  [/^app_token$/, "bascn", 22],
  [/^document_id$/, "doxcn", 22],
  [/^(folder_token|parent_node)$/, "fldcn", 22],
  [/^file_token$/, "boxcn", 22],
  [/^spreadsheet_token$/, "shtcn", 22],
  [/^(node_token|obj_token)$/, "wikcn", 22],
  [/^image_key$/, "img_v3_", 24],
  [/^file_key$/, "file_v3_", 24],
];

/** An id in the suite's format for a field or path parameter named `name`. */
export function suiteId(name: string, seed: string): string {
  const s = `${name}:${seed}`;
  const n = name.toLowerCase();
  if (/(^|_)chat_id$/.test(n)) return `oc_${hex(s, 32)}`;
  if (/(^|_)message_id$/.test(n) || n === "root_id" || n === "parent_id") return `om_${hex(s, 32)}`;
  if (/(^|_)open_id$/.test(n)) return `ou_${hex(s, 32)}`;
  if (/(^|_)union_id$/.test(n)) return `on_${hex(s, 32)}`;
  if (/(^|_)department_id$/.test(n)) return `od-${hex(s, 32)}`;
  if (/(^|_)app_id$/.test(n)) return `cli_${hex(s, 16)}`;
  if (/(^|_)user_id$/.test(n)) return hex(s, 8);
  // Well-known prefixed ids and tokens (bitable, docs, drive, sheets, wiki, calendar).
  for (const [pattern, prefix, width] of PREFIXED) if (pattern.test(n)) return prefix + token(s, width);
  if (n === "calendar_id") return `feishu.cn_${token(s, 22)}@group.calendar.feishu.cn`;
  if (n === "event_id") {
    return `${hex(s, 8)}-${hex(`${s}/e`, 4)}-4${hex(`${s}/f`, 3)}-8${hex(`${s}/g`, 3)}-${
      hex(`${s}/h`, 12)
    }_0`;
  }
  if (/(^|_)guid$/.test(n)) {
    const h = hex(s, 32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20)}`;
  }
  if (/(^|_)(token|key)$/.test(n)) return token(s, 27);
  // Most other suite ids are 19-digit decimal strings (approval instances, wiki spaces, meetings, ...).
  return `7${digits(s, 18)}`;
}

/** Response types are finite, but a guard keeps a hostile overlay shape from recursing forever. */
const MAX_DEPTH = 40;

function typeOf(schema: JsonSchema): unknown {
  return Array.isArray(schema.type) ? schema.type[0] : schema.type;
}

function fits(schema: JsonSchema, v: unknown): boolean {
  if (schema.enum && !schema.enum.includes(v)) return false;
  switch (typeOf(schema)) {
    case "string":
      return typeof v === "string";
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "number":
      return typeof v === "number";
    case "boolean":
      return typeof v === "boolean";
    case "array":
      return Array.isArray(v);
    case "object":
      return v !== null && typeof v === "object" && !Array.isArray(v);
    default:
      return v !== undefined;
  }
}

/** The value a required property takes when the emulator knows nothing about it: its type's empty value. */
function emptyOf(schema: JsonSchema, depth = 0): unknown {
  if (schema.enum?.length) return schema.enum[0];
  switch (typeOf(schema)) {
    case "string":
      return "";
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return fit(schema, {}, depth + 1);
    default:
      return {};
  }
}

/**
 * `stored` shaped to `schema`: kept where its type fits (recursively), left out where it does not or is absent
 * (the empty value when the shape requires the property). Stored fields the schema does not name are kept only
 * in an object whose schema names none (a free-form object).
 */
export function fit(schema: JsonSchema, stored: unknown, depth = 0): unknown {
  if (depth >= MAX_DEPTH) return typeOf(schema) === "object" ? {} : undefined;
  if (stored === undefined || !fits(schema, stored)) return undefined;
  const type = typeOf(schema);
  if (type === "object" && schema.properties) {
    const obj = stored as Record<string, unknown>;
    const required = new Set(schema.required ?? []);
    const out: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(schema.properties)) {
      const v = fit(p, obj[k], depth + 1);
      if (v !== undefined) out[k] = v;
      else if (required.has(k)) out[k] = emptyOf(p, depth + 1);
    }
    return out;
  }
  if (type === "array" && schema.items && !Array.isArray(schema.items)) {
    const items = schema.items;
    return (stored as unknown[]).map((v) => fit(items, v, depth + 1)).filter((v) => v !== undefined);
  }
  return stored;
}
