/**
 * The emulator's answer for every registry method. `findApiMethod` maps a request to its registry method
 * (the service's methods are loaded on first use, so start-up stays fast; `request_check.ts` checks every
 * request against the method's request schema before this or any hand-written handler runs);
 * `genericHandle` serves a method that has no hand-written route, statefully, over resource collections
 * derived from the path:
 *
 * - `POST .../things` where `.../things/{thing_id}` exists -> create: a new object with a suite-format id, the
 *   request body merged in;
 * - `GET|PATCH|PUT|DELETE .../things/{thing_id}` -> get/update/delete what was created (or what a
 *   hand-written route keeps in its table); an id that names nothing, or was deleted, is the service's
 *   not-found (`not_found.ts`), as is a parent in the path that names nothing;
 * - a list (a response with a list field, GET or POST search/query) -> the collection's live objects,
 *   paginated with `page_size`/`page_token`/`has_more`;
 * - anything else (actions, singletons) -> what the request and the stored state determine, nothing more.
 *
 * Every response is shaped to the method's response shape (`fit`): a field the emulator cannot know is left
 * out, or takes its type's empty value where the shape requires it; nothing is invented.
 */
import { openRegistry, type Registry } from "../registry/index.ts";
import type { ApiMethod } from "../registry/method.ts";
import type { JsonSchema } from "../registry/fields.ts";
import { responseShapeOf } from "../registry/shapes.ts";
import { type CompiledMethod, compileMethod, matchMethod, serviceOfPath } from "../registry/match.ts";
import { all, nextCounter, one, run } from "./db.ts";
import { pageOf, paginate } from "./paging.ts";
import { ok, type Reply } from "./reply.ts";
import type { RequestCtx } from "./router.ts";
import { fit, suiteId } from "./sample.ts";
import { notFoundOf } from "./not_found.ts";
import { driveDocs } from "./drive_index.ts";

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

/**
 * An item where it was stored: in `collection`, or, for a top-level address (`/okr/v2/objectives/{id}`), in a
 * collection of the same name under a parent (`/okr/v2/cycles/{c}/objectives`), as the suite addresses items
 * by id wherever they were listed.
 */
function locate(ctx: RequestCtx, collection: string, id: string): { collection: string; stored?: Stored } {
  const stored = load(ctx, collection, id);
  if (stored) return { collection, stored };
  const [, api, name] = /^(\/open-apis\/[^/]+\/)v\d+\/([^/]+)$/.exec(collection) ?? [];
  if (!name) return { collection };
  const row = one<{ collection: string }>(
    ctx.st.db,
    `SELECT collection FROM generic_objects WHERE id = ? AND collection LIKE ? AND collection LIKE ?
     ORDER BY deleted, seq LIMIT 1`,
    id,
    `${api}%`,
    `%/${name}`,
  );
  return row ? { collection: row.collection, stored: load(ctx, row.collection, id) } : { collection };
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
  const named = stemOf(idField);
  if (objects.some(([k]) => k === named)) return named;
  return objects.length === 1 && props.length <= 2 ? objects[0][0] : undefined;
}

/** `instance_id` -> `instance`: the resource an id parameter names. */
const stemOf = (param: string) => param.replace(/_(id|guid|token|key|code)$/, "");

/**
 * The id fields inside the object: the path parameter itself, its tail (`task_guid` -> `guid`), `id`, and the
 * same resource's id under another suffix (`instance_id` -> `instance_code`).
 */
function idFieldsOf(schema: JsonSchema | undefined, param: string): string[] {
  const props = Object.keys(schema?.properties ?? {});
  const stem = stemOf(param);
  const out = [param];
  for (const p of props) {
    if (out.includes(p)) continue;
    if ((param.endsWith(`_${p}`) && looksId(p)) || (stem !== param && stemOf(p) === stem && looksId(p))) {
      out.push(p);
    }
  }
  if (props.includes("id") && !out.includes("id")) out.push("id");
  return out;
}

const looksId = (n: string) => /^(id|guid|token|key|code)$|_(id|guid|token|key|code)$/.test(n);

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

/** `fit` of a whole response: an object, however little the emulator knows. */
function fitted(shape: JsonSchema, value: Record<string, unknown>): Record<string, unknown> {
  return (fit(shape, value) as Record<string, unknown> | undefined) ?? {};
}

function respondWithObject(shape: JsonSchema, idParam: string, obj: Record<string, unknown>): Reply {
  const slot = objectSlot(shape, idParam);
  return ok(fitted(shape, slot ? { [slot]: obj } : obj));
}

