/**
 * The shortcut pipeline: ONE function running the fixed steps in the seed's order. The order is the contract
 * (an identity is known before scopes are checked, scopes are checked before anything is sent, a dry-run
 * stops before risk and execute), so it lives here and nowhere else, and `pipeline_test.ts` fails if two
 * steps swap.
 *
 *   1. resolve the identity, honouring strict mode        5. resolve input flags (@file, stdin, JSON, types)
 *   2. load the config (the account)                      6. plan: run the shortcut with nothing sent;
 *   3. check the identity's scopes locally                   --dry-run prints the plan and stops
 *   4. output settings (--format, --jq checked)           7. confirm the risk (shown the plan), then execute
 *
 * The shortcut's context is built here and is the only way a shortcut acts: the same `run` is given a
 * planning context (calls answer with their `planned` stand-ins, results are dropped) and then an executing
 * one (calls go through the one HTTP client, the result goes through `cli/output`).
 */
import * as z from "zod";
import { resolveIdentity } from "../cli/auth/identity.ts";
import { checkScopes } from "../cli/auth/scopes.ts";
import type { Account, Identity } from "../cli/auth/types.ts";
import type { RunContext } from "../cli/context.ts";
import type { ApiRequest, FileUpload } from "../cli/http/client.ts";
import { lazy } from "../cli/lazy.ts";
import { apiUrl } from "../cli/http/url.ts";
import type { Truncation } from "../cli/http/pagination.ts";
import { type DryRunDocument, dryRunDocument, type PlannedRequest } from "../cli/output/dry_run.ts";
import { emitDryRun, emitResult } from "../cli/output/emit.ts";
import type { Meta } from "../cli/output/envelope.ts";
import { errors, LarkitError } from "../cli/output/errors.ts";
import { type OutputFormat, parseFormat } from "../cli/output/formats/names.ts";
import { type Column, parseColumns } from "../cli/output/formats/rows.ts";
import { parseResponse } from "./common/response.ts";
import { timeZoneOf } from "./common/time.ts";
import type { Call, Dedup, FlagSpecs, FlagValues, Shortcut, ShortcutContext, UploadCall } from "./declare.ts";
import { localPaths } from "../cli/input_limits.ts";
import { type RawFlagValue, resolveFlags } from "./inputs.ts";
import { takesFormat } from "./command_flags.ts";

/** What the command line gave: the automatic flags, and the shortcut's own flags by name. */
export interface Invocation {
  as?: string;
  dryRun: boolean;
  yes: boolean;
  format?: string;
  /** `--columns a,b.c` (shortcuts that take `--format`). */
  columns?: string;
  jq?: string;
  /** `--idempotency-key` (shortcuts with `idempotencyKey`). */
  idempotencyKey?: string;
  flags: Record<string, RawFlagValue>;
}

const AsFlag = z.enum(["user", "bot", "auto"]);

function parseAs(raw: string | undefined) {
  if (raw === undefined) return undefined;
  const parsed = AsFlag.safeParse(raw);
  if (!parsed.success) {
    throw errors.validation(`invalid value "${raw}" for --as`, {
      hint: "use --as user, --as bot or --as auto",
    });
  }
  return parsed.data;
}

/** Step 4: the output settings, checked before any input is read. */
async function outputSettings(shortcut: Shortcut<FlagSpecs>, inv: Invocation): Promise<OutputFormat> {
  // With --jq and table/csv/ndjson the filter runs first and its results are rendered (emitResult).
  const format = takesFormat(shortcut) ? parseFormat(inv.format) : "json";
  if (inv.jq !== undefined) await (await lazy("cli/output/formats/jq.ts")).checkJq(inv.jq);
  return format;
}

/** Everything resolved by steps 1-5: what both passes of the shortcut share. */
interface Resolved<F extends FlagSpecs> {
  run: RunContext;
  shortcut: Shortcut<F>;
  identity: Identity;
  account: Account;
  flags: FlagValues<F>;
  format: OutputFormat;
  /** Table/csv columns: `--columns`, else (without --jq, which reshapes the items) the declared ones. */
  fields?: Column[];
  jq?: string;
  /** The key of this invocation's de-duplicated writes. */
  key: string;
}

/** Placeholders such as `<event_id>` stand for values only known at run time; show them unescaped. */
const showPlaceholders = (url: string) => url.replace(/%3C([a-z_]+)%3E/gi, "<$1>");

/** The request with the run's key set in its de-duplication field, as it will be sent. */
function withKey(dedup: Dedup | undefined, key: string, params: Call<unknown>["params"], body: unknown) {
  if (!dedup) return { params, body };
  if (dedup.in === "query") return { params: { ...params, [dedup.field]: key }, body };
  return { params, body: { ...(body as Record<string, unknown> | undefined), [dedup.field]: key } };
}

