/**
 * Plausible values for the generic handler: a value for any response shape, ids in the suite's formats, and
 * `conform`, which fits a stored object to a shape (stored fields that fit are kept, the rest is sampled), so
 * every generic response validates against its method's shape. Deterministic: the same seed and shape give
 * the same value, so tests and recordings are stable.
 */
import type { JsonSchema } from "../registry/fields.ts";

export interface SampleCtx {
  /** The emulator clock (ms since the epoch), for `*_time` fields. */
  nowMs: number;
  origin: string;
  /** Mixed into ids and names so two objects differ. */
  seed: string;
}

/** Arrays get one sampled item down to this depth, then stay empty (still valid, and the answer stays small). */
const ARRAY_DEPTH = 4;
/** Response types are finite, but a guard keeps a hostile overlay shape from recursing forever. */
const MAX_DEPTH = 40;

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

function looksLikeId(n: string): boolean {
  return /(^|_)(id|guid|token|key)$/.test(n) || n === "root_id";
}

function stringFor(name: string, schema: JsonSchema, c: SampleCtx): string {
  if (schema.enum?.length) return String(schema.enum[0]);
  const n = name.toLowerCase();
  if (looksLikeId(n)) return suiteId(n, c.seed);
  if (/(^|_)(time|at|timestamp|date)$/.test(n) || /_time_?/.test(n)) {
    return /date/.test(n) ? new Date(c.nowMs).toISOString().slice(0, 10) : String(Math.floor(c.nowMs / 1000));
  }
  if (/(count|total|num|number|amount|duration)(_accumulated)?$/.test(n)) return "1";
  if (/(^|_)(url|link|href|avatar)/.test(n)) {
    return `${c.origin}/sandbox/${encodeURIComponent(name)}/${hex(c.seed, 8)}`;
  }
  if (/e?mail$/.test(n)) return `user.${hex(c.seed, 6)}@sandbox.example`;
  if (/mobile|phone/.test(n)) return "+8613800000000";
  if (/(^|_)(name|title|summary|subject)$/.test(n)) {
    return `Sandbox ${name.replace(/_/g, " ")} ${hex(c.seed, 4)}`;
  }
  if (/(^|_)(description|content|text|body|comment|remark)$/.test(n)) return `Sample ${name} (emulator)`;
  if (/(^|_)(type|status|mode|kind|role)$/.test(n)) return "default";
  if (/(^|_)(lang|locale|language)$/.test(n)) return "en_us";
  if (/timezone|time_zone/.test(n)) return "Asia/Shanghai";
  return `sample_${name}`;
}

function numberFor(name: string, schema: JsonSchema, c: SampleCtx): number {
  if (schema.enum?.length) return Number(schema.enum[0]);
  const n = name.toLowerCase();
  if (/(^|_)(time|at|timestamp)$/.test(n)) return Math.floor(c.nowMs / 1000);
  let v = /(count|total|size|num|number)$/.test(n) ? 1 : hash(`${name}:${c.seed}`) % 100;
  if (schema.minimum !== undefined) v = Math.max(v, schema.minimum);
  if (schema.maximum !== undefined) v = Math.min(v, schema.maximum);
  return v;
}

/** A plausible value for `schema`; `name` is the field's name (it picks formats). */
export function sample(schema: JsonSchema, c: SampleCtx, name = "", depth = 0): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      return schema.format === "binary" ? "" : stringFor(name, schema, c);
    case "number":
    case "integer":
      return numberFor(name, schema, c);
    case "boolean":
      // `has_more` and friends: false reads as "the end", which is always consistent.
      return false;
    case "array": {
      if (depth >= ARRAY_DEPTH || !schema.items || Array.isArray(schema.items)) return [];
      return [sample(schema.items, { ...c, seed: `${c.seed}/0` }, singular(name), depth + 1)];
    }
    case "object": {
      const out: Record<string, unknown> = {};
      if (depth >= MAX_DEPTH) return out;
      for (const [k, p] of Object.entries(schema.properties ?? {})) out[k] = sample(p, c, k, depth + 1);
      return out;
    }
    default:
      return name ? stringFor(name, { type: "string" }, c) : {};
  }
}

function singular(name: string): string {
  return name.endsWith("ies") ? name.slice(0, -3) + "y" : name.replace(/s$/, "");
}

function fits(schema: JsonSchema, v: unknown): boolean {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum && !schema.enum.includes(v)) return false;
  switch (type) {
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

/**
 * `stored` fitted to `schema`: every property of the schema is present; a stored value is kept where its
 * type fits (recursively), otherwise the property is sampled. Stored fields the schema does not name are
 * kept at the top of an object only when the schema names none (free-form objects).
 */
export function conform(schema: JsonSchema, stored: unknown, c: SampleCtx, name = "", depth = 0): unknown {
  if (stored === undefined || !fits(schema, stored)) return sample(schema, c, name, depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "object" && schema.properties) {
    const obj = stored as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(schema.properties)) out[k] = conform(p, obj[k], c, k, depth + 1);
    return out;
  }
  if (type === "array" && schema.items && !Array.isArray(schema.items)) {
    const items = schema.items;
    return (stored as unknown[]).map((v, i) =>
      conform(items, v, { ...c, seed: `${c.seed}/${i}` }, name, depth + 1)
    );
  }
  return stored;
}
