/**
 * The emulator's answer for every registry method. `findApiMethod` maps a request to its registry method
 * (the service's methods are loaded on first use, so start-up stays fast; `request_check.ts` checks every
 * request against the method's request schema before this or any hand-written handler runs);
 * `genericHandle` serves a method that has no hand-written route, statefully, over resource collections
 * derived from the path:
 *
 * - `POST .../things` where `.../things/{thing_id}` exists -> create: a new object with a suite-format id, the
 *   request body merged in;
 * - `GET|PATCH|PUT|DELETE .../things/{thing_id}` -> get/update/delete what was created. An id never created
 *   stands for an object the tenant already had: it is materialized (deterministically) and then behaves the
 *   same; a deleted id answers 404;
 * - a list (a response with a list field, GET or POST search/query) -> the collection's live objects,
 *   paginated with `page_size`/`page_token`/`has_more`;
 * - anything else (actions, singletons) -> a plausible response.
 *
 * Every response is fitted to the method's response shape (`conform`), so it validates against it.
 */
import { openRegistry, type Registry } from "../registry/index.ts";
import type { ApiMethod } from "../registry/method.ts";
import type { JsonSchema } from "../registry/fields.ts";
import { responseShapeOf } from "../registry/shapes.ts";
import { type CompiledMethod, compileMethod, matchMethod, serviceOfPath } from "../registry/match.ts";
import { all, nextCounter, one, run } from "./db.ts";
import { pageOf, paginate } from "./paging.ts";
import { ok, raise, type Reply } from "./reply.ts";
import type { RequestCtx } from "./router.ts";
import { conform, type SampleCtx, suiteId } from "./sample.ts";

interface ServiceIndex {
  methods: CompiledMethod[];
  /** Path templates (`/open-apis/.../{x}`) that exist, for "is this a collection with items?". */
  templates: Set<string>;
}

let opened: Promise<Registry> | undefined;
/** The baseline registry (with supplementary entries), opened on the first request that needs it. */
const registry = () => opened ??= openRegistry();
const services = new Map<string, Promise<ServiceIndex>>();

async function indexOf(service: string): Promise<ServiceIndex> {
  let p = services.get(service);
  if (!p) {
    p = (async () => {
      const methods = (await (await registry()).methods(service)).map(compileMethod);
      return { methods, templates: new Set(methods.map((m) => m.method.path)) };
    })();
    services.set(service, p);
  }
  return await p;
}

export interface FoundMethod {
  method: ApiMethod;
  params: Record<string, string>;
  index: ServiceIndex;
}

/** The registry method a request addresses (see registry/match.ts), with its service's index. */
export async function findApiMethod(
  httpMethod: string,
  path: string,
): Promise<{ found?: FoundMethod; pathKnown: boolean }> {
  const service = serviceOfPath(path);
  if (!service || !(await registry()).listServices().some((s) => s.name === service)) {
    return { pathKnown: false };
  }
  const index = await indexOf(service);
  const { method, pathKnown } = matchMethod(index.methods, httpMethod, path);
  return { found: method && { ...method, index }, pathKnown };
}

function isJson(ctx: { req: Request }): boolean {
  const type = ctx.req.headers.get("content-type") ?? "";
  return type === "" || type.includes("json");
}

// ---- the generic, stateful handler ----

interface Stored {
  id: string;
  body: Record<string, unknown>;
  deleted: number;
}

function collectionKey(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, n: string) => params[n] ?? `{${n}}`);
}

function load(ctx: RequestCtx, collection: string, id: string): Stored | undefined {
  const row = one<{ id: string; body: string; deleted: number }>(
    ctx.st.db,
    "SELECT id, body, deleted FROM generic_objects WHERE collection = ? AND id = ?",
    collection,
    id,
  );
  return row && { id: row.id, body: JSON.parse(row.body), deleted: row.deleted };
}

function save(ctx: RequestCtx, collection: string, id: string, body: unknown, deleted = 0): void {
  run(
    ctx.st.db,
    `INSERT INTO generic_objects (collection, id, body, deleted, seq) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (collection, id) DO UPDATE SET body = excluded.body, deleted = excluded.deleted`,
    collection,
    id,
    JSON.stringify(body),
    deleted,
    nextCounter(ctx.st.db, "generic_seq"),
  );
}

