/**
 * `deno task registry:gen [--check]` (build time only, with its own config and lock in `registry/gen/`):
 * generates the embedded registry baseline from the suite method definitions shipped in
 * `@larksuiteoapi/lark-mcp`, the curated `overrides.json` and the supplementary entries in
 * `registry/supplementary/*.json`, plus each method's response body shape read from the typed SDK
 * `@larksuiteoapi/node-sdk` (see `gen/sdk_shapes.ts`). The SDK is also the authority on requests: where it
 * types a method's `payload`, its path, query and body fields (names, types, required, enums, nesting) replace
 * the package's (descriptions are kept), and a method only the SDK has (routes from `gen/sdk_endpoints.ts`)
 * is generated too. A supplementary entry the SDK also types keeps only the fields the SDK lacks that name
 * their `source` (documented fields the SDK's type misses, declared by hand).
 * Output: `registry/baseline/index.json` (service summaries), `registry/baseline/services/<name>.json` (one
 * service in the lark-cli metadata shape; `baseline/runnable/<name>/<resource>.json` each of its resources
 * without description text, see `runnable.ts`) and `registry/shapes/<name>.json` (`{"resource.method": JSON Schema}`,
 * read only by `schema`, the emulator and tests, never on a command's path). Keys are sorted and nothing
 * depends on time or order of discovery, so CI re-runs it and fails on drift.
 */
import { GenTools as EnTools } from "@larksuiteoapi/lark-mcp/dist/mcp-tool/tools/en/gen-tools/index.js";
import { GenTools as ZhTools } from "@larksuiteoapi/lark-mcp/dist/mcp-tool/tools/zh/gen-tools/index.js";
// lark-mcp's schemas are zod classic, from the package itself; larkit's own (registry/schema.ts) are zod/mini.
import { z } from "zod-npm";
import { dirname, join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import {
  type FieldSpec,
  type MethodSpec,
  type Overrides,
  OverridesSchema,
  type ParameterSpec,
} from "./schema.ts";
import type { RegistryIndex, ServiceSpec, ServiceSummary } from "./schema.ts";
import { declaredShape, fieldsFromJsonSchema, type JsonSchema } from "./fields.ts";
import { methodNameOf, resolveCollisions, resourceNameOf, splitPath } from "./naming.ts";
import { identitiesOf, riskOf } from "./method.ts";
import { runnableResources } from "./runnable.ts";
import { type SdkRequest, type SdkRequests, type SdkShapes, sdkTypes } from "./gen/sdk_shapes.ts";
import { type SdkEndpoint, sdkEndpoints } from "./gen/sdk_endpoints.ts";
import { SupplementarySchema } from "./supplementary.ts";

const PACKAGE = "@larksuiteoapi/lark-mcp@0.5.1";
/** The typed SDK the response shapes come from; pinned exactly in `registry/gen/deno.json`. */
const SDK = { name: "@larksuiteoapi/node-sdk", version: "1.74.0" };
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
  /** Relative to `registry/`: `baseline/index.json`, `baseline/services/<name>.json`, `shapes/<name>.json`. */
  [file: string]: string;
}

export interface Coverage {
  methods: number;
  withShape: number;
  /** Methods whose request the SDK types (the rest: supplementary entries, declared by hand). */
  withSdkRequest: number;
  /** Methods only the SDK has, generated from it. */
  sdkOnly: number;
  /** Method ids without a response shape. */
  missing: string[];
}

function toJson(schema: z.ZodType | undefined): JsonSchema | undefined {
  return schema ? z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as JsonSchema : undefined;
}

/** `[Feishu/Lark]-Calendar-Calendar access control-Create ACL-Call this interface...` -> parts. */
function describe(description: string): { title: string; summary: string; text: string } {
  const text = description.replace(/^\[[^\]]*\]-/, "");
  const parts = text.split("-");
  // The heading is `Title-Group[-Subgroup]-Summary-Sentence...`; the sentence is the first long segment.
  const sentence = parts.findIndex((s, i) => i >= 2 && (s.length > 60 || /[,.;\uFF0C\u3002\uFF1B]/.test(s)));
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

