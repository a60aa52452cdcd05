/**
 * Runs one API request for a generated command or raw `api`, in a fixed order: flags -> inputs (`@file`, `-`)
 * -> request built and validated -> `--jq` compiled -> identity -> scope pre-check -> dry-run (stop) -> risk
 * confirmation -> send (JSON, multipart upload, download to `--output`, or `--page-all`) -> output. A dry run
 * takes every step a real run takes up to the request, so it fails wherever the real run would.
 */
import * as z from "zod";
import type { Identity } from "../auth/types.ts";
import type { RunContext } from "../context.ts";
import type { ApiRequest } from "../http/client.ts";
import { apiUrl } from "../http/url.ts";
import { lazy } from "../lazy.ts";
import { dryRunDocument } from "../output/dry_run.ts";
import { emitDryRun, emitItems, emitResult } from "../output/emit.ts";
import { errors, larkitError, toLarkitError } from "../output/errors.ts";
import type * as Rows from "../output/formats/rows.ts";
import { type ItemFormat, parseFormat } from "../output/formats/names.ts";
import type { Risk } from "../provider.ts";
import { type FileInput, type InputSource, jsonInput, jsonObjectInput, readFileInput } from "./inputs.ts";
import type { BuiltRequest } from "./request.ts";

/**
 * The flags every API command takes, as the resolver's parse hands them over: each flag's schema, built when a run first
 * gives the flag. A run gives two or three of these; zod's schemas are slow to build cold, and the whole object
 * cost about 1 ms more of every generated command's dry run (measured in-process, issue 17).
 */
/** Digits only (not `1e1`, `0x10`, ` `), at least `min`; the message names the flag and what it counts. */
function wholeNumber(min: number, message: string) {
  return z.pipe(
    z.pipe(z.string({ error: message }).check(z.regex(/^\d+$/, message)), z.transform(Number)),
    z.number().check(z.minimum(min, message)),
  );
}

const API_FLAGS = {
  params: () => z.optional(z.string()),
  data: () => z.optional(z.string()),
  file: () => z.optional(z.string()),
  as: () => z.optional(z.enum(["user", "bot", "auto"], { message: "--as must be user, bot or auto" })),
  pageAll: () => z.optional(z.boolean()),
  pageSize: () =>
    z.optional(wholeNumber(1, "--page-size must be a whole number of items per page, at least 1")),
  pageLimit: () =>
    z._default(wholeNumber(0, "--page-limit must be a whole number of pages (0 = no limit)"), 10),
  output: () => z.optional(z.string()),
  overwrite: () => z.optional(z.boolean()),
  dryRun: () => z.optional(z.boolean()),
  format: () => z.optional(z.string()),
  columns: () => z.optional(z.string()),
  jq: () => z.optional(z.string()),
  yes: () => z.optional(z.boolean()),
  idempotencyKey: () =>
    z.optional(z.string().check(z.minLength(1, { message: "--idempotency-key must not be empty" }))),
};
type ApiFlagShape = { [K in keyof typeof API_FLAGS]: ReturnType<(typeof API_FLAGS)[K]> };
export type ApiFlags = z.infer<ReturnType<typeof z.object<ApiFlagShape>>>;

/** Each flag's schema once built, kept for the next run in this process (the agent server runs many). */
const built = new Map<keyof ApiFlagShape, ApiFlagShape[keyof ApiFlagShape]>();

function flagSchema(k: keyof ApiFlagShape) {
  let schema = built.get(k);
  if (!schema) built.set(k, schema = API_FLAGS[k]());
  return schema;
}

/** The schema of the flags `raw` gives, in the declared order, and of `--page-limit`, whose default applies. */
function apiFlagsSchema(raw: unknown) {
  const given = (k: string) =>
    k === "pageLimit" || (typeof raw === "object" && raw !== null && Object.hasOwn(raw, k));
  const keys = (Object.keys(API_FLAGS) as (keyof ApiFlagShape)[]).filter(given);
  return z.object(Object.fromEntries(keys.map((k) => [k, flagSchema(k)])) as ApiFlagShape);
}