/** The parts of the context that act the same in both passes: local checks, clock, zone, flags. */
function sharedContext<F extends FlagSpecs>(r: Resolved<F>, sends: boolean) {
  const { p } = r.run;
  /**
   * The person behind the run: the logged-in user, else the user a given user token belongs to (asked of the
   * suite, as the reference does; the plan sends nothing and shows a placeholder).
   */
  async function requesterOpenId(): Promise<string | undefined> {
    if (r.account.user?.openId) return r.account.user.openId;
    if (!(await r.run.credentials().identities()).includes("user")) return undefined;
    if (!sends) return "<user open_id>";
    try {
      const { data } = await r.run.http().call<{ open_id?: string }>({
        method: "GET",
        path: "/open-apis/authen/v1/user_info",
        identity: "user",
      });
      return data?.open_id || undefined;
    } catch (e) {
      if (e instanceof LarkitError && e.type === "interrupted") throw e;
      return undefined;
    }
  }
  async function localFile(flag: string, path: string, opts: { maxBytes?: number } = {}) {
    const full = await (await localPaths()).resolveLocalFile(p, flag, path);
    const size = (await p.files.stat(full))?.size ?? 0;
    if (opts.maxBytes !== undefined && size > opts.maxBytes) {
      throw errors.validation(
        `--${flag}: ${path} is larger than the ${opts.maxBytes / 1024 / 1024} MB limit`,
      );
    }
    return { full, size, name: path.split(/[\\/]/).pop() ?? path };
  }
  /** `--output` given: inside the working directory, and not replacing a file without `overwrite`. */
  async function chosenOutput(output: string | undefined, overwrite: boolean) {
    if (output === undefined) return undefined;
    const path = await (await localPaths()).resolveOutputPath(p, "output", output);
    if (!overwrite && await p.files.stat(path)) {
      throw errors.validation(`--output: ${output} already exists`, {
        hint: "add --overwrite to replace it",
      });
    }
    return path;
  }
  async function localText(flag: string, path: string, opts: { maxBytes: number }) {
    const { full } = await localFile(flag, path, opts);
    return utf8(await p.files.readFile(full), `--${flag}: ${path}`);
  }
  return {
    base: {
      flags: r.flags,
      identity: r.identity,
      userOpenId: r.identity === "user" ? r.account.user?.openId : undefined,
      requesterOpenId,
      timeZone: timeZoneOf(p.env),
      now: () => p.clock.now(),
      sleep: (ms: number) => p.clock.sleep(ms),
      localFile: async (flag: string, path: string, opts?: { maxBytes?: number }) => {
        const { size, name } = await localFile(flag, path, opts);
        return { size, name };
      },
      localText,
    },
    localFile,
    chosenOutput,
  };
}

/** Text the shortcut edits or compares: bytes that are not UTF-8 are refused rather than mangled. */
function utf8(bytes: Uint8Array, what: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw errors.validation(`${what} is not UTF-8 text`);
  }
}

