/**
 * `deno task registry:gen [--check]`: generates the embedded registry baseline from the suite method
 * definitions shipped in `@larksuiteoapi/lark-mcp` (pinned in deno.lock) plus the curated `overrides.json`.
 * Output: `registry/baseline/index.json` (service summaries) and `registry/baseline/services/<name>.json`
 * (one service in the lark-cli metadata shape). Keys are sorted and nothing depends on time or order of
 * discovery, so CI re-runs it with `--check` and fails on drift.
 */
import { GenTools as EnTools } from "@larksuiteoapi/lark-mcp/dist/mcp-tool/tools/en/gen-tools/index.js";
import { GenTools as ZhTools } from "@larksuiteoapi/lark-mcp/dist/mcp-tool/tools/zh/gen-tools/index.js";
import { z } from "zod";
import { dirname, join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { type MethodSpec, type Overrides, OverridesSchema, type ParameterSpec } from "./schema.ts";
import type { RegistryIndex, ServiceSpec, ServiceSummary } from "./schema.ts";
import { fieldsFromJsonSchema, type JsonSchema } from "./fields.ts";
import { methodNameOf, resolveCollisions, resourceNameOf, splitPath } from "./naming.ts";
import { identitiesOf, riskOf } from "./method.ts";

const PACKAGE = "@larksuiteoapi/lark-mcp@0.5.1";
/** Query/body fields the suite de-duplicates requests on (a retried request with the same value is safe). */
const IDEMPOTENCY_FIELDS = ["client_token", "idempotency_key", "uuid"];

interface PackageTool {
  name: string;
  path: string;
  httpMethod: string;
  description: string;
  accessTokens?: string[];
  schema: { path?: z.ZodType; params?: z.ZodType; data?: z.ZodType };
}

export interface GeneratedFiles {
  /** Relative to `registry/baseline/`. */
  [file: string]: string;
}

function toJson(schema: z.ZodType | undefined): JsonSchema | undefined {
  return schema ? z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as JsonSchema : undefined;
}

/** `[Feishu/Lark]-Calendar-Calendar access control-Create ACL-Call this interface…` → parts. */
function describe(description: string): { title: string; summary: string; text: string } {
  const text = description.replace(/^\[[^\]]*\]-/, "");
  const parts = text.split("-");
  // The heading is `Title-Group[-Subgroup]-Summary-Sentence…`; the sentence is the first long segment.
  const sentence = parts.findIndex((s, i) => i >= 2 && (s.length > 60 || /[,.;，。；]/.test(s)));
  const summary = parts[(sentence === -1 ? parts.length : sentence) - 1] ?? parts[0];
  return { title: parts[0] ?? "", summary: summary.trim(), text };
}

function idempotencyOf(m: MethodSpec): MethodSpec["idempotency"] {
  for (const field of IDEMPOTENCY_FIELDS) {
    if (m.parameters[field]?.location === "query") return { field, location: "query" };
    if (m.requestBody?.[field]) return { field, location: "body" };
  }
  return undefined;
}

interface MethodName {
  service: string;
  version: string;
  resource: string;
  method: string;
  sdkName: string;
  /** Below the service path, `{param}` placeholders: `v4/calendars/{calendar_id}/events`. */
  relativePath: string;
  pathParams: string[];
}

function nameMethod(sdkName: string, rawPath: string): MethodName {
  // One package path ends in "/" (hire talent_pools search); the empty segment is not a resource.
  const path = rawPath.replace(/\/+$/, "");
  const { service, version, segments } = splitPath(path);
  const method = methodNameOf(sdkName);
  const relative = segments.map((s) => s.replace(/^:(.+)$/, "{$1}"));
  return {
    service,
    version,
    method,
    sdkName,
    resource: resourceNameOf(path, method),
    relativePath: [version, ...relative].join("/"),
    pathParams: segments.filter((s) => s.startsWith(":")).map((s) => s.slice(1)),
  };
}

function methodFromTool(tool: PackageTool, zh: PackageTool | undefined, name: MethodName): MethodSpec {
  const parameters: Record<string, ParameterSpec> = {};
  const pathFields = fieldsFromJsonSchema(toJson(tool.schema.path) ?? {}, toJson(zh?.schema.path));
  for (const p of name.pathParams) {
    parameters[p] = { type: "string", ...pathFields[p], required: true, location: "path" };
  }
  const query = fieldsFromJsonSchema(toJson(tool.schema.params) ?? {}, toJson(zh?.schema.params));
  for (const [k, f] of Object.entries(query)) parameters[k] = { ...f, location: "query" };
  const body = tool.schema.data
    ? fieldsFromJsonSchema(toJson(tool.schema.data) ?? {}, toJson(zh?.schema.data))
    : undefined;
  const en = describe(tool.description);
  const method: MethodSpec = {
    path: name.relativePath,
    httpMethod: tool.httpMethod.toUpperCase() as MethodSpec["httpMethod"],
    description: en.text,
    summary: en.summary,
    parameters,
    accessTokens: [...(tool.accessTokens ?? [])].sort(),
    sdkName: tool.name,
  };
  if (zh) method.descriptionZh = describe(zh.description).text;
  if (body) method.requestBody = body;
  return method;
}