function itemSchemaOf(shape: JsonSchema, idParam: string): JsonSchema | undefined {
  const slot = objectSlot(shape, idParam);
  return slot ? shape.properties?.[slot] : shape;
}

/** A new object: what the request said, its ids set. Nothing the request did not say is made up. */
function newObject(
  itemSchema: JsonSchema | undefined,
  idParam: string,
  id: string,
  params: Record<string, string>,
  fromRequest: Record<string, unknown>,
): Record<string, unknown> {
  const obj: Record<string, unknown> = { ...fromRequest };
  // The parents' ids the object carries (`chat_id` of a pin under `chats/{chat_id}`), as the path named them.
  for (const [k, v] of Object.entries(params)) {
    if (itemSchema?.properties?.[k] && obj[k] === undefined) obj[k] = v;
  }
  for (const f of idFieldsOf(itemSchema, idParam)) obj[f] = id;
  return obj;
}

/**
 * Objects the hand-written routes keep in their own tables, by the path parameter that names them, so an id
 * created through one API is known to the generic routes of every other (`PATCH .../chats/{chat_id}/...`).
 */
const TABLES: Record<string, (ctx: RequestCtx, id: string) => boolean> = {
  chat_id: (ctx, id) => has(ctx, "SELECT 1 FROM chats WHERE chat_id = ?", id),
  message_id: (ctx, id) => has(ctx, "SELECT 1 FROM messages WHERE message_id = ?", id),
  calendar_id: (ctx, id) => id === "primary" || has(ctx, "SELECT 1 FROM calendars WHERE calendar_id = ?", id),
  event_id: (ctx, id) => has(ctx, "SELECT 1 FROM events WHERE event_id = ?", id),
  document_id: (ctx, id) => has(ctx, "SELECT 1 FROM docs WHERE document_id = ?", id),
  spreadsheet_token: (ctx, id) => has(ctx, "SELECT 1 FROM sheet_tabs WHERE spreadsheet_token = ?", id),
  task_guid: (ctx, id) => has(ctx, "SELECT 1 FROM tasks WHERE guid = ?", id),
  "mail:message_id": (ctx, id) => has(ctx, "SELECT 1 FROM mails WHERE message_id = ?", id),
  app_token: (ctx, id) => has(ctx, "SELECT 1 FROM records WHERE app_token = ?", id),
  // Drive addresses every kind of file by its token: uploaded files, documents, spreadsheets, bases.
  file_token: (ctx, id) => anyFile(ctx, id),
  token: (ctx, id) => anyFile(ctx, id),
};

/** Whatever kind of file a Drive token names (see drive_index.ts). */
function anyFile(ctx: RequestCtx, id: string): boolean {
  return driveDocs(ctx.st).some((d) => d.token === id);
}

function has(ctx: RequestCtx, sql: string, id: string): boolean {
  return one(ctx.st.db, sql, id) !== undefined;
}

/** The hand-written table that holds what `param` names in `service` (`mail`'s message ids are mails). */
function tableOf(service: string, param: string): ((ctx: RequestCtx, id: string) => boolean) | undefined {
  return TABLES[`${service}:${param}`] ?? TABLES[param];
}

/** Whether `id` (of path parameter `param`, an item of `collection`) names an object the emulator holds. */
function exists(ctx: RequestCtx, service: string, param: string, collection: string, id: string): boolean {
  const { stored } = locate(ctx, collection, id);
  if (stored) return !stored.deleted;
  return tableOf(service, param)?.(ctx, id) ?? false;
}

/**
 * Every parent the path names must exist where the emulator can hold it: in a hand-written table, or as a
 * generic object of a collection its service can create into. A parent no API here can create (a tenant's
 * OKR cycle, a mailbox) is taken as named.
 */
function checkParents(ctx: RequestCtx, found: FoundMethod, upTo: number): void {
  const segments = found.method.path.split("/");
  for (let i = 0; i < upTo; i++) {
    const param = /^\{(.+)\}$/.exec(segments[i])?.[1];
    if (!param) continue;
    const template = segments.slice(0, i).join("/");
    const collection = collectionKey(template, found.params);
    const id = found.params[param];
    const creatable = found.index.methods.some((m) =>
      m.method.httpMethod === "POST" && m.method.path === template
    );
    if (!tableOf(found.method.service, param) && !creatable) continue;
    if (!exists(ctx, found.method.service, param, collection, id)) {
      notFoundOf(found.method.service, param, id);
    }
  }
}

