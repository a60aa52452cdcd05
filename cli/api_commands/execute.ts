/**
 * Runs one API request for a generated command or raw `api`, in a fixed order: flags → inputs (`@file`, `-`)
 * → request built and validated → `--jq` compiled → dry-run (stop) → identity → scope pre-check → risk
 * confirmation → send (JSON, multipart upload, download to `--output`, or `--page-all`) → output.
 */
import { z } from "zod";
import type { Identity } from "../auth/types.ts";
import type { RunContext } from "../context.ts";
import type { ApiRequest } from "../http/client.ts";
import { mergePages, paginate } from "../http/pagination.ts";
import { errors, LarkitError } from "../output/errors.ts";
import { type SuccessEnvelope, successEnvelope, toJsonDocument } from "../output/envelope.ts";
import { createItemWriter, parseFormat, renderDocument } from "../output/formats/render.ts";
import { extractItems } from "../output/formats/rows.ts";
import { resolveOutputPath } from "../local_paths.ts";
import type { Risk } from "../provider.ts";
import { confirmRisk } from "../risk.ts";
import { type FileInput, type InputSource, jsonInput, jsonObjectInput, readFileInput } from "./inputs.ts";
import type { BuiltRequest } from "./request.ts";

/** The flags every API command takes, as commander hands them over. */
export const ApiFlagsSchema = z.object({
  params: z.string().optional(),
  data: z.string().optional(),
  file: z.string().optional(),
  as: z.enum(["user", "bot", "auto"], { message: "--as must be user, bot or auto" }).optional(),
  pageAll: z.boolean().optional(),
  pageSize: z.coerce.number({ message: "--page-size must be a number" }).int().positive().optional(),
  pageLimit: z.coerce.number({ message: "--page-limit must be a number" }).int().nonnegative().default(10),
  output: z.string().optional(),
  dryRun: z.boolean().optional(),
  format: z.string().optional(),
  jq: z.string().optional(),
  yes: z.boolean().optional(),
  idempotencyKey: z.string().min(1, { message: "--idempotency-key must not be empty" }).optional(),
});
export type ApiFlags = z.infer<typeof ApiFlagsSchema>;

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
}

