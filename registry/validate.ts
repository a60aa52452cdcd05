/**
 * A small JSON Schema validator for the subset the registry writes (type, properties, required, items, enum,
 * additionalProperties, minimum/maximum, minLength/maxLength). It checks emulator requests against a method's
 * request schema and responses against its response shape in tests. Pure; returns every violation found, as
 * `path: message` strings, empty when the value conforms. With `unknown: "refuse"` an object schema that lists
 * its `properties` (and gives no `additionalProperties` schema) is closed: any other key is a violation, at
 * every depth (how a request is checked; the suite itself often ignores such a field, losing it unseen).
 */
import type { JsonSchema } from "./fields.ts";

function typeOk(type: string, v: unknown): boolean {
  switch (type) {
    case "string":
      return typeof v === "string";
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "boolean":
      return typeof v === "boolean";
    case "array":
      return Array.isArray(v);
    case "object":
      return v !== null && typeof v === "object" && !Array.isArray(v);
    case "null":
      return v === null;
    default:
      return true;
  }
}

function describe(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

export interface ValidateOptions {
  /** "refuse": keys a closed object schema does not list are violations; "ignore" (default): skipped. */
  unknown?: "refuse" | "ignore";
}

export function validateValue(
  schema: JsonSchema,
  value: unknown,
  path = "",
  out: string[] = [],
  opts: ValidateOptions = {},
): string[] {
  const at = path || "(root)";
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length && !types.some((t) => typeOk(t, value))) {
    out.push(`${at}: expected ${types.join("|")}, got ${describe(value)}`);
    return out;
  }
  if (schema.enum && !schema.enum.some((e) => e === value)) {
    out.push(
      `${at}: ${JSON.stringify(value)} is not one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}`,
    );
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) {
      out.push(`${at}: below the minimum ${schema.minimum}`);
    }
    if (schema.maximum !== undefined && value > schema.maximum) {
      out.push(`${at}: above the maximum ${schema.maximum}`);
    }
  }
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength) {
      out.push(`${at}: shorter than ${schema.minLength}`);
    }
    if (schema.maxLength !== undefined && value.length > schema.maxLength) {
      out.push(`${at}: longer than ${schema.maxLength}`);
    }
  }
  if (Array.isArray(value) && schema.items && !Array.isArray(schema.items)) {
    value.forEach((item, i) => validateValue(schema.items as JsonSchema, item, `${path}[${i}]`, out, opts));
  }
  if (typeOk("object", value)) {
    const obj = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (obj[name] === undefined) out.push(`${path ? path + "." : ""}${name}: required`);
    }
    const extra = schema.additionalProperties as JsonSchema | boolean | undefined;
    const closed = opts.unknown === "refuse" &&
      (extra === false || (schema.properties && extra === undefined));
    for (const [k, v] of Object.entries(obj)) {
      const at = path ? `${path}.${k}` : k;
      const sub =
        (schema.properties && Object.hasOwn(schema.properties, k) ? schema.properties[k] : undefined) ??
          (typeof extra === "object" ? extra : undefined);
      if (sub && v !== undefined) validateValue(sub, v, at, out, opts);
      else if (!sub && closed) out.push(`${at}: unknown field`);
    }
  }
  return out;
}