/**
 * Ids that stand for another: `my_library` is the caller's personal wiki library, whatever its space id.
 * (The emulator has one library, Alice's, seeded with the space type `my_library`.)
 */
function resolveAliases(ctx: RequestCtx, params: Record<string, string>): Record<string, string> {
  if (params.space_id !== "my_library") return params;
  const row = one<{ id: string }>(
    ctx.st.db,
    `SELECT id FROM generic_objects WHERE collection = '/open-apis/wiki/v2/spaces' AND deleted = 0
       AND json_extract(body, '$.space_type') = 'my_library'`,
  );
  return row ? { ...params, space_id: row.id } : params;
}

export async function genericHandle(ctx: RequestCtx, request: FoundMethod): Promise<Reply> {
  const found = { ...request, params: resolveAliases(ctx, request.params) };
  const { method, params, index } = found;
  const known = await responseShapeOf(method);
  const shape: JsonSchema = known ?? { type: "object" };
  const segments = method.path.split("/");
  const last = segments.at(-1) ?? "";
  const lastParam = /^\{(.+)\}$/.exec(last)?.[1];
  const body = jsonBodyOf(ctx);
  checkParents(ctx, found, segments.length - 1);
  if (shape.format === "binary") return download(ctx, found);

  if (lastParam) {
    // An item: get / update / delete (or an action POSTed at the item). Only what exists.
    const id = params[lastParam];
    const { collection, stored } = locate(ctx, collectionKey(segments.slice(0, -1).join("/"), params), id);
    if (stored?.deleted || (!stored && !tableOf(method.service, lastParam)?.(ctx, id))) {
      return notFoundOf(method.service, lastParam, id);
    }
    const itemSchema = itemSchemaOf(shape, lastParam);
    const current = stored?.body ?? newObject(itemSchema, lastParam, id, params, {});
    if (method.httpMethod === "DELETE") {
      save(ctx, collection, id, current, 1);
      return ok(fitted(shape, {}));
    }
    if (method.httpMethod === "GET") return respondWithObject(shape, lastParam, current);
    const updated = merge(current, bodyObject(body, objectSlot(shape, lastParam)));
    for (const f of idFieldsOf(itemSchema, lastParam)) updated[f] = id;
    save(ctx, collection, id, updated);
    return respondWithObject(shape, lastParam, updated);
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
    const words = searchWords(ctx, body);
    const matching = words.length
      ? rows.filter((r) => {
        const text = textOf(JSON.parse(r.body)).toLowerCase();
        return words.every((w) => text.includes(w));
      })
      : rows;
    const maxSize = Number(method.parameters.page_size?.max ?? 100) || 100;
    const page = pageOf(ctx.query, { size: Math.min(20, maxSize), max: maxSize });
    const { items, has_more, page_token } = paginate(matching, page);
    const list = items.map((r) => {
      const stored = JSON.parse(r.body);
      return itemsSchema ? fit(itemsSchema, stored) ?? {} : stored;
    });
    const props = shape.properties ?? {};
    // The answer's other fields are what a write to the same path stored (`PUT .../moderation`, then its list).
    const data = fitted(shape, load(ctx, singletonKey(method.path, params), "")?.body ?? {});
    data[listField] = list;
    if (props.has_more || method.parameters.page_token) data.has_more = has_more;
    if (page_token) data.page_token = page_token;
    // The last page's empty token, where the shape types it a string (a few SDK types say number: left out).
    else if (props.page_token?.type === "string") data.page_token = "";
    else delete data.page_token;
    if (props.total) data.total = props.total.type === "string" ? String(matching.length) : matching.length;
    Object.assign(data, unknownPeople(ctx, shape, body));
    return ok(data);
  }

  if (method.httpMethod === "POST" && idParam) {
    // Create: a new object in the collection, under the id the request gave it (a member's `member_id`) or a
    // new one.
    const fromRequest = bodyObject(body, objectSlot(shape, idParam));
    const named = fromRequest[idParam];
    const id = typeof named === "string" && named
      ? named
      : suiteId(idParam, `${collection}#${nextCounter(ctx.st.db, "generic_id")}`);
    const itemSchema = itemSchemaOf(shape, idParam);
    const obj = newObject(itemSchema, idParam, id, params, fromRequest);
    save(ctx, collection, id, obj);
    return respondWithObject(shape, idParam, obj);
  }

  const made = createdByAction(ctx, found, shape, body);
  if (made) return made;

  // An action at an item (`.../nodes/{node_token}/move`): the item, as the action leaves it, where the answer
  // carries it.
  const onItem = /^\{(.+)\}$/.exec(segments.at(-2) ?? "")?.[1];
  if (onItem && method.httpMethod !== "GET" && objectSlot(shape, onItem)) {
    const itemCollection = collectionKey(segments.slice(0, -2).join("/"), params);
    const item = load(ctx, itemCollection, params[onItem]);
    if (item && !item.deleted) return respondWithObject(shape, onItem, item.body);
  }

  // An action or a singleton: what the request and the emulator's state determine. A singleton written
  // earlier (`PUT .../announcement`) is read back; otherwise only the fields the request itself named.
  const key = singletonKey(method.path, params);
  const before = load(ctx, key, "")?.body ?? {};
  if (method.httpMethod === "GET") return ok(fitted(shape, before));
  const state = method.httpMethod === "PUT" || method.httpMethod === "PATCH" ? merge(before, body) : before;
  if (state !== before) save(ctx, key, "", state);
  // The request's own fields (path, body) may be echoed where the answer has a field of that name.
  const answer = merge(state, { ...params, ...body, ...unknownPeople(ctx, shape, body) });
  if (method.httpMethod === "POST") mintIds(ctx, found, shape, answer);
  return ok(fitted(shape, answer));
}