function applyOverride(m: MethodSpec, o: Overrides["methods"][string] | undefined): MethodSpec {
  const out: MethodSpec = { ...m, ...o };
  out.risk = o?.risk ?? riskOf(m);
  const idem = o?.idempotency ?? idempotencyOf(m);
  if (idem) out.idempotency = idem;
  return out;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

const json = (v: unknown) => JSON.stringify(sortKeys(v), null, 1) + "\n";

async function digest(text: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...hash.slice(0, 6)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function mostCommon(values: string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? "";
}

/** Pure: package tools + overrides → the baseline files. */
export async function generateBaseline(
  en: PackageTool[],
  zh: PackageTool[],
  overrides: Overrides,
): Promise<GeneratedFiles> {
  const zhByName = new Map(zh.map((t) => [t.name, t]));
  const known = new Set(en.map((t) => t.name));
  const added = overrides.add.map((a) => ({ a, name: nameMethod(a.name, a.path) }));
  for (const key of Object.keys(overrides.methods)) {
    if (!known.has(key) && !added.some((x) => x.a.name === key)) {
      throw new Error(`overrides.json names an unknown method: ${key}`);
    }
  }
  const entries = [
    ...en.map((tool) => ({ ...nameMethod(tool.name, tool.path), tool, added: undefined })),
    ...added.map(({ a, name }) => ({ ...name, tool: undefined, added: a })),
  ];
  const services = new Map<string, { spec: ServiceSpec; titles: string[]; titlesZh: string[] }>();
  for (const e of resolveCollisions(entries)) {
    const { service, resource, version, method } = e;
    const base: MethodSpec = e.tool
      ? methodFromTool(e.tool, zhByName.get(e.tool.name), e)
      : { ...e.added!.method, path: e.relativePath, sdkName: e.sdkName };
    const spec = applyOverride(
      { ...base, id: `${service}.${resource}.${method}` },
      overrides.methods[e.sdkName],
    );
    const entry = services.get(service) ??
      {
        spec: { name: service, servicePath: `/open-apis/${service}`, versions: [], resources: {} },
        titles: [],
        titlesZh: [],
      };
    services.set(service, entry);
    if (!entry.spec.versions!.includes(version)) entry.spec.versions!.push(version);
    entry.titles.push(describe(spec.description).title);
    if (spec.descriptionZh) entry.titlesZh.push(describe(spec.descriptionZh).title);
    (entry.spec.resources[resource] ??= { methods: {} }).methods[method] = spec;
  }
  const files: GeneratedFiles = {};
  const summaries: ServiceSummary[] = [];
  for (const name of [...services.keys()].sort()) {
    const { spec, titles, titlesZh } = services.get(name)!;
    spec.versions!.sort();
    spec.version = spec.versions![0];
    spec.title = mostCommon(titles);
    spec.description = `${spec.title} (${spec.versions!.join(", ")})`;
    spec.descriptionZh = mostCommon(titlesZh) || undefined;
    const methods = Object.values(spec.resources).flatMap((r) => Object.values(r.methods));
    files[`services/${name}.json`] = json(spec);
    summaries.push({
      name,
      title: spec.title,
      description: spec.description,
      descriptionZh: spec.descriptionZh,
      identities: [...new Set(methods.flatMap((m) => identitiesOf(m)))].sort(),
      methods: methods.length,
    });
  }
  const version = `${PACKAGE.split("@").at(-1)}-${await digest(Object.values(files).join(""))}`;
  const index: RegistryIndex = {
    version,
    source: `npm:${PACKAGE} + registry/overrides.json`,
    services: summaries,
  };
  files["index.json"] = json(index);
  return files;
}

async function main(args: string[]): Promise<number> {
  const here = dirname(fromFileUrl(import.meta.url));
  const outDir = join(here, "baseline");
  const overrides = OverridesSchema.parse(JSON.parse(await Deno.readTextFile(join(here, "overrides.json"))));
  const files = await generateBaseline(EnTools as PackageTool[], ZhTools as PackageTool[], overrides);
  if (args.includes("--check")) {
    const drift: string[] = [];
    for (const [file, text] of Object.entries(files)) {
      const current = await Deno.readTextFile(join(outDir, file)).catch(() => "");
      if (current !== text) drift.push(file);
    }
    const present = await Array.fromAsync(Deno.readDir(join(outDir, "services"))).catch(() => []);
    for (const f of present) if (!files[`services/${f.name}`]) drift.push(`services/${f.name} (stale)`);
    if (drift.length) {
      console.error(`registry baseline drift; run deno task registry:gen\n  ${drift.join("\n  ")}`);
    }
    return drift.length ? 1 : 0;
  }
  await Deno.remove(join(outDir, "services"), { recursive: true }).catch(() => {});
  await Deno.mkdir(join(outDir, "services"), { recursive: true });
  for (const [file, text] of Object.entries(files)) await Deno.writeTextFile(join(outDir, file), text);
  const methods = Object.keys(files).length - 1;
  console.error(`wrote ${methods} services to ${outDir}`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