export interface ApiCall {
  /** The command path, e.g. ["calendar", "events", "list"] or ["api", "GET"]. */
  command: string[];
  service?: string;
  /** Identities the method supports; empty = no access token. */
  identities: Identity[];
  risk: Risk;
  scopes: string[];
  requiredScopes: string[];
  /** The default multipart field for `--file path`. */
  fileField: string;
  build(
    params: Record<string, unknown>,
    data: unknown,
    opts: { pageAll: boolean; idempotencyKey?: string },
  ): BuiltRequest;
  /** For writes the suite cannot de-duplicate: the read command that shows whether a lost write happened. */
  verify?(params: Record<string, unknown>): string | undefined;
  /** The response field holding a list method's items (from its response shape); else found by heuristics. */
  listField?: string;
}

/** The items of one response: the declared list field when it holds an array, else the heuristic's pick. */
function itemsOf(rows: typeof Rows, call: Pick<ApiCall, "listField">, data: unknown): unknown[] | undefined {
  const declared = call.listField && data && typeof data === "object"
    ? (data as Record<string, unknown>)[call.listField]
    : undefined;
  return Array.isArray(declared) ? declared : rows.extractItems(data);
}

const rowsModule = () => lazy("cli/output/formats/rows.ts");

export function parseApiFlags(raw: unknown): ApiFlags {
  const parsed = apiFlagsSchema(raw).safeParse(raw);
  if (!parsed.success) {
    throw errors.validation(parsed.error.issues[0]?.message ?? "invalid flags", { hint: "see --help" });
  }
  const f = parsed.data;
  const conflicts: [boolean, string][] = [
    [!!f.file && !!f.output, "--file and --output are mutually exclusive"],
    [!!f.file && !!f.pageAll, "--file and --page-all are mutually exclusive"],
    [!!f.output && !!f.pageAll, "--output and --page-all are mutually exclusive"],
    [!!f.jq && !!f.output, "--jq and --output are mutually exclusive"],
  ];
  for (const [bad, message] of conflicts) {
    if (bad) throw errors.validation(message, { hint: "drop one of them" });
  }
  parseFormat(f.format);
  return f;
}

interface Prepared {
  req: BuiltRequest;
  params: Record<string, unknown>;
  file?: FileInput;
}

async function prepare(ctx: RunContext, call: ApiCall, f: ApiFlags): Promise<Prepared> {
  const src: InputSource = { p: ctx.p };
  const params = await jsonObjectInput(src, "params", f.params);
  const data = f.file ? await jsonObjectInput(src, "data", f.data) : await jsonInput(src, "data", f.data);
  const file = f.file ? await readFileInput(src, f.file, call.fileField) : undefined;
  if (file && call.command[0] === "api" && !["POST", "PUT", "PATCH", "DELETE"].includes(call.command[1])) {
    throw errors.validation("--file requires POST, PUT, PATCH, or DELETE method");
  }
  const req = call.build(params, file && f.data === undefined ? undefined : data, {
    pageAll: !!f.pageAll,
    idempotencyKey: f.idempotencyKey,
  });
  return { req, params, file };
}

/** `--data`'s fields as form values: strings as they are, anything else as JSON. */
function formFields(body: unknown): Record<string, string> {
  return Object.fromEntries(
    Object.entries((body ?? {}) as Record<string, unknown>).map((
      [k, v],
    ) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
  );
}

function formOf(body: unknown, file: FileInput): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(formFields(body))) form.append(k, v);
  form.append(file.field, new Blob([new Uint8Array(file.bytes ?? [])]), file.name);
  return form;
}

/** The dry-run document of this call: what `--dry-run` prints and what an approver is shown. */
async function planOf(ctx: RunContext, prep: Prepared, identity: Identity | undefined) {
  // The URL without the HTTP client, which a dry run would load only for this (start-up).
  const url = await apiUrl(prep.req.path, async () => (await ctx.credentials().account()).endpoints.open);
  const appId = (await ctx.credentials().account()).appId;
  const body = prep.file
    ? { file: { field: prep.file.field, path: prep.file.path }, form_fields: prep.req.body ?? {} }
    : prep.req.body;
  return dryRunDocument({
    as: identity ?? "none",
    appId,
    api: [{ method: prep.req.method, url, params: prep.req.query, body }],
    idempotencyKey: prep.req.idempotencyKey?.value,
  });
}