/**
 * A POST action whose answer carries an id the request did not name (`messages/share_token` -> `card_id`)
 * made that object, where the service addresses such objects (`share_tokens/{card_id}`): the id is new and
 * the object is stored there, so the requests that follow find it. Other ids (people, tenants) are never made.
 */
function mintIds(
  ctx: RequestCtx,
  found: FoundMethod,
  shape: JsonSchema,
  answer: Record<string, unknown>,
): void {
  for (const [field, prop] of Object.entries(shape.properties ?? {})) {
    if (!looksId(field) || prop.type !== "string" || answer[field] !== undefined) continue;
    const template = [...found.index.templates].find((t) => t.includes(`/{${field}}`));
    if (!template) continue;
    const collection = collectionKey(template.slice(0, template.indexOf(`/{${field}}`)), found.params);
    if (collection.includes("{")) continue;
    const id = suiteId(field, `${collection}#${nextCounter(ctx.st.db, "generic_id")}`);
    answer[field] = id;
    save(ctx, collection, id, { ...answer });
  }
}

/** Where a singleton (`.../announcement`, `.../moderation`) keeps what was written to it. */
function singletonKey(template: string, params: Record<string, string>): string {
  return `singleton:${collectionKey(template, params)}`;
}

/** Verbs that make a new object of the collection they sit under (`files/create_folder`, `files/{t}/copy`). */
const MAKES = /^(create|copy|duplicate|clone)(_|$)/;

/**
 * `POST .../things/create_x` or `POST .../things/{thing_id}/copy`: a new object of `.../things`, with a new id
 * the answer carries and later requests find; its fields are what the request said (and, for a copy, what the
 * original held).
 */
function createdByAction(
  ctx: RequestCtx,
  found: FoundMethod,
  shape: JsonSchema,
  body: Record<string, unknown>,
): Reply | undefined {
  const { method, params, index } = found;
  const segments = method.path.split("/");
  if (method.httpMethod !== "POST") return undefined;
  const onItem = /^\{(.+)\}$/.exec(segments.at(-2) ?? "")?.[1];
  const base = onItem ? segments.slice(0, -2).join("/") : segments.slice(0, -1).join("/");
  const itemRoute = [...index.templates].find((t) =>
    t.startsWith(`${base}/{`) && !t.slice(base.length + 2).includes("/")
  );
  // A collection without an item route (`whiteboards/{id}/nodes`): its items' id is the answer's field named
  // for them (`node_id`).
  const named = base.split("/").at(-1)!.replace(/ies$/, "y").replace(/s$/, "");
  const idParam = itemRoute
    ? /\{([^}]+)\}$/.exec(itemRoute)![1]
    : Object.keys(shape.properties ?? {}).find((p) => looksId(p) && stemOf(p) === named);
  if (!idParam) return undefined;
  // Besides the verbs that make: a collection action whose answer carries an id of the collection's items
  // that the request did not name (`whiteboards/{id}/nodes/plantuml` -> `node_id`) made that item.
  const answersNewId = () => {
    const slot = objectSlot(shape, idParam);
    const fields = Object.keys((slot ? shape.properties?.[slot] : shape)?.properties ?? {});
    const ids = idFieldsOf(itemSchemaOf(shape, idParam), idParam).filter((f) => fields.includes(f));
    return ids.length > 0 && ids.every((f) => body[f] === undefined);
  };
  if (!MAKES.test(segments.at(-1) ?? "") && (onItem || !answersNewId())) return undefined;
  const collection = collectionKey(base, params);
  const original = onItem ? load(ctx, collection, params[onItem])?.body ?? {} : {};
  const id = suiteId(idParam, `${collection}#${nextCounter(ctx.st.db, "generic_id")}`);
  const itemSchema = itemSchemaOf(shape, idParam);
  const obj = newObject(
    itemSchema,
    idParam,
    id,
    {},
    merge(original, bodyObject(body, objectSlot(shape, idParam))),
  );
  save(ctx, collection, id, obj);
  return respondWithObject(shape, idParam, obj);
}

