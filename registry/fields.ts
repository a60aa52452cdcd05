/**
 * Conversions between JSON Schema and the registry's field maps (lark-cli style: `required` is a boolean on
 * each field). The generator turns the package's zod-derived JSON Schema into field maps; `schema` and the
 * request validator turn field maps back into JSON Schema. Pure.
 */
import type { FieldSpec } from "./schema.ts";

export interface JsonSchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  [k: string]: unknown;
}

function scalars(values: unknown[]): (string | number | boolean)[] {
  return values.filter((v): v is string | number | boolean =>
    ["string", "number", "boolean"].includes(typeof v)
  );
}

/** The single meaningful branch of a nullable/union schema; unions of unlike types become `any`. */
function collapse(s: JsonSchema): JsonSchema {
  const branches = (s.anyOf ?? s.oneOf)?.filter((b) => b.type !== "null");
  if (!branches) return s;
  const merged = branches.length === 1 ? branches[0] : {};
  return { ...merged, description: s.description ?? merged.description };
}

/** One JSON Schema node -> field (en description); `zh` is the same node from the Chinese definitions. */
export function fieldFromJsonSchema(node: JsonSchema, zh?: JsonSchema, required?: boolean): FieldSpec {
  const s = collapse(node);
  const z = zh ? collapse(zh) : undefined;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  const field: FieldSpec = { type: type ?? "any" };
  if (required) field.required = true;
  if (s.description) field.description = s.description;
  if (z?.description && z.description !== s.description) field.descriptionZh = z.description;
  const enumValues = s.enum ?? (s.const !== undefined ? [s.const] : undefined);
  if (enumValues) field.enum = scalars(enumValues);
  if (s.format) field.format = s.format;
  const min = s.minimum ?? s.minLength;
  const max = s.maximum ?? s.maxLength;
  if (min !== undefined) field.min = min;
  if (max !== undefined) field.max = max;
  if (s.properties) field.properties = fieldsFromJsonSchema(s, z);
  if (s.items && !Array.isArray(s.items)) {
    const zItems = z?.items && !Array.isArray(z.items) ? z.items : undefined;
    field.items = fieldFromJsonSchema(s.items, zItems);
  }
  // A map (`Record<string, T>`): its values' schema. `false` (closed) is the default of a field map anyway.
  const extra = s.additionalProperties;
  if (extra && typeof extra === "object" && !Array.isArray(extra)) {
    field.additionalProperties = fieldFromJsonSchema(extra as JsonSchema);
  }
  return field;
}

/** An object schema's properties -> a field map. */
export function fieldsFromJsonSchema(obj: JsonSchema, zh?: JsonSchema): Record<string, FieldSpec> {
  const required = new Set(obj.required ?? []);
  const out: Record<string, FieldSpec> = {};
  for (const [name, prop] of Object.entries(obj.properties ?? {})) {
    out[name] = fieldFromJsonSchema(prop, zh?.properties?.[name], required.has(name));
  }
  return out;
}

/** The values a field allows, from `enum` or lark-cli's `options`; undefined when it is not an enum. */
export function enumOf(f: FieldSpec): unknown[] | undefined {
  if (f.enum?.length) return f.enum;
  const fromOptions = f.options?.map((o) => o.value).filter((v) => v !== undefined);
  return fromOptions?.length ? fromOptions : undefined;
}

/** A field -> JSON Schema (draft 2020-12 keywords), for `schema` output and request validation. */
export function jsonSchemaFromField(f: FieldSpec): JsonSchema {
  const out: JsonSchema = {};
  if (f.type && f.type !== "any") out.type = f.type === "file" ? "string" : f.type;
  if (f.type === "file") out.format = "binary";
  else if (f.format) out.format = f.format;
  if (f.description) out.description = f.description;
  if (f.descriptionZh) out["x-description-zh"] = f.descriptionZh;
  const values = enumOf(f);
  if (values) out.enum = values;
  const num = (v: string | number | undefined) => v === undefined ? undefined : Number(v);
  if (f.type === "string") {
    if (f.min !== undefined) out.minLength = num(f.min);
    if (f.max !== undefined) out.maxLength = num(f.max);
  } else {
    if (f.min !== undefined) out.minimum = num(f.min);
    if (f.max !== undefined) out.maximum = num(f.max);
  }
  if (f.properties && Object.keys(f.properties).length) {
    Object.assign(out, jsonSchemaFromFields(f.properties));
  }
  const extra = f.additionalProperties;
  if (extra && typeof extra === "object" && !Array.isArray(extra)) {
    out.additionalProperties = jsonSchemaFromField(extra as FieldSpec);
  }
  if (f.items) out.items = jsonSchemaFromField(f.items);
  return out;
}

/**
 * A field map -> an object schema. Its properties are all the object takes: a request validator in strict
 * mode (`validate.ts`) refuses any other key of an object that declares `properties` and no
 * `additionalProperties` schema; an object field without properties is free-form.
 */
export function jsonSchemaFromFields(fields: Record<string, FieldSpec>): JsonSchema {
  const required = Object.entries(fields).filter(([, f]) => f.required).map(([k]) => k);
  const properties = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, jsonSchemaFromField(f)]));
  return required.length ? { type: "object", properties, required } : { type: "object", properties };
}

/**
 * A request schema as `schema` shows it: every object that lists its properties (and gives no schema for other
 * keys) says `additionalProperties: false`, as the emulator refuses any other field.
 */
export function closedSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [k, closedSchema(v)]),
    );
    if (schema.additionalProperties === undefined) out.additionalProperties = false;
  }
  if (schema.items && !Array.isArray(schema.items)) out.items = closedSchema(schema.items);
  return out;
}

/** A declared `responseBody` as the response shape; one field of type `file` means the body is the file. */
export function declaredShape(fields: Record<string, FieldSpec>): JsonSchema {
  const values = Object.values(fields);
  if (values.length === 1 && values[0].type === "file") return { type: "string", format: "binary" };
  return jsonSchemaFromFields(fields);
}