function jsonBodyOf(ctx: RequestCtx): Record<string, unknown> {
  if (!ctx.bytes.length || !isJson(ctx)) return {};
  try {
    const v = JSON.parse(new TextDecoder().decode(ctx.bytes));
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/**
 * Where the object sits in a response: under the single object-typed property (`{space: {...}}`), or the
 * response itself when it is flat (`{chat_id, name, ...}`).
 */
function objectSlot(shape: JsonSchema, idField: string): string | undefined {
  const props = Object.entries(shape.properties ?? {});
  if (props.some(([k]) => k === idField)) return undefined;
  const objects = props.filter(([, p]) => p.type === "object");
  // `meeting_id` -> `{meeting: {...}, related_artifacts: {...}}`: the property named like the id wins.
  const named = idField.replace(/_(id|guid|token|key|code)$/, "");
  if (objects.some(([k]) => k === named)) return named;
  return objects.length === 1 && props.length <= 2 ? objects[0][0] : undefined;
}

/** The id field name inside the object: the path parameter itself, or its tail (`task_guid` -> `guid`). */
function idFieldsOf(schema: JsonSchema | undefined, param: string): string[] {
  const props = Object.keys(schema?.properties ?? {});
  const out = [param];
  for (const p of props) if (p !== param && param.endsWith(`_${p}`) && looksId(p)) out.push(p);
  if (props.includes("id") && !out.includes("id")) out.push("id");
  return out;
}

const looksId = (n: string) => /^(id|guid|token|key)$|_(id|guid|token|key)$/.test(n);

function sampleCtx(ctx: RequestCtx, seed: string): SampleCtx {
  return { nowMs: ctx.st.clock.now(), origin: ctx.st.origin, seed };
}

function merge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    const cur = out[k];
    out[k] = v && typeof v === "object" && !Array.isArray(v) && cur && typeof cur === "object" &&
        !Array.isArray(cur)
      ? merge(cur as Record<string, unknown>, v as Record<string, unknown>)
      : v;
  }
  return out;
}

/** The object part of a request body: `{task: {...}, update_fields}` -> the `task` object; else the body. */
function bodyObject(body: Record<string, unknown>, slot: string | undefined): Record<string, unknown> {
  const inner = slot ? body[slot] : undefined;
  return inner && typeof inner === "object" && !Array.isArray(inner)
    ? inner as Record<string, unknown>
    : body;
}

function respondWithObject(
  ctx: RequestCtx,
  shape: JsonSchema,
  idParam: string,
  obj: Record<string, unknown>,
  seed: string,
): Reply {
  const slot = objectSlot(shape, idParam);
  const c = sampleCtx(ctx, seed);
  const data = slot
    ? conform(shape, { [slot]: obj }, c) as Record<string, unknown>
    : conform(shape, obj, c) as Record<string, unknown>;
  return ok(data);
}

function itemSchemaOf(shape: JsonSchema, idParam: string): JsonSchema | undefined {
  const slot = objectSlot(shape, idParam);
  return slot ? shape.properties?.[slot] : shape;
}

/** A fresh object for a collection: sampled from the item's schema, the request merged in, ids set. */
function newObject(
  ctx: RequestCtx,
  itemSchema: JsonSchema | undefined,
  idParam: string,
  id: string,
  fromRequest: Record<string, unknown>,
): Record<string, unknown> {
  const base = itemSchema ? conform(itemSchema, {}, sampleCtx(ctx, id)) as Record<string, unknown> : {};
  const obj = merge(base, fromRequest);
  for (const f of idFieldsOf(itemSchema, idParam)) obj[f] = id;
  return obj;
}