async function checkMethodScopes(ctx: RunContext, call: ApiCall, identity: Identity): Promise<void> {
  // Nothing declared, nothing to check (a generated method's usual case): the module stays unloaded.
  if (call.requiredScopes.length === 0 && call.scopes.length === 0) return;
  const { checkScopes, missingScopeHint, scopeFacts } = await lazy("cli/auth/scopes.ts");
  await checkScopes(ctx, identity, call.requiredScopes);
  if (call.scopes.length === 0 || call.requiredScopes.length) return;
  const granted = await ctx.credentials().grantedScopes(identity);
  // Any one of the listed scopes is enough (they are alternatives, most specific first).
  if (granted === undefined || call.scopes.some((s) => granted.includes(s))) return;
  throw errors.missingScope(`missing required scope for ${identity}: one of ${call.scopes.join(", ")}`, {
    hint: missingScopeHint(identity, [call.scopes[0]], ctx.globals.profile),
    ...await scopeFacts(ctx, identity, [call.scopes[0]]),
    detail: { identity, missing: [call.scopes[0]], required: call.scopes },
  });
}

/** The body streamed to disk as it arrives, so a large file is never held in memory. */
async function download(ctx: RunContext, req: ApiRequest, path: string): Promise<void> {
  const res = await ctx.http().raw(req);
  const size = await ctx.p.files.writeStreamAtomic(path, res.body ?? new Blob([]).stream(), { mode: 0o644 });
  const data = {
    saved_path: path,
    size_bytes: size,
    content_type: res.headers.get("content-type") ?? "",
  };
  await emitResult(ctx, { identity: req.identity, format: "json" }, data);
}

/**
 * `--page-all`. Nothing is lost silently: a response without a list is printed as it is (with a warning); a
 * stop at `--page-limit` says so in the result (`meta.truncated`, `meta.page_token`, `has_more` kept) or, for
 * streamed formats, on stderr with the token to resume from; and when a later page fails after items were
 * streamed, the error says how many are on stdout and the token to resume from.
 */
async function pageAll(
  ctx: RunContext,
  call: ApiCall,
  f: ApiFlags,
  req: ApiRequest,
  wrote: boolean,
  params: Record<string, unknown>,
): Promise<void> {
  const format = parseFormat(f.format);
  // The caller's --params with the page to go on from: a resume keeps the container, filters, path ids.
  const resume = (token: string | undefined) =>
    `--params '${JSON.stringify({ ...params, page_token: token })}'`;
  const rows = await rowsModule();
  const fields = rows.parseColumns(f.columns);
  const { mergePages, nextPageToken, paginate, truncationWarning } = await lazy("cli/http/pagination.ts");
  const settings = { identity: req.identity, format, jq: f.jq, wrote, listField: call.listField, fields };
  const pagination = paginate(ctx.http(), req, { pageSize: f.pageSize, pageLimit: f.pageLimit });
  const streaming = !f.jq && (format === "ndjson" || format === "table" || format === "csv");
  const writer = streaming ? await emitItems(ctx, format as ItemFormat, fields) : undefined;
  const kept: unknown[] = [];
  let pages = 0;
  let items = 0;
  /** The token of the page after the last one fetched. */
  let next: string | undefined;
  try {
    for await (const page of pagination.pages) {
      pages = page.number;
      const list = itemsOf(rows, call, page.data);
      if (list === undefined && page.number === 1) {
        await ctx.diag.warn("--page-all: the response holds no list to page through; it is printed as it is");
        return await emitResult(ctx, settings, page.data);
      }
      items += list?.length ?? 0;
      await ctx.diag.status(`[page-all] ${pages} page${pages === 1 ? "" : "s"}, ${items} items so far`);
      if (writer) await writer.page(list ?? []);
      else kept.push(page.data);
      next = nextPageToken(page.data);
    }
  } catch (e) {
    await ctx.diag.status();
    if (!writer || writer.count === 0) throw e;
    // The one failure that leaves data on stdout: say exactly what is there and where to go on from.
    const err = toLarkitError(e);
    const { type: _, subtype, message, ...extra } = err.body;
    throw larkitError(subtype, `${message} (after ${writer.count} items were written to stdout)`, {
      ...extra,
      hint: `stdout holds the first ${writer.count} items; resume from the failed page with ${resume(next)}`,
      detail: { items_written: writer.count, pages_fetched: pages, page_token: next, cause: extra.detail },
    });
  }
  await ctx.diag.status();
  const truncated = pagination.limitReached();
  await ctx.diag.progress(`[pagination] ${writer ? "streamed" : "merged"} ${pages} pages, ${items} items`);
  // The last stderr line, where a script reading a streamed format looks for it.
  if (truncated && next) {
    await ctx.diag.warn(truncationWarning(
      { pageLimit: f.pageLimit, pagesFetched: pages, pageToken: next },
      `resume with ${resume(next)}, or --page-limit 0 to fetch every page`,
    ));
  }
  if (writer) return await writer.end();
  const merged = mergePages(kept);
  if (truncated && merged && typeof merged === "object") {
    Object.assign(merged, { has_more: true, page_token: next });
  }
  await emitResult(ctx, settings, merged, {
    count: items,
    ...(truncated ? { truncated: true, page_token: next } : {}),
  });
}

