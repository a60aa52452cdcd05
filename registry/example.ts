/**
 * A minimal valid request for a method, built from its schema: every required path/query parameter and body
 * field (recursively), enums at their first value, numbers within their bounds. `schema` shows it as the CLI
 * example, and tests use it to call every method. Pure and deterministic.
 */
import type { FieldSpec } from "./schema.ts";
import type { ApiMethod } from "./method.ts";

function enumOf(f: FieldSpec): unknown[] | undefined {
  if (f.enum?.length) return f.enum;
  const values = f.options?.map((o) => o.value).filter((v) => v !== undefined);
  return values?.length ? values : undefined;
}

/** An example value for one field; `name` shapes strings (`*_id` -> `example_id`). */
export function exampleValue(name: string, f: FieldSpec, depth = 0): unknown {
  if (f.example !== undefined && f.example !== "") return f.example;
  const values = enumOf(f);
  if (values) return values[0];
  // Some definitions type page_size as a string; the suite still wants a number in it.
  if (name === "page_size" && f.type === "string") return "10";
  switch (f.type) {
    case "integer":
    case "number": {
      const min = f.min === undefined ? undefined : Number(f.min);
      const max = f.max === undefined ? undefined : Number(f.max);
      const v = /page_size/.test(name) ? 10 : 1;
      return Math.min(Math.max(v, min ?? v), max ?? v);
    }
    case "boolean":
      return false;
    case "array":
      return f.items && depth < 6 ? [exampleValue(name.replace(/s$/, ""), f.items, depth + 1)] : [];
    case "object":
      return depth < 6 ? exampleFields(f.properties ?? {}, depth + 1) : {};
    case "file":
      return "";
    default:
      if (/(^|_)(time|timestamp)$/.test(name) || /_time$/.test(name)) return "1763884800";
      return `example_${name}`;
  }
}

/** The required fields of a field map, each with an example value. */
export function exampleFields(fields: Record<string, FieldSpec>, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(fields)) {
    if (f.required && f.type !== "file") out[name] = exampleValue(name, f, depth);
  }
  return out;
}

/** `--params` (path + required query) and `--data` (required body) for a method; `data` only when it has a body. */
export function exampleRequest(m: Pick<ApiMethod, "parameters" | "requestBody">): {
  params: Record<string, unknown>;
  data?: Record<string, unknown>;
} {
  const params = exampleFields(m.parameters);
  return m.requestBody ? { params, data: exampleFields(m.requestBody) } : { params };
}
