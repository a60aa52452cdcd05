/**
 * The suite's own metadata format, as `open.feishu.cn/api/tools/open/api_definition?protocol=meta` returns it
 * (facts: the reference CLI's registry loader and meta types, /work/shared/reference/lark-cli.md §9): one entry
 * per service with its version in `servicePath` (`/open-apis/calendar/v4`), method paths relative to it
 * (`calendars/{calendar_id}/events/instance_view`), enums as `options: [{value}]`, bounds as strings
 * (`"min": "1"`), the (Chinese) description in `description`, `danger`/`requiredScopes` always present.
 *
 * `toSuiteMeta` writes a registry service that way, so the emulator serves what the suite serves and the
 * overlay tests parse the real shape rather than larkit's own. A service whose methods span versions keeps
 * `/open-apis/<name>` with versioned paths (the URL rule `servicePath + "/" + path` still holds).
 */
import type { FieldSpec, MethodSpec, ParameterSpec, ServiceSpec } from "./schema.ts";
import { riskOf } from "./method.ts";

function suiteField<F extends FieldSpec>(f: F): Record<string, unknown> {
  const { enum: values, min, max, properties, items, descriptionZh, description, ...rest } = f;
  const out: Record<string, unknown> = { ...rest };
  const text = descriptionZh ?? description;
  if (text) out.description = text;
  if (values?.length) out.options = values.map((value) => ({ value }));
  if (min !== undefined) out.min = String(min);
  if (max !== undefined) out.max = String(max);
  if (properties) out.properties = suiteFields(properties);
  if (items) out.items = suiteField(items);
  return out;
}

function suiteFields<F extends FieldSpec>(
  fields: Record<string, F>,
): Record<string, Record<string, unknown>> {
  return Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, suiteField(f)]));
}

function suiteMethod(id: string, m: MethodSpec, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id,
    path,
    httpMethod: m.httpMethod,
    description: m.descriptionZh ?? m.description,
    parameters: suiteFields(m.parameters as Record<string, ParameterSpec>),
    accessTokens: m.accessTokens ?? [],
    scopes: m.scopes ?? [],
    requiredScopes: m.requiredScopes ?? [],
    danger: riskOf(m) === "high-risk-write",
  };
  if (m.requestBody) out.requestBody = suiteFields(m.requestBody);
  if (m.responseBody) out.responseBody = suiteFields(m.responseBody);
  if (m.docUrl) out.docUrl = m.docUrl;
  if (m.tips) out.tips = m.tips;
  return out;
}

/** One registry service in the suite's `api_definition` shape. */
export function toSuiteMeta(spec: ServiceSpec): Record<string, unknown> {
  const methods = Object.values(spec.resources).flatMap((r) => Object.values(r.methods));
  const versions = [...new Set(methods.map((m) => m.path.split("/")[0]))];
  const single = versions.length === 1 && /^v\d+$/.test(versions[0]) ? versions[0] : undefined;
  const resources: Record<string, { methods: Record<string, unknown> }> = {};
  for (const [rName, r] of Object.entries(spec.resources)) {
    resources[rName] = { methods: {} };
    for (const [mName, m] of Object.entries(r.methods)) {
      const path = single ? m.path.slice(single.length + 1) : m.path;
      resources[rName].methods[mName] = suiteMethod(`${spec.name}.${rName}.${mName}`, m, path);
    }
  }
  const base = spec.servicePath.replace(/\/+$/, "");
  return {
    name: spec.name,
    version: single ?? spec.version,
    title: spec.title ?? spec.name,
    description: spec.descriptionZh ?? spec.description ?? "",
    servicePath: single ? `${base}/${single}` : base,
    resources,
  };
}