export async function genericHandle(ctx: RequestCtx, found: FoundMethod): Promise<Reply> {
  const { method, params, index } = found;
  const known = await responseShapeOf(method);
  const shape: JsonSchema = known ?? { type: "object" };
  if (shape.format === "binary") {
    const bytes = new TextEncoder().encode(`emulator file for ${ctx.url.pathname}\n`);
    return {
      kind: "raw",
      status: 200,
      body: bytes,
      headers: {
        "content-type": "application/octet-stream",
        "content-disposition": 'attachment; filename="file.bin"',
      },
    };
  }
  const segments = method.path.split("/");
  const last = segments.at(-1) ?? "";
  const lastParam = /^\{(.+)\}$/.exec(last)?.[1];
  const body = jsonBodyOf(ctx);

  if (lastParam) {
    // An item: get / update / delete (or an action POSTed at the item).
    const collection = collectionKey(segments.slice(0, -1).join("/"), params);
    const id = params[lastParam];
    const stored = load(ctx, collection, id);
    if (stored?.deleted) return raise(404, 404, `not found: ${id} (deleted)`);
    const itemSchema = itemSchemaOf(shape, lastParam);
    const current = stored?.body ?? newObject(ctx, itemSchema, lastParam, id, {});
    if (method.httpMethod === "DELETE") {
      save(ctx, collection, id, current, 1);
      return ok(conform(shape, {}, sampleCtx(ctx, id)));
    }
    if (method.httpMethod === "GET") {
      if (!stored) save(ctx, collection, id, current);
      return respondWithObject(ctx, shape, lastParam, current, id);
    }
    const updated = merge(current, bodyObject(body, objectSlot(shape, lastParam)));
    for (const f of idFieldsOf(itemSchema, lastParam)) updated[f] = id;
    save(ctx, collection, id, updated);
    return respondWithObject(ctx, shape, lastParam, updated, id);
  }

  const itemRouteOf = (template: string) =>
    [...index.templates].find((t) =>
      t.startsWith(`${template}/{`) && !t.slice(template.length + 2).includes("/")
    );
  let collectionTemplate = method.path;
  let itemRoute = itemRouteOf(collectionTemplate);
  if (!itemRoute && method.listField) {
    // `.../things/search` lists the `.../things` collection.
    const parent = segments.slice(0, -1).join("/");
    itemRoute = itemRouteOf(parent);
    if (itemRoute) collectionTemplate = parent;
  }
  const idParam = itemRoute ? /\{([^}]+)\}$/.exec(itemRoute)![1] : undefined;
  const collection = collectionKey(collectionTemplate, params);

  // Without a response shape (a supplementary entry that declares none), a GET on a collection is its list.
  const listField = method.listField ??
    (!known && method.httpMethod === "GET" && idParam ? "items" : undefined);
  if (listField) {
    // A list (GET, or a POST search/query): the live objects of this collection, paginated.
    const itemsSchema = shape.properties?.[listField]?.items as JsonSchema | undefined;
    const rows = all<{ id: string; body: string }>(
      ctx.st.db,
      "SELECT id, body FROM generic_objects WHERE collection = ? AND deleted = 0 ORDER BY seq",
      collection,
    );
    const maxSize = Number(method.parameters.page_size?.max ?? 100) || 100;
    const page = pageOf(ctx.query, { size: Math.min(20, maxSize), max: maxSize });
    const { items, has_more, page_token } = paginate(rows, page);
    const c = sampleCtx(ctx, collection);
    const list = items.map((r) =>
      itemsSchema ? conform(itemsSchema, JSON.parse(r.body), { ...c, seed: r.id }) : JSON.parse(r.body)
    );
    const data = conform(shape, {}, c) as Record<string, unknown>;
    data[listField] = list;
    if ("has_more" in data || method.parameters.page_token) data.has_more = has_more;
    if (page_token) data.page_token = page_token;
    else if (typeof data.page_token === "string") data.page_token = "";
    if (typeof data.total === "number") data.total = rows.length;
    return ok(data);
  }

  if (method.httpMethod === "POST" && idParam) {
    // Create: a new object in the collection.
    const id = suiteId(idParam, `${collection}#${nextCounter(ctx.st.db, "generic_id")}`);
    const itemSchema = itemSchemaOf(shape, idParam);
    const obj = newObject(ctx, itemSchema, idParam, id, bodyObject(body, objectSlot(shape, idParam)));
    save(ctx, collection, id, obj);
    return respondWithObject(ctx, shape, idParam, obj, id);
  }

  // An action or a singleton: a plausible answer, stable for the same path.
  return ok(conform(shape, {}, sampleCtx(ctx, ctx.url.pathname)));
}
