/**
 * The one HTTP client of larkit. Every layer (shortcuts, generated commands, raw `api`, auth flows, MCP) sends
 * through `send`, so retries, logging, redaction and error mapping happen in one place.
 */
import type { CredentialChain, Identity } from "../auth/types.ts";
import type { Diagnostics } from "../output/diagnostics.ts";
import { errors, LarkitError } from "../output/errors.ts";
import type { Provider } from "../provider.ts";
import { suiteError } from "./suite_errors.ts";

export type QueryValue = string | number | boolean | (string | number | boolean)[] | undefined | null;
export type Query = Record<string, QueryValue>;

export interface ApiRequest {
  method: string;
  /** `/open-apis/...` path, already filled. */
  path: string;
  query?: Query;
  /** JSON body (serialised here) or a prepared multipart form. */
  body?: unknown;
  form?: FormData;
  /** Omit for unauthenticated calls. */
  identity?: Identity;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ApiResult<T = unknown> {
  data: T;
  status: number;
  logId?: string;
  headers: Headers;
}

export interface SendOptions {
  signal?: AbortSignal;
  /** Shown in debug logs instead of the URL's secrets. */
  label?: string;
}

export interface HttpClient {
  /** Low level: one request, transport errors mapped to `network`/`timeout`. */
  send(url: string, init: RequestInit, opts?: SendOptions): Promise<Response>;
  /** An OpenAPI call returning the parsed `{code, msg, data}`'s `data`; a non-zero code is an error value. */
  call<T = unknown>(req: ApiRequest): Promise<ApiResult<T>>;
  /** An OpenAPI call whose body is returned as is (downloads); suite JSON errors still become error values. */
  raw(req: ApiRequest): Promise<Response>;
  /** Builds the absolute URL of an OpenAPI request (also used by dry-run). */
  url(path: string, query?: Query): Promise<string>;
}

export interface HttpClientDeps {
  p: Provider;
  credentials: CredentialChain;
  diag: Diagnostics;
}

export function appendQuery(url: URL, query: Query = {}): URL {
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(item));
  }
  return url;
}

export function logIdOf(res: Response, body?: unknown): string | undefined {
  const fromHeader = res.headers.get("x-tt-logid") ?? undefined;
  const fromBody = (body as { error?: { log_id?: string } } | undefined)?.error?.log_id;
  return fromHeader ?? fromBody;
}

interface SuiteBody {
  code?: number;
  msg?: string;
  data?: unknown;
  error?: unknown;
}

async function parseSuiteBody(res: Response, logId: string | undefined): Promise<SuiteBody> {
  const text = await res.text();
  if (!text.trim()) {
    throw errors.api(`HTTP ${res.status}: the suite returned an empty body`, {
      code: res.status,
      log_id: logId,
      hint: "if the endpoint returns a file, rerun with --output <path>",
    });
  }
  try {
    return JSON.parse(text) as SuiteBody;
  } catch {
    const type = res.status >= 500 ? "network" : "api_error";
    throw new LarkitError({
      type,
      message: `HTTP ${res.status}: the suite returned a non-JSON body: ${text.slice(0, 300)}`,
      code: res.status,
      log_id: logId,
    });
  }
}

export function createHttpClient(deps: HttpClientDeps): HttpClient {
  const { p, credentials, diag } = deps;

  async function url(path: string, query?: Query): Promise<string> {
    if (!path.startsWith("/open-apis/")) {
      throw errors.validation(`API paths start with /open-apis/: ${path}`, {
        hint: "e.g. /open-apis/calendar/v4/calendars",
      });
    }
    const account = await credentials.account();
    return appendQuery(new URL(path, account.endpoints.open), query).toString();
  }

  async function send(target: string, init: RequestInit, opts: SendOptions = {}): Promise<Response> {
    const signal = opts.signal ?? p.signal;
    const started = p.clock.now();
    await diag.debug(`→ ${init.method ?? "GET"} ${opts.label ?? target}`);
    let res: Response;
    try {
      res = await p.fetch(target, { ...init, signal });
    } catch (e) {
      if (signal.aborted || e instanceof LarkitError) throw e;
      const message = e instanceof Error ? e.message : String(e);
      throw errors.network(
        `request failed: ${init.method ?? "GET"} ${new URL(target).pathname}: ${message}`,
        {
          hint: "check the network and the configured brand / base URL (larkit config show)",
        },
      );
    }
    await diag.debug(
      `← ${res.status} in ${p.clock.now() - started} ms (log_id ${res.headers.get("x-tt-logid") ?? "-"})`,
    );
    return res;
  }

  async function build(req: ApiRequest): Promise<{ target: string; init: RequestInit }> {
    const target = await url(req.path, req.query);
    const headers = new Headers(req.headers);
    headers.set("User-Agent", `larkit/${p.version}`);
    if (req.identity) {
      const token = await credentials.token(req.identity, req.signal ?? p.signal);
      headers.set("Authorization", `Bearer ${token.token}`);
    }
    let body: BodyInit | undefined;
    if (req.form) body = req.form;
    else if (req.body !== undefined) {
      headers.set("Content-Type", "application/json; charset=utf-8");
      body = JSON.stringify(req.body);
    }
    return { target, init: { method: req.method.toUpperCase(), headers, body } };
  }

  async function checked(res: Response): Promise<Response> {
    const type = res.headers.get("content-type") ?? "";
    if (res.ok && !type.includes("application/json")) return res;
    if (!type.includes("application/json")) {
      const text = await res.text();
      throw new LarkitError({
        type: res.status >= 500 ? "network" : "api_error",
        message: `HTTP ${res.status}: ${text.slice(0, 300)}`,
        code: res.status,
        log_id: logIdOf(res),
      });
    }
    return res;
  }

  async function call<T>(req: ApiRequest): Promise<ApiResult<T>> {
    const { target, init } = await build(req);
    const res = await checked(await send(target, init, { signal: req.signal, label: req.path }));
    const logId = logIdOf(res);
    const body = await parseSuiteBody(res, logId);
    if ((body.code ?? 0) !== 0 || res.status >= 400) {
      throw suiteError({
        code: body.code ?? res.status,
        msg: body.msg ?? res.statusText,
        status: res.status,
        logId: logIdOf(res, body),
        error: body.error,
        identity: req.identity,
      });
    }
    return { data: body.data as T, status: res.status, logId, headers: res.headers };
  }

  async function raw(req: ApiRequest): Promise<Response> {
    const { target, init } = await build(req);
    const res = await checked(await send(target, init, { signal: req.signal, label: req.path }));
    const type = res.headers.get("content-type") ?? "";
    if (!type.includes("application/json")) return res;
    const body = await parseSuiteBody(res.clone(), logIdOf(res));
    if ((body.code ?? 0) !== 0 || res.status >= 400) {
      throw suiteError({
        code: body.code ?? res.status,
        msg: body.msg ?? res.statusText,
        status: res.status,
        logId: logIdOf(res, body),
        error: body.error,
        identity: req.identity,
      });
    }
    return res;
  }

  return { send, call, raw, url };
}
