/**
 * Response shapes at run time, for `schema`, the emulator and tests only: a method's declared `responseBody`
 * (overrides, supplementary entries, overlays that carry one) or else the shape generated from the typed SDK.
 * Each service's shape file is read once, on first use.
 */
import { declaredShape, type JsonSchema, jsonSchemaFromFields } from "./fields.ts";
import type { ApiMethod } from "./method.ts";
import { loadShapeFile } from "./shapes_data.js";

const files = new Map<string, Promise<Record<string, JsonSchema>>>();

export async function responseShapeOf(
  m: Pick<ApiMethod, "service" | "resource" | "name" | "responseBody">,
): Promise<JsonSchema | undefined> {
  if (m.responseBody && Object.keys(m.responseBody).length) return declaredShape(m.responseBody);
  let file = files.get(m.service);
  if (!file) files.set(m.service, file = loadShapeFile(m.service));
  const all = await file;
  return Object.hasOwn(all, `${m.resource}.${m.name}`) ? all[`${m.resource}.${m.name}`] : undefined;
}

/** The request of a method as three JSON Schemas (path, query, body), for validation and `schema`. */
export function requestSchemasOf(m: Pick<ApiMethod, "parameters" | "requestBody">): {
  path: JsonSchema;
  query: JsonSchema;
  body?: JsonSchema;
} {
  const byLocation = (loc: "path" | "query") =>
    Object.fromEntries(Object.entries(m.parameters).filter(([, p]) => p.location === loc));
  return {
    path: jsonSchemaFromFields(byLocation("path")),
    query: jsonSchemaFromFields(byLocation("query")),
    ...(m.requestBody ? { body: jsonSchemaFromFields(m.requestBody) } : {}),
  };
}