/** The keywords of a search (`query`, `keyword`, `search_key` in the body or query), lower-cased. */
function searchWords(ctx: RequestCtx, body: Record<string, unknown>): string[] {
  for (const k of ["query", "keyword", "search_key"]) {
    const v = body[k] ?? ctx.query.get(k);
    if (typeof v === "string" && v.trim()) return v.toLowerCase().split(/\s+/).filter(Boolean);
  }
  return [];
}

/** Every string in a stored object, for a search to match against. */
function textOf(v: unknown): string {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.map(textOf).join("\n");
  if (v && typeof v === "object") return Object.values(v).map(textOf).join("\n");
  return "";
}

/**
 * `invalid_user_list`, `invalid_id_list`, `not_existed_id_list`, ...: of the people the request named (its
 * `*_ids` / `id_list` arrays), those the tenant does not have (in the "does not exist" list where the answer
 * has one). Everyone else was found, so nothing more is said.
 */
function unknownPeople(
  ctx: RequestCtx,
  shape: JsonSchema,
  body: Record<string, unknown>,
): Record<string, string[]> {
  const fields = Object.entries(shape.properties ?? {}).filter(([k, p]) =>
    /^(invalid|not_exist(ed)?)_\w*(list|ids)$/.test(k) && p.type === "array" &&
    !Array.isArray(p.items) && p.items?.type === "string"
  ).map(([k]) => k);
  if (!fields.length) return {};
  const named = Object.entries(body).filter(([k, v]) => /(_ids|id_list)$/.test(k) && Array.isArray(v))
    .flatMap(([, v]) => (v as unknown[]).filter((x): x is string => typeof x === "string"));
  const unknown = named.filter((id) =>
    !one(ctx.st.db, "SELECT 1 AS x FROM users WHERE open_id = ? OR user_id = ? OR union_id = ?", id, id, id)
  );
  // Where the answer tells "does not exist" apart from "invalid", the people not found are the former.
  const notExisting = fields.filter((f) => f.startsWith("not_exist"));
  return Object.fromEntries(
    fields.map((f) => [f, !notExisting.length || notExisting.includes(f) ? unknown : []]),
  );
}

/**
 * A download: the bytes stored under a key the path names (a file uploaded earlier). The emulator makes up no
 * file: a path naming none it holds is the service's not-found for its last id.
 */
function download(ctx: RequestCtx, found: FoundMethod): Reply {
  // The file is named in the path (`images/{image_key}`) or, for some downloads, in the query
  // (`vc exports download?file_token=`, `helpdesk ticket_images?ticket_id=&msg_id=`).
  const names = [
    ...Object.entries(found.params),
    ...[...ctx.query.entries()].filter(([k]) => /(^|_)(id|token|key)$/.test(k)),
  ];
  for (const [, value] of names) {
    const bytes = ctx.st.files.read(value);
    if (!bytes) continue;
    const name = one<{ name: string }>(ctx.st.db, "SELECT name FROM blobs WHERE key = ?", value)?.name ??
      value;
    return {
      kind: "raw",
      status: 200,
      body: new Uint8Array(bytes),
      headers: {
        "content-type": "application/octet-stream",
        "content-disposition": `attachment; filename="${encodeURIComponent(name)}"`,
      },
    };
  }
  const [param, id] = names.at(-1) ?? ["", ctx.url.pathname];
  return notFoundOf(found.method.service, param, id);
}