/**
 * A POST that only reads, by the suite's naming: `calendar.v4.calendar.search`, `drive.v1.meta.batchQuery`,
 * `contact.v3.user.basicBatch`, `calendar.v4.calendar.primary`. The API spells many reads as POST (a body
 * carries the filter); counted as writes they were never retried, "outcome unknown" when an answer was lost,
 * and refused by read-only policies.
 */
// A name that only ends in Query is not enough (`helpdesk.v1.ticket.answerUserQuery` writes an answer): the
// verb must come first. A read this misses stays a write, the safe side.
const READ_NAMES = /^(search|query|find|list|get|mget|primary|basicBatch|batchGet|batchQuery)([A-Z]\w*)?$/;

function readByName(m: MethodSpec): boolean {
  const last = m.sdkName?.split(".").at(-1) ?? "";
  return m.httpMethod === "POST" && READ_NAMES.test(last);
}

function applyOverride(m: MethodSpec, o: Overrides["methods"][string] | undefined): MethodSpec {
  const out: MethodSpec = { ...m, ...o };
  out.risk = o?.risk ?? (readByName(m) ? "read" : riskOf(m));
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

/** The files under `dir` (in its subdirectories too), as paths relative to it; none when it is missing. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await Array.fromAsync(Deno.readDir(dir)).catch(() => []);
  const nested = await Promise.all(
    entries.map(async (e) =>
      e.isDirectory ? (await filesUnder(join(dir, e.name))).map((f) => `${e.name}/${f}`) : [e.name]
    ),
  );
  return nested.flat();
}

/**
 * JSON text with every character beyond Latin-1 escaped (`\u65e5`): the same JSON, but V8 holds a run's copy
 * of the file one byte per character instead of two, a service's Chinese descriptions included (issue 17; kept
 * for the data, whose size is large, though the same rule for source modules measured no gain, issue 35).
 */
const latin1 = (text: string) =>
  text.replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

const json = (v: unknown) => latin1(JSON.stringify(sortKeys(v), null, 1)) + "\n";

/** One method per line: compact enough to load fast, still a readable diff when a shape changes. */
function shapesJson(shapes: Record<string, JsonSchema>): string {
  const lines = Object.keys(shapes).sort().map((k) =>
    `${JSON.stringify(k)}:${JSON.stringify(sortKeys(shapes[k]))}`
  );
  return latin1(`{\n${lines.join(",\n")}\n}\n`);
}

async function digest(text: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...hash.slice(0, 6)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function mostCommon(values: string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? "";
}

/**
 * The response field holding a list method's items: `items` when it is an array of objects, else the only
 * top-level array of objects. Stored on the method (a few bytes), so table/csv output and `--page-all` know it
 * without reading the shapes.
 */
export function listFieldOfShape(shape: JsonSchema): string | undefined {
  const arrays = Object.entries(shape.properties ?? {}).filter(([, p]) =>
    p.type === "array" && !Array.isArray(p.items) && p.items?.type === "object"
  ).map(([k]) => k);
  if (arrays.includes("items")) return "items";
  return arrays.length === 1 ? arrays[0] : undefined;
}

/** What the generator reads of the typed SDK. */
export interface SdkTypes {
  shapes: SdkShapes;
  requests: SdkRequests;
  endpoints: Map<string, SdkEndpoint>;
  /** The SDK's doc comment of a method (its Chinese title first): the only text an SDK-only method has. */
  docs: Map<string, string>;
}

/** `POST /open-apis/im/v1/chats/{}/members`: a route whatever its parameters are called. */
const routeKey = (httpMethod: string, path: string) =>
  `${httpMethod.toUpperCase()} ${path.replace(/\/+$/, "").replace(/\/(:[^/]+|\{[^}]+\})/g, "/{}")}`;

const DESCRIPTION_KEYS = ["description", "descriptionZh", "min", "max", "example"] as const;

/** The SDK's field, with the package's text (and its `integer` where the SDK says `number`). */
function mergeField(sdk: FieldSpec, old: FieldSpec | undefined, keepOld: boolean): FieldSpec {
  // The SDK declares no type (`any`): the package's field says more.
  if (old && sdk.type === "any" && Object.keys(sdk).length === 1) return old;
  const out: FieldSpec = { ...sdk };
  if (out.type === "string" && out.format === "binary") {
    out.type = "file";
    delete out.format;
  }
  if (!old) return out;
  for (const k of DESCRIPTION_KEYS) {
    if (old[k] !== undefined && out[k] === undefined) (out as Record<string, unknown>)[k] = old[k];
  }
  if (out.type === "number" && old.type === "integer") out.type = "integer";
  // The SDK types every body field optional where the API requires some (mail drafts' `raw`): a supplementary
  // entry that names its source may say so.
  if (keepOld && old.required === true && typeof old.source === "string") out.required = true;
  if (out.properties) out.properties = mergeFields(out.properties, old.properties, keepOld);
  if (out.items) out.items = mergeField(out.items, old.items, keepOld);
  return out;
}

/**
 * SDK fields first. A field the SDK lacks survives only in a supplementary entry (`keepOld`) and only with its
 * `source` named: a documented field the SDK's type misses, declared by hand.
 */
function mergeFields(
  sdk: Record<string, FieldSpec>,
  old: Record<string, FieldSpec> | undefined,
  keepOld: boolean,
): Record<string, FieldSpec> {
  const out: Record<string, FieldSpec> = {};
  for (const [k, f] of Object.entries(sdk)) out[k] = mergeField(f, old?.[k], keepOld);
  if (keepOld) {
    for (const [k, f] of Object.entries(old ?? {})) if (!out[k] && typeof f.source === "string") out[k] = f;
  }
  return out;
}

/**
 * A method with the SDK's request: query and body fields from the SDK's `payload` type, path parameters as the
 * path names them. A POST/PUT/PATCH whose payload has no `data` takes an empty body (plus any sourced fields of
 * a supplementary entry, `keepOld`).
 */
function withSdkRequest(m: MethodSpec, req: SdkRequest, keepOld: boolean): MethodSpec {
  const parameters: Record<string, ParameterSpec> = {};
  const old = (loc: "path" | "query") =>
    Object.fromEntries(Object.entries(m.parameters).filter(([, p]) => p.location === loc));
  const sdkPath = req.path ? fieldsFromJsonSchema(req.path) : {};
  for (const [k, p] of Object.entries(old("path"))) {
    const sdkEnum = sdkPath[k]?.enum;
    parameters[k] = sdkEnum ? { ...p, enum: sdkEnum } : p;
  }
  const query = mergeFields(req.query ? fieldsFromJsonSchema(req.query) : {}, old("query"), keepOld);
  for (const [k, f] of Object.entries(query)) {
    const { location: _l, ...field } = f as ParameterSpec;
    parameters[k] = { ...field, location: "query" };
  }
  const out: MethodSpec = { ...m, parameters };
  delete out.requestBody;
  if (req.body || ["POST", "PUT", "PATCH"].includes(m.httpMethod)) {
    out.requestBody = mergeFields(req.body ? fieldsFromJsonSchema(req.body) : {}, m.requestBody, keepOld);
  }
  return out;
}

/** An SDK doc comment -> title and text: `{@link ...}` lines dropped, `;` line breaks restored. */
function sdkDoc(doc: string | undefined): { title: string; text: string } {
  const lines = (doc ?? "").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("{@link"));
  return { title: lines[0] ?? "", text: lines.join("\n").replace(/;;/g, "\n") };
}

/** A method only the SDK has: its route, its doc comment; either identity (the SDK does not say which). */
function methodFromSdk(name: MethodName, endpoint: SdkEndpoint, doc: string | undefined): MethodSpec {
  const { title, text } = sdkDoc(doc);
  const parameters: Record<string, ParameterSpec> = {};
  for (const p of name.pathParams) parameters[p] = { type: "string", required: true, location: "path" };
  return {
    path: name.relativePath,
    httpMethod: endpoint.httpMethod as MethodSpec["httpMethod"],
    description: `${title || name.sdkName} (from the SDK ${SDK.name}; it carries no English text)`,
    descriptionZh: text || undefined,
    summary: title || name.sdkName,
    parameters,
    accessTokens: ["tenant", "user"],
    sdkName: name.sdkName,
  };
}

/** Pure: package tools + overrides + supplementary entries + SDK types -> the registry files. */
export async function generateBaseline(
  en: PackageTool[],
  zh: PackageTool[],
  overrides: Overrides,
  sdk: SdkTypes,
): Promise<{ files: GeneratedFiles; coverage: Coverage }> {
  const { shapes } = sdk;
  const zhByName = new Map(zh.map((t) => [t.name, t]));
  const known = new Set(en.map((t) => t.name));
  for (const a of overrides.add) {
    if (known.has(a.name)) throw new Error(`supplementary/added method already in the package: ${a.name}`);
  }
  const added = overrides.add.map((a) => ({ a, name: nameMethod(a.name, a.path) }));
  for (const key of Object.keys(overrides.methods)) {
    if (!known.has(key) && !added.some((x) => x.a.name === key)) {
      throw new Error(`overrides.json names an unknown method: ${key}`);
    }
  }
  const routes = new Set([
    ...en.map((t) => routeKey(t.httpMethod, t.path)),
    ...overrides.add.map((a) => routeKey(a.method.httpMethod, a.path)),
  ]);
  const sdkNameOfRoute = new Map([...sdk.endpoints].map(([n, e]) => [routeKey(e.httpMethod, e.path), n]));
  // Methods only the SDK has (a route no package tool or supplementary entry serves).
  const sdkOnly = [...sdk.endpoints].filter(([n, e]) =>
    // Versioned, and resource names a command can carry (not `spark/v1/app/access-scope`).
    /^\/open-apis\/[a-z0-9_]+\/v\d+(\/:?[a-z0-9_]+)+$/i.test(e.path) && !known.has(n) &&
    !overrides.add.some((a) => a.name === n) && !routes.has(routeKey(e.httpMethod, e.path))
  ).sort(([a], [b]) => a < b ? -1 : 1);
  const named = [
    ...en.map((tool) => ({ ...nameMethod(tool.name, tool.path), tool, added: undefined, sdk: undefined })),
    ...added.map(({ a, name }) => ({ ...name, tool: undefined, added: a, sdk: undefined })),
  ];
  const resolved = resolveCollisions([
    ...named,
    ...sdkOnly.map(([n, e]) => ({ ...nameMethod(n, e.path), tool: undefined, added: undefined, sdk: e })),
  ]);
  // A command `svc res method` an SDK-only resource would shadow (`approval instances subscription` is a
  // method; `instances.subscription` would make it a resource too): such methods stay out.
  const commands = new Set(resolved.map((n) => `${n.service}.${n.resource}.${n.method}`));
  const entries = resolved.filter((n) => !n.sdk || !commands.has(`${n.service}.${n.resource}`));
  const services = new Map<string, { spec: ServiceSpec; titles: string[]; titlesZh: string[] }>();
  const shapeFiles = new Map<string, Record<string, JsonSchema>>();
  const coverage: Coverage = { methods: 0, withShape: 0, withSdkRequest: 0, sdkOnly: 0, missing: [] };
  for (const e of entries) {
    const { service, resource, version, method } = e;
    const declared: MethodSpec = e.tool
      ? methodFromTool(e.tool, zhByName.get(e.tool.name), e)
      : e.sdk
      ? methodFromSdk(e, e.sdk, sdk.docs.get(e.sdkName))
      : { ...e.added!.method, path: e.relativePath, sdkName: e.sdkName };
    const sdkName = sdk.requests.has(e.sdkName)
      ? e.sdkName
      : sdkNameOfRoute.get(routeKey(declared.httpMethod, `/open-apis/${service}/${declared.path}`));
    const request = sdkName ? sdk.requests.get(sdkName) : undefined;
    const base = request ? withSdkRequest(declared, request, !!e.added) : declared;
    if (request) coverage.withSdkRequest++;
    if (e.sdk) coverage.sdkOnly++;
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
    // A declared response (added/supplementary methods) wins over the SDK's; it stays in the service file too.
    const shape = spec.responseBody
      ? declaredShape(spec.responseBody)
      : shapes.get(e.sdkName) ?? (sdkName ? shapes.get(sdkName) : undefined);
    coverage.methods++;
    const listField = shape && listFieldOfShape(shape);
    if (listField) spec.listField = listField;
    if (shape) {
      coverage.withShape++;
      (shapeFiles.get(service) ?? shapeFiles.set(service, {}).get(service)!)[`${resource}.${method}`] = shape;
    } else coverage.missing.push(`${service}.${resource}.${method} (${e.sdkName})`);
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
    files[`baseline/services/${name}.json`] = json(spec);
    for (const [resource, runnable] of Object.entries(runnableResources(spec))) {
      files[`baseline/runnable/${name}/${resource}.json`] = json(runnable);
    }
    const shapesOf = shapeFiles.get(name);
    if (shapesOf) files[`shapes/${name}.json`] = shapesJson(shapesOf);
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
    source:
      `npm:${PACKAGE} + registry/overrides.json + registry/supplementary/ (shapes: npm:${SDK.name}@${SDK.version})`,
    services: summaries,
  };
  files["baseline/index.json"] = json(index);
  coverage.missing.sort();
  return { files, coverage };
}

/** The SDK's declaration file in Deno's npm cache (the task installs the gen config's packages first). */
async function sdkDeclarations(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" }).output();
  const { npmCache } = z.object({ npmCache: z.string() }).parse(
    JSON.parse(new TextDecoder().decode(out.stdout)),
  );
  return join(npmCache, "registry.npmjs.org", SDK.name, SDK.version, "types", "index.d.ts");
}

async function readSupplementary(dir: string): Promise<Overrides["add"]> {
  const names = (await Array.fromAsync(Deno.readDir(dir)).catch(() => []))
    .filter((f) => f.isFile && f.name.endsWith(".json")).map((f) => f.name).sort();
  const out: Overrides["add"] = [];
  for (const name of names) {
    const parsed = SupplementarySchema.safeParse(JSON.parse(await Deno.readTextFile(join(dir, name))));
    if (!parsed.success) throw new Error(`registry/supplementary/${name}: ${parsed.error.message}`);
    out.push(...parsed.data.methods);
  }
  return out;
}

async function main(args: string[]): Promise<number> {
  const here = dirname(fromFileUrl(import.meta.url));
  const overrides = OverridesSchema.parse(JSON.parse(await Deno.readTextFile(join(here, "overrides.json"))));
  overrides.add.push(...await readSupplementary(join(here, "supplementary")));
  const types = sdkTypes(await Deno.readTextFile(await sdkDeclarations()));
  const { files, coverage } = await generateBaseline(
    EnTools as PackageTool[],
    ZhTools as PackageTool[],
    overrides,
    { ...types, endpoints: await sdkEndpoints() },
  );
  const pct = (100 * coverage.withShape / coverage.methods).toFixed(1);
  console.error(
    `requests typed by the SDK: ${coverage.withSdkRequest}/${coverage.methods} methods ` +
      `(${coverage.sdkOnly} only the SDK has); the rest are declared in registry/supplementary/`,
  );
  console.error(
    `response shapes: ${coverage.withShape}/${coverage.methods} methods (${pct}%); without a shape:\n  ` +
      (coverage.missing.join("\n  ") || "(none)"),
  );
  const generatedDirs = ["baseline/services", "baseline/runnable", "shapes"];
  if (args.includes("--check")) {
    const drift: string[] = [];
    for (const [file, text] of Object.entries(files)) {
      const current = await Deno.readTextFile(join(here, file)).catch(() => "");
      if (current !== text) drift.push(file);
    }
    for (const d of generatedDirs) {
      for (const f of await filesUnder(join(here, d))) {
        if (!files[`${d}/${f}`]) drift.push(`${d}/${f} (stale)`);
      }
    }
    if (drift.length) {
      console.error(`registry baseline drift; run deno task registry:gen\n  ${drift.join("\n  ")}`);
    }
    return drift.length ? 1 : 0;
  }
  for (const d of generatedDirs) {
    await Deno.remove(join(here, d), { recursive: true }).catch(() => {});
    await Deno.mkdir(join(here, d), { recursive: true });
  }
  for (const [file, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(here, file)), { recursive: true });
    await Deno.writeTextFile(join(here, file), text);
  }
  const services = Object.keys(files).filter((f) => f.startsWith("baseline/services/")).length;
  console.error(
    `wrote ${services} services to ${join(here, "baseline")} and their shapes to ${join(here, "shapes")}`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