export function parseApiFlags(raw: unknown): ApiFlags {
  const parsed = ApiFlagsSchema.safeParse(raw);
  if (!parsed.success) {
    throw errors.validation(parsed.error.issues[0]?.message ?? "invalid flags", { hint: "see --help" });
  }
  const f = parsed.data;
  const conflicts: [boolean, string][] = [
    [!!f.file && !!f.output, "--file and --output are mutually exclusive"],
    [!!f.file && !!f.pageAll, "--file and --page-all are mutually exclusive"],
    [!!f.output && !!f.pageAll, "--output and --page-all are mutually exclusive"],
    [!!f.jq && !!f.output, "--jq and --output are mutually exclusive"],
    [!!f.jq && !!f.format && f.format !== "json", `--jq and --format ${f.format} are mutually exclusive`],
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

function formOf(body: unknown, file: FileInput): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    form.append(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  form.append(file.field, new Blob([new Uint8Array(file.bytes ?? [])]), file.name);
  return form;
}

/** The identity a real run would use; resolving it is local (no request). Unknown until credentials exist. */
async function dryRunIdentity(ctx: RunContext, call: ApiCall, f: ApiFlags): Promise<string> {
  if (!call.identities.length) return "none";
  try {
    const { resolveIdentity } = await import("../auth/identity.ts");
    return await resolveIdentity(ctx, { flag: f.as, supported: call.identities });
  } catch (e) {
    if (e instanceof LarkitError && (e.type === "config" || e.type === "auth")) return f.as ?? "auto";
    throw e;
  }
}

async function dryRun(ctx: RunContext, call: ApiCall, f: ApiFlags, prep: Prepared): Promise<void> {
  let url: string;
  let appId: string | undefined;
  try {
    url = await ctx.http().url(prep.req.path, prep.req.query);
    appId = (await ctx.credentials().account()).appId;
  } catch {
    // Not configured yet: a dry run still shows the request, relative to the path.
    url = prep.req.path + (Object.keys(prep.req.query).length
      ? "?" + new URLSearchParams(
        Object.entries(prep.req.query).flatMap(([k, v]) =>
          (Array.isArray(v) ? v : [v]).filter((x) => x !== undefined && x !== null).map((x) => [k, String(x)])
        ),
      )
      : "");
  }
  const as = await dryRunIdentity(ctx, call, f);
  const api: Record<string, unknown> = { method: prep.req.method, url };
  if (Object.keys(prep.req.query).length) api.params = prep.req.query;
  if (call.identities.length) api.headers = { Authorization: "Bearer ***" };
  if (prep.file) {
    api.body = { file: { field: prep.file.field, path: prep.file.path }, form_fields: prep.req.body ?? {} };
  } else if (prep.req.body !== undefined) api.body = prep.req.body;
  const data: Record<string, unknown> = { api: [api], as };
  const key = prep.req.idempotencyKey?.value;
  if (key) data.idempotency_key = key;
  if (appId) data.appId = appId;
  if (parseFormat(f.format) === "pretty") {
    const body = api.body === undefined ? "" : `\n  ${JSON.stringify(api.body)}`;
    await ctx.p.stdout.write(`${prep.req.method} ${url}${body}\n`);
    return;
  }
  await ctx.p.stdout.write(
    toJsonDocument(successEnvelope({ data, meta: { dry_run: true, idempotency_key: key } })),
  );
}

async function checkMethodScopes(ctx: RunContext, call: ApiCall, identity: Identity): Promise<void> {
  const { checkScopes, missingScopeHint } = await import("../auth/scopes.ts");
  await checkScopes(ctx, identity, call.requiredScopes);
  if (call.scopes.length === 0 || call.requiredScopes.length) return;
  const granted = await ctx.credentials().grantedScopes(identity);
  // Any one of the listed scopes is enough (they are alternatives, most specific first).
  if (granted === undefined || call.scopes.some((s) => granted.includes(s))) return;
  throw errors.missingScope(`missing required scope for ${identity}: one of ${call.scopes.join(", ")}`, {
    hint: missingScopeHint(identity, [call.scopes[0]], ctx.globals.profile),
    detail: { identity, missing: [call.scopes[0]], required: call.scopes },
  });
}

async function writeResult(ctx: RunContext, f: ApiFlags, envelope: SuccessEnvelope): Promise<void> {
  if (f.jq) {
    const { applyJq } = await import("../output/formats/jq.ts");
    await ctx.p.stdout.write(await applyJq(envelope, f.jq));
    return;
  }
  await ctx.p.stdout.write(
    renderDocument(envelope, parseFormat(f.format), { columns: ctx.p.stdout.columns }),
  );
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
  await ctx.p.stdout.write(toJsonDocument(successEnvelope({ identity: req.identity, data })));
}

async function pageAll(ctx: RunContext, f: ApiFlags, req: ApiRequest): Promise<void> {
  const format = parseFormat(f.format);
  const pagination = paginate(ctx.http(), req, { pageSize: f.pageSize, pageLimit: f.pageLimit });
  const streaming = !f.jq && (format === "ndjson" || format === "table" || format === "csv");
  const writer = streaming
    ? createItemWriter(format as "ndjson" | "table" | "csv", (t) => ctx.p.stdout.write(t), {
      columns: ctx.p.stdout.columns,
    })
    : undefined;
  const kept: unknown[] = [];
  let pages = 0;
  let items = 0;
  for await (const page of pagination.pages) {
    pages = page.number;
    await ctx.diag.progress(`[page ${page.number}] fetched`);
    const list = extractItems(page.data) ?? [];
    items += list.length;
    if (writer) await writer.page(list);
    else kept.push(page.data);
  }
  if (pagination.limitReached()) {
    await ctx.diag.warn(
      `reached the page limit (${f.pageLimit}), stopping; use --page-limit 0 to fetch every page`,
    );
  }
  await ctx.diag.progress(`[pagination] ${writer ? "streamed" : "merged"} ${pages} pages, ${items} items`);
  if (writer) return await writer.end();
  await writeResult(
    ctx,
    f,
    successEnvelope({ identity: req.identity, data: mergePages(kept), meta: { count: items } }),
  );
}

export async function runApiCall(ctx: RunContext, call: ApiCall, rawFlags: unknown): Promise<void> {
  const f = parseApiFlags(rawFlags);
  const prep = await prepare(ctx, call, f);
  const outputPath = f.output === undefined ? undefined : await resolveOutputPath(ctx.p, "output", f.output);
  if (f.jq) await (await import("../output/formats/jq.ts")).checkJq(f.jq);
  if (f.dryRun) return await dryRun(ctx, call, f, prep);

  let identity: Identity | undefined;
  if (call.identities.length) {
    const { resolveIdentity } = await import("../auth/identity.ts");
    identity = await resolveIdentity(ctx, { flag: f.as, supported: call.identities });
    await checkMethodScopes(ctx, call, identity);
  }
  await confirmRisk(ctx, {
    risk: call.risk,
    argv: ctx.argv,
    command: call.command,
    service: call.service,
    yes: !!f.yes,
    summary: { method: prep.req.method, path: prep.req.path, query: prep.req.query, body: prep.req.body },
  });
  const req: ApiRequest = {
    method: prep.req.method,
    path: prep.req.path,
    query: prep.req.query,
    identity,
    idempotent: prep.req.idempotencyKey ? true : undefined,
    idempotencyKey: prep.req.idempotencyKey?.value,
    verify: call.verify?.(prep.params),
  };
  if (prep.file) req.form = formOf(prep.req.body, prep.file);
  else if (prep.req.body !== undefined && prep.req.method !== "GET") req.body = prep.req.body;

  if (outputPath) return await download(ctx, req, outputPath);
  if (f.pageAll) return await pageAll(ctx, f, req);
  const { data } = await ctx.http().call(req);
  const items = extractItems(data);
  const meta = { count: items?.length, idempotency_key: req.idempotencyKey };
  await writeResult(ctx, f, successEnvelope({ identity, data, meta }));
}