export async function runApiCall(ctx: RunContext, call: ApiCall, rawFlags: unknown): Promise<void> {
  const f = parseApiFlags(rawFlags);
  // Its default is always there; only a --page-limit the caller typed is worth a word.
  if (!f.pageAll && ctx.argv.some((a) => a === "--page-limit" || a.startsWith("--page-limit="))) {
    await ctx.diag.warn("--page-limit applies only with --page-all; one page is fetched");
  }
  const prep = await prepare(ctx, call, f);
  const outputPath = f.output === undefined
    ? undefined
    : await (await lazy("cli/local_paths.ts")).resolveOutputPath(
      ctx.p,
      "output",
      f.output,
    );
  // Checked before anything is sent, as `drive +download` does: an existing file is replaced only on request.
  if (outputPath && !f.overwrite && await ctx.p.files.stat(outputPath)) {
    throw errors.validation(`--output: ${f.output} already exists`, {
      hint: "add --overwrite to replace it",
    });
  }
  if (f.jq) await (await lazy("cli/output/formats/jq.ts")).checkJq(f.jq);

  let identity: Identity | undefined;
  if (call.identities.length) {
    const { resolveIdentity } = await import("../auth/identity.ts");
    identity = await resolveIdentity(ctx, { flag: f.as, supported: call.identities });
    await checkMethodScopes(ctx, call, identity);
  }
  const plan = await planOf(ctx, prep, identity);
  if (f.dryRun) return await emitDryRun(ctx, plan, { format: parseFormat(f.format), jq: f.jq });
  await (await lazy("cli/risk.ts")).confirmRisk(ctx, {
    risk: call.risk,
    argv: ctx.argv,
    command: call.command,
    service: call.service,
    yes: !!f.yes,
    summary: plan,
  });
  const key = prep.req.idempotencyKey;
  const req: ApiRequest = {
    method: prep.req.method,
    path: prep.req.path,
    query: prep.req.query,
    identity,
    // The registry's risk says what the method does: a read spelt as POST is repeated like any read.
    idempotent: call.risk === "read" ? true : undefined,
    idempotency: key ? { field: key.field, in: key.location, key: key.value } : undefined,
    verify: call.verify?.(prep.params),
  };
  const file = prep.file;
  if (file?.full !== undefined) {
    // From disk: streamed as multipart, never read whole.
    req.upload = {
      fields: formFields(prep.req.body),
      field: file.field,
      name: file.name,
      path: file.full,
      size: file.size ?? 0,
    };
  } else if (file) req.form = formOf(prep.req.body, file);
  else if (prep.req.body !== undefined && prep.req.method !== "GET") req.body = prep.req.body;

  const wrote = call.risk !== "read";
  if (outputPath) return await download(ctx, req, outputPath);
  if (f.pageAll) return await pageAll(ctx, call, f, req, wrote, prep.params);
  const { data } = await ctx.http().call(req);
  const rows = await rowsModule();
  const items = itemsOf(rows, call, data);
  const meta = { count: items?.length, idempotency_key: key?.value };
  await emitResult(
    ctx,
    {
      identity,
      format: parseFormat(f.format),
      jq: f.jq,
      wrote,
      listField: call.listField,
      fields: rows.parseColumns(f.columns),
    },
    data,
    meta,
  );
}