/** A response body read into memory, refused (and the rest cancelled) past `maxBytes`. */
async function boundedBody(res: Response, maxBytes: number, what: string): Promise<Uint8Array> {
  const tooLarge = () =>
    errors.validation(`${what}: the file is larger than ${maxBytes} bytes`, {
      hint: "download it with +fetch instead",
    });
  if (Number(res.headers.get("content-length") ?? 0) > maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = (res.body ?? new Blob([]).stream()).getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    size += r.value.length;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(r.value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The suite keeps a `uuid` of at most 50 characters (IM, cards); longer keys are refused before sending. */
const MAX_UUID = 50;

/**
 * Refuses what a shortcut must not declare -- a keyed write without `--idempotency-key`, one key twice -- and
 * a key the suite would refuse.
 */
function keyGuard<F extends FlagSpecs>(shortcut: Shortcut<F>, key: string) {
  const keyed = new Set<string>();
  return (method: string, path: string, dedup: Dedup | undefined) => {
    if (!dedup) return;
    if (dedup.field === "uuid" && key.length > MAX_UUID) {
      throw errors.validation(`--idempotency-key is at most ${MAX_UUID} characters for this command`);
    }
    const name = `${shortcut.service} ${shortcut.command}`;
    if (!shortcut.idempotencyKey) {
      throw errors.internal(
        `${name}: ${method} ${path} declares dedup but the shortcut has no idempotencyKey`,
      );
    }
    if (keyed.has(`${method} ${path}`)) {
      throw errors.internal(`${name}: two ${method} ${path} writes would share one de-duplication key`);
    }
    keyed.add(`${method} ${path}`);
  };
}

/** Step 6: the shortcut run with nothing sent, its calls collected into the dry-run document. */
async function plan<F extends FlagSpecs>(r: Resolved<F>): Promise<DryRunDocument> {
  // The URLs without the HTTP client, which nothing here sends through (start-up), on the account step 2 read.
  const openBase = () => Promise.resolve(r.account.endpoints.open);
  const requests: PlannedRequest[] = [];
  const facts: Record<string, unknown> = {};
  let keyed = false;
  const guard = keyGuard(r.shortcut, r.key);
  const shared = sharedContext(r, false);
  async function record(
    req: { method: string; path: string; params?: Call<unknown>["params"]; body?: unknown },
    extra: { dedup?: Dedup; description?: string },
  ) {
    guard(req.method, req.path, extra.dedup);
    if (extra.dedup) keyed = true;
    const { params, body } = withKey(extra.dedup, r.key, req.params, req.body);
    requests.push({
      method: req.method,
      url: showPlaceholders(await apiUrl(req.path, openBase)),
      params,
      body,
      description: extra.description,
    });
  }
  const ctx: ShortcutContext<F> = {
    ...shared.base,
    api: async (call) => {
      await record(call, call);
      return call.planned;
    },
    paginate: async (call) => {
      await record(call, call);
      return [call.planned];
    },
    upload: async (call) => {
      await shared.localFile(call.file.flag, call.file.path, { maxBytes: call.file.maxBytes });
      const body = { ...call.fields, [call.file.field]: `@${call.file.path}` };
      await record({ method: "POST", path: call.path, body }, call);
      return call.planned;
    },
    uploadBytes: async (call) => {
      const body = { ...call.fields, [call.file.field]: `<the edited text as ${call.file.name}>` };
      await record({ method: "POST", path: call.path, body }, call);
      return call.planned;
    },
    download: async (call) => {
      await shared.chosenOutput(call.output, call.overwrite);
      await record({ method: "GET", path: call.path, params: call.params }, call);
      return { saved_path: call.output ?? "<file name from the response>", size_bytes: 0 };
    },
    fetchText: async (call) => {
      await record({ method: "GET", path: call.path, params: call.params }, call);
      return undefined;
    },
    mcp: async (call) => {
      const { plannedToolCall } = await lazy("cli/http/mcp.ts");
      requests.push(plannedToolCall(r.account.endpoints.mcp, call.tool, call.args));
      facts.mcp_tool = call.tool;
      return call.planned;
    },
    inlineFile: async (flag, path, opts) => {
      await shared.localFile(flag, path, opts);
      return `<base64url of ${path}>`;
    },
    note: (more) => Object.assign(facts, more),
    progress: () => Promise.resolve(),
    status: () => Promise.resolve(),
    out: () => Promise.resolve(),
    outFormat: () => Promise.resolve(),
    delegate: (argv) => {
      refuseRenderedFormat(r);
      facts.runs = ["larkit", ...argv].join(" ");
      return Promise.resolve();
    },
  };
  await r.shortcut.run(ctx);
  return dryRunDocument({
    as: r.identity,
    appId: r.account.appId,
    api: requests,
    idempotencyKey: keyed ? r.key : undefined,
    facts,
  });
}

/**
 * A delegated run streams the other command's NDJSON (`event +subscribe` -> `event consume`): a format that
 * renders one finished result (pretty, table, csv) has nothing to render, so it is refused rather than ignored.
 */
function refuseRenderedFormat<F extends FlagSpecs>(r: Resolved<F>): void {
  if (r.format === "json" || r.format === "ndjson") return;
  throw errors.validation(
    `${r.shortcut.service} ${r.shortcut.command} streams NDJSON; --format ${r.format} is not supported`,
    { hint: "leave --format out (or --format ndjson) and pick fields with --jq" },
  );
}

/** Step 7: the shortcut run for real, through the one HTTP client, its result through `cli/output`. */
async function execute<F extends FlagSpecs>(r: Resolved<F>): Promise<void> {
  const { run, shortcut, identity } = r;
  const { p } = run;
  const http = run.http();
  const shared = sharedContext(r, true);
  const guard = keyGuard(shortcut, r.key);
  let keySent = false;
  let results = 0;
  /** The last `paginate` that stopped at its limit with more to fetch: the result says so. */
  let truncation: Truncation | undefined;
  const what = (method: string, path: string) => `${method} ${path}`;

  function request(
    call: Omit<Call<unknown>, "response" | "planned"> & { form?: FormData; upload?: FileUpload },
  ): ApiRequest {
    guard(call.method, call.path, call.dedup);
    if (call.dedup) keySent = true;
    return {
      method: call.method,
      path: call.path,
      query: call.params,
      body: call.body,
      form: call.form,
      upload: call.upload,
      identity,
      idempotency: call.dedup ? { ...call.dedup, key: r.key } : undefined,
      // Write-ness comes from what the call does, never from its HTTP verb: a read is repeated freely.
      idempotent: call.repeatable || call.read || shortcut.risk === "read" ? true : undefined,
      identities: shortcut.authTypes,
    };
  }
  async function emit(
    data: unknown,
    meta: Meta | undefined,
    format: OutputFormat,
    pretty?: Parameters<ShortcutContext<F>["outFormat"]>[2],
    rows?: Parameters<ShortcutContext<F>["outFormat"]>[3],
  ) {
    if (++results > 1) throw errors.internal(`${shortcut.service} ${shortcut.command} wrote two results`);
    let withKeyMeta = keySent ? { ...meta, idempotency_key: r.key } : meta;
    if (truncation) {
      // The token resumes only a list the command pages with --page-token; an internal scan's is no handle.
      const resumable = "page-token" in shortcut.flags;
      withKeyMeta = {
        ...withKeyMeta,
        truncated: true,
        ...(resumable ? { page_token: truncation.pageToken } : {}),
      };
      const { truncationWarning } = await lazy("cli/http/pagination.ts");
      await run.diag.warn(truncationWarning(
        truncation,
        resumable
          ? `resume with --page-token ${truncation.pageToken}, or --page-limit 0 to fetch every page`
          : `this command reads at most ${truncation.pageLimit} pages, so its result may be incomplete`,
      ));
    }
    await emitResult(
      run,
      { identity, format, jq: r.jq, wrote: shortcut.risk !== "read", fields: r.fields, rows },
      data,
      withKeyMeta,
      pretty,
    );
  }
  /** The file (or a chunked upload's block of it) streamed from disk as multipart: never read whole. */
  async function uploadOf<T>(call: UploadCall<T>): Promise<FileUpload> {
    const { full, name, size } = await shared.localFile(call.file.flag, call.file.path, {
      maxBytes: call.file.maxBytes,
    });
    return {
      fields: call.fields,
      field: call.file.field,
      name: call.file.name ?? name,
      path: full,
      size,
      range: call.file.range,
    };
  }

  const ctx: ShortcutContext<F> = {
    ...shared.base,
    api: async (call) => {
      const { data } = await http.call(request(call));
      return parseResponse(call.response, data, what(call.method, call.path));
    },
    paginate: async (call, opts) => {
      const { nextPageToken } = await lazy("cli/http/pagination.ts");
      const pages = [];
      let token: string | undefined;
      do {
        const page = !token
          ? call
          : opts.tokenIn === "body"
          ? { ...call, body: { ...(call.body as Record<string, unknown> | undefined), page_token: token } }
          : { ...call, params: { ...call.params, page_token: token } };
        const { data } = await http.call(request(page));
        pages.push(parseResponse(call.response, data, what(call.method, call.path)));
        token = nextPageToken(data);
      } while (token && (opts.maxPages === 0 || pages.length < opts.maxPages));
      if (token) truncation = { pageLimit: opts.maxPages, pagesFetched: pages.length, pageToken: token };
      return pages;
    },
    upload: async (call) => {
      const upload = await uploadOf(call);
      const { data } = await http.call(request({ ...call, method: "POST", upload }));
      return parseResponse(call.response, data, what("POST", call.path));
    },
    uploadBytes: async (call) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(call.fields)) form.append(k, v);
      form.append(call.file.field, new Blob([call.file.bytes as Uint8Array<ArrayBuffer>]), call.file.name);
      const { data } = await http.call(request({ ...call, method: "POST", form }));
      return parseResponse(call.response, data, what("POST", call.path));
    },
    download: async (call) => {
      const chosen = await shared.chosenOutput(call.output, call.overwrite);
      const res = await http.raw(request({ method: "GET", path: call.path, params: call.params }));
      let path: string;
      try {
        const name = call.nameOf?.(res.headers) ?? call.fallbackName;
        path = chosen ?? await (await localPaths()).resolveOutputPath(p, "output", name);
        if (!chosen && !call.overwrite && await p.files.stat(path)) {
          throw errors.validation(`${name} already exists in the current directory`, {
            hint: "add --overwrite to replace it, or choose another --output",
          });
        }
      } catch (e) {
        await res.body?.cancel();
        throw e;
      }
      const size = await p.files.writeStreamAtomic(path, res.body ?? new Blob([]).stream(), { mode: 0o644 });
      // `node:path` loads here, for a download only: importing it up front cost every shortcut's run (start-up).
      const { relative } = await import("node:path");
      return {
        saved_path: relative(await p.files.realPath(p.cwd), path),
        size_bytes: size,
        content_type: res.headers.get("content-type") ?? undefined,
      };
    },
    fetchText: async (call) => {
      const res = await http.raw(request({ method: "GET", path: call.path, params: call.params }));
      const where = what("GET", call.path);
      return utf8(await boundedBody(res, call.maxBytes, where), where);
    },
    mcp: async (call) => {
      const { callMcpTool } = await lazy("cli/http/mcp.ts");
      const value = await callMcpTool(
        { p, http, credentials: run.credentials(), diag: run.diag },
        {
          tool: call.tool,
          arguments: call.args,
          identity,
          idempotent: !call.write,
          timeoutSeconds: call.timeout,
          verify: call.verify,
        },
      );
      return parseResponse(call.response, value, `MCP ${call.tool}`);
    },
    inlineFile: async (flag, path, opts) => {
      const { full } = await shared.localFile(flag, path, opts);
      return (await p.files.readFile(full)).toBase64({ alphabet: "base64url" });
    },
    note: () => {},
    progress: (message) => run.diag.progress(message),
    status: (message) => run.diag.status(message),
    out: (data, meta) => emit(data, meta, "json"),
    outFormat: (data, meta, pretty, rows) => emit(data, meta, r.format, pretty, rows),
    delegate: async (argv) => {
      if (++results > 1) throw errors.internal(`${shortcut.service} ${shortcut.command} wrote two results`);
      refuseRenderedFormat(r);
      // The delegate writes its own output and error envelope; only its exit status is carried over.
      const profile = run.globals.profile ? ["--profile", run.globals.profile] : [];
      const jq = r.jq !== undefined ? ["--jq", r.jq] : [];
      const code = await run.hooks.run([...profile, ...argv, ...jq], p);
      if (code !== 0) run.state.exitCode = code;
    },
  };
  await shortcut.run(ctx);
  if (results === 0) throw errors.internal(`${shortcut.service} ${shortcut.command} wrote no result`);
}

/** Runs one shortcut invocation through the seven steps. */
export async function runShortcut<F extends FlagSpecs>(
  run: RunContext,
  shortcut: Shortcut<F>,
  inv: Invocation,
): Promise<void> {
  const command = [shortcut.service, shortcut.command];
  // 1. identity, honouring strict mode
  const identity = await resolveIdentity(run, {
    flag: parseAs(inv.as),
    supported: shortcut.authTypes,
    // The reference's guard for calendar shortcuts: without --as, a bot's calendar is never what was meant.
    userByDefault: shortcut.service === "calendar" ? "calendar" : undefined,
  });
  // 2. config
  const account = await run.credentials().account();
  // 3. local scope check, before any request
  await checkScopes(run, identity, shortcut.scopes[identity] ?? [], shortcut.authTypes);
  // 4. output settings
  const format = await outputSettings(shortcut as unknown as Shortcut<FlagSpecs>, inv);
  // 5. input flags
  const flags = await resolveFlags(run.p, shortcut.flags, inv.flags, `larkit ${command.join(" ")} --help`);
  for (const [name, spec] of Object.entries(shortcut.flags)) {
    if (spec.deprecated && inv.flags[name] !== undefined) {
      await run.diag.warn(`--${name} is deprecated and will be removed: use ${spec.deprecated}`);
    }
  }
  if (inv.idempotencyKey === "") throw errors.validation("--idempotency-key must not be empty");
  const resolved: Resolved<F> = {
    run,
    shortcut,
    identity,
    account,
    flags,
    format,
    fields: parseColumns(inv.columns) ?? (inv.jq === undefined ? shortcut.columns : undefined),
    jq: inv.jq,
    key: inv.idempotencyKey ?? run.p.random.uuid(),
  };
  // 6. the plan: every check of the shortcut runs, nothing is sent
  const document = await plan(resolved);
  if (inv.dryRun) {
    await emitDryRun(run, document, { format, jq: inv.jq });
    return;
  }
  // 7. risk confirmation, then execute
  if (shortcut.risk !== "read") {
    await (await lazy("cli/risk.ts")).confirmRisk(run, {
      risk: shortcut.risk,
      argv: run.argv,
      command,
      service: shortcut.service,
      yes: inv.yes,
      summary: document,
    });
  }
  await execute(resolved);
}
