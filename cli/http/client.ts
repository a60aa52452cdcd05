/**
 * The one HTTP client of larkit. Every layer (shortcuts, generated commands, raw `api`, auth flows, MCP) sends
 * through it, so retries (`retry.ts`), timeouts, `--debug` logging with redaction, `log_id` capture and suite
 * error mapping (`suite_errors.ts`) happen in one place.
 */
import type { CredentialChain, Identity } from "../auth/types.ts";
import { type Diagnostics, redact, transferText } from "../output/diagnostics.ts";
import type { Query } from "../output/dry_run.ts";
import { errors, interruptedWith, LarkitError } from "../output/errors.ts";
import type { Provider } from "../provider.ts";
import { decideRetry, DEFAULT_RETRY, isIdempotentMethod, type RetryPolicy, wasSent } from "./retry.ts";
import { isRejectedToken, suiteError } from "./suite_errors.ts";
import { apiUrl } from "./url.ts";

export type { Query, QueryValue } from "../output/dry_run.ts";

/**
 * The de-duplication key of a write: the field the suite de-duplicates on, where it goes, and its value. The
 * client puts it into the request itself, so a write that declares a key always sends it, every retry
 * reuses it, and a lost response names it with the command that re-runs the write safely.
 */
export interface IdempotencyKey {
  field: string;
  in: "body" | "query";
  key: string;
}

/** A file sent from disk as multipart/form-data, streamed (constant memory, whatever its size). */
export interface FileUpload {
  /** The other form fields, sent before the file. */
  fields: Record<string, string>;
  field: string;
  name: string;
  /** Absolute path. */
  path: string;
  size: number;
  /** The bytes `[start, end)` of the file (a chunked upload's block); the whole file when absent. */
  range?: [number, number];
}

export interface ApiRequest {
  method: string;
  /** `/open-apis/...` path, already filled. */
  path: string;
  query?: Query;
  /** JSON body (serialised here), a prepared multipart form, or a file streamed from disk as multipart. */
  body?: unknown;
  form?: FormData;
  upload?: FileUpload;
  /** Omit for unauthenticated calls. */
  identity?: Identity;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Repeating the request cannot do the work twice. Defaults to true for GET/HEAD/PUT/DELETE and for a request
   * with an `idempotency` key. Decides whether a lost response or a 5xx may be retried.
   */
  idempotent?: boolean;
  /** The de-duplication key of this write: set into the body or query here, named in `outcome_unknown`. */
  idempotency?: IdempotencyKey;
  /** A read command that shows whether this write happened (writes without a key). */
  verify?: string;
  /** The identities the command supports, for a permission error's hint (default: both). */
  identities?: Identity[];
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
  /** See `ApiRequest.idempotent`. */
  idempotent?: boolean;
  /** See `ApiRequest.idempotencyKey` and `ApiRequest.verify`. */
  idempotencyKey?: string;
  verify?: string;
  /** A body that can be read once (a stream) is made anew for every attempt. */
  makeBody?: () => Promise<BodyInit>;
  /** Per attempt, instead of the client's own; 0: none, `signal` carries the caller's deadline (MCP streams). */
  timeoutMs?: number;
}

export interface HttpClient {
  /** Low level: one request (retried per `retry.ts`), transport errors mapped to `network`/`timeout`. */
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
  retry?: RetryPolicy;
  /** Per attempt; a write that times out after sending has an unknown outcome. */
  timeoutMs?: number;
  /** The run's argv, to hint the exact command that re-runs a lost write safely. */
  argv?: string[];
}

/** The argv with `--idempotency-key <key>` set (replacing any earlier value). */
export function withIdempotencyKey(argv: string[], key: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--idempotency-key") i++;
    else if (!argv[i].startsWith("--idempotency-key=")) out.push(argv[i]);
  }
  return [...out, "--idempotency-key", key];
}

/** Quotes a word for a POSIX shell only when it needs it. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

const DEFAULT_TIMEOUT_MS = 60_000;

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

function parseSuiteBody(res: Response, text: string, logId: string | undefined): SuiteBody {
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
    throw new LarkitError(
      res.status >= 500 ? "network" : "api_error",
      `HTTP ${res.status}: the suite returned a non-JSON body: ${text.slice(0, 300)}`,
      { code: res.status, log_id: logId },
    );
  }
}

const isJson = (res: Response) => (res.headers.get("content-type") ?? "").includes("application/json");

/** Headers for a debug log line: credentials masked, the rest as sent. */
export function redactedHeaders(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((v, k) => {
    out[k] = /^(authorization|cookie|x-lark-mcp-(uat|tat))$/i.test(k) ? v.replace(/\s\S+$/, " ***") : v;
  });
  return redact(out) as Record<string, string>;
}

/** A URL for logs: secret-looking query values masked. */
export function redactedUrl(target: string): string {
  const url = new URL(target);
  for (const k of [...url.searchParams.keys()]) {
    if (/secret|token|password|code/i.test(k) && !/page_token|_type$/.test(k)) url.searchParams.set(k, "***");
  }
  return url.toString();
}

function bodyForLog(body: BodyInit | null | undefined): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== "string") return body instanceof FormData ? "<multipart form>" : "<binary>";
  try {
    return JSON.stringify(redact(JSON.parse(body))).slice(0, 2000);
  } catch {
    return `<${body.length} bytes>`;
  }
}

const quoted = (s: string) => s.replace(/["\r\n]/g, (c) => encodeURIComponent(c));

/**
 * A streamed chunk is garbage once sent or written, but V8 frees an ArrayBuffer only when its young heap fills
 * or external memory has grown about 64 MiB since the last full collection, and a transfer allocates little
 * else: a large file's chunks piled up to that limit (bench/transfer_bench.ts: +80 MiB for 512 MiB). A young-
 * generation collection every few MiB moved keeps them bounded. V8 offers `gc` only behind its flag, set when
 * the first large transfer needs it; a runtime that refuses the flag merely uses more memory.
 */
const COLLECT_EVERY = 8 * 1024 * 1024;
type MinorGc = (o: { type: "minor" }) => void;
let minorGc: Promise<MinorGc | undefined> | undefined;

function loadMinorGc(): Promise<MinorGc | undefined> {
  return minorGc ??= (async () => {
    try {
      const [{ default: v8 }, { default: vm }] = await Promise.all([import("node:v8"), import("node:vm")]);
      v8.setFlagsFromString("--expose-gc");
      const gc: unknown = vm.runInNewContext("typeof gc === 'function' ? gc : undefined");
      return typeof gc === "function" ? gc as MinorGc : undefined;
    } catch {
      return undefined;
    }
  })();
}

/**
 * Counts the bytes transfers move and collects their garbage every `COLLECT_EVERY`. One count for the process:
 * a chunked upload moves its file in many requests, each smaller than the step.
 */
let movedSinceCollect = 0;
async function collectTransferred(bytes: number): Promise<void> {
  movedSinceCollect += bytes;
  if (movedSinceCollect < COLLECT_EVERY) return;
  movedSinceCollect = 0;
  (await loadMinorGc())?.({ type: "minor" });
}

/**
 * multipart/form-data with the file streamed from disk: the fields, the file's bytes as they are read, the
 * closing boundary. The length is known up front, so the request carries a Content-Length as a form would.
 */
async function multipartBody(
  p: Provider,
  upload: FileUpload,
  boundary: string,
): Promise<{ body: ReadableStream<Uint8Array>; length: number }> {
  const enc = new TextEncoder();
  const head = enc.encode(
    Object.entries(upload.fields).map(([k, v]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(k)}"\r\n\r\n${v}\r\n`
    ).join("") +
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(upload.field)}"; filename="${
        quoted(upload.name)
      }"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = enc.encode(`\r\n--${boundary}--\r\n`);
  const [start, end] = upload.range ?? [0, upload.size];
  const file = (await p.files.readStream(upload.path, upload.range)).getReader();
  let stage: "head" | "file" | "tail" | "done" = "head";
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stage === "head") {
        stage = "file";
        return controller.enqueue(head);
      }
      if (stage === "file") {
        const { done, value } = await file.read();
        if (!done) {
          await collectTransferred(value.length);
          return controller.enqueue(value);
        }
        stage = "tail";
      }
      if (stage === "tail") {
        stage = "done";
        controller.enqueue(tail);
        return;
      }
      controller.close();
    },
    cancel: (reason) => file.cancel(reason),
  }, { highWaterMark: 0 });
  return { body, length: head.length + (end - start) + tail.length };
}

/**
 * A streamed body whose connection breaks partway (or ends short of its Content-Length) fails its reader with
 * a `network` error, not whatever the runtime threw: the consumer (a download) removes its partial file, and
 * re-running is safe when repeating the request is. An interrupt stays the interrupt.
 */
function bodyCutOffIsNetwork(
  res: Response,
  where: string,
  idempotent: boolean,
  signal: AbortSignal,
  /** Told the bytes so far (and the total when the server said it) as they arrive, then once with `done`. */
  progress?: (got: number, total: number | undefined, done: boolean) => Promise<void>,
): Response {
  if (!res.body) return res;
  const reader = res.body.getReader();
  const expected = Number(res.headers.get("content-length") ?? NaN);
  let got = 0;
  const cutOff = (why: string) =>
    errors.network(`${where}: the response body was cut off after ${got} bytes (${why})`, {
      retryable: idempotent,
      hint: idempotent ? "nothing partial was kept; re-run the command" : "nothing partial was kept",
    });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (e) {
        controller.error(signal.aborted ? signal.reason : cutOff(e instanceof Error ? e.message : String(e)));
        return;
      }
      if (next.done) {
        await progress?.(got, Number.isFinite(expected) ? expected : undefined, true);
        if (Number.isFinite(expected) && got < expected) {
          controller.error(cutOff(`expected ${expected} bytes`));
        } else controller.close();
        return;
      }
      got += next.value.length;
      await collectTransferred(next.value.length);
      await progress?.(got, Number.isFinite(expected) ? expected : undefined, false);
      controller.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  }, { highWaterMark: 0 });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

export function createHttpClient(deps: HttpClientDeps): HttpClient {
  const { p, credentials, diag } = deps;
  const policy = deps.retry ?? DEFAULT_RETRY;
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  function url(path: string, query?: Query): Promise<string> {
    return apiUrl(path, async () => (await credentials.account()).endpoints.open, query);
  }

  /** What a write whose answer never came tells: its key and the one safe next step. */
  function nextStep(path: string, method: string, opts: SendOptions) {
    const detail: Record<string, string> = { method, path };
    let hint: string;
    if (opts.idempotencyKey) {
      detail.idempotency_key = opts.idempotencyKey;
      const rerun = deps.argv
        ? ["larkit", ...withIdempotencyKey(deps.argv, opts.idempotencyKey)].map(shellWord).join(" ")
        : undefined;
      hint = `safe to re-run with the same key (the suite applies it at most once)${
        rerun ? `: ${rerun}` : `: --idempotency-key ${opts.idempotencyKey}`
      }`;
    } else {
      hint = opts.verify
        ? `do not re-run blindly (no de-duplication key): check whether it happened first: ${opts.verify}`
        : "do not re-run blindly (no de-duplication key): list or get the resource to check whether it happened";
    }
    return { hint, detail };
  }

  function outcomeUnknown(where: string, path: string, method: string, why: string, opts: SendOptions) {
    return errors.outcomeUnknown(
      `${where}: the request was sent but ${why}; it may or may not have taken effect`,
      nextStep(path, method, opts),
    );
  }

  function transportError(
    e: unknown,
    method: string,
    target: string,
    sent: boolean,
    idempotent: boolean,
    opts: SendOptions,
  ) {
    const path = new URL(target).pathname;
    const where = `${method} ${path}`;
    const timedOut = e instanceof DOMException && e.name === "TimeoutError";
    const write = !isIdempotentMethod(method);
    if (sent && (!idempotent || (write && opts.idempotencyKey))) {
      return outcomeUnknown(where, path, method, timedOut ? "timed out" : "its response was lost", opts);
    }
    if (timedOut) {
      return errors.timeout(`${where}: no response within ${timeoutMs} ms`, { hint: "retry later" });
    }
    const message = e instanceof Error ? e.message : String(e);
    return errors.network(`request failed: ${where}: ${message}`, {
      hint: "check the network and the configured brand / base URL (larkit config show)",
    });
  }

  /**
   * One logical request: attempts until success, a non-retryable answer, or the retry budget is spent.
   * With `readBody`, the body is read inside the attempt, so a response lost mid-body counts as a network
   * failure of that attempt (and is retried only when that is safe).
   */
  async function exchange(
    target: string,
    init: RequestInit,
    opts: SendOptions,
    readBody: boolean,
  ): Promise<{ res: Response; text?: string }> {
    const signal = opts.signal ?? p.signal;
    const method = (init.method ?? "GET").toUpperCase();
    const idempotent = opts.idempotent ?? isIdempotentMethod(method);
    const shown = opts.label ?? redactedUrl(target);
    // Every request says who sends it, the auth flows' and the tenant token's included. (A request `build`
    // made says it already: its headers object is the one its streamed body's length is set on.)
    if (!new Headers(init.headers).has("User-Agent")) {
      const headers = new Headers(init.headers);
      headers.set("User-Agent", `larkit/${p.version}`);
      init = { ...init, headers };
    }
    let sent = false;
    try {
      return await attempts();
    } catch (e) {
      // Interrupted once a write may have left: the same promise as `outcome_unknown`, the key and the next step.
      const write = opts.idempotencyKey !== undefined || !idempotent;
      if (!sent || !write || !signal.aborted || e !== signal.reason) throw e;
      const path = new URL(target).pathname;
      const { hint, detail } = nextStep(path, method, opts);
      throw interruptedWith(e, {
        hint: `the write may or may not have taken effect; ${hint}`,
        detail,
      });
    }

    async function attempts(): Promise<{ res: Response; text?: string }> {
      for (let attempt = 0;; attempt++) {
        const started = p.clock.now();
        if (diag.debugEnabled) {
          await diag.debug(`\u2192 ${method} ${shown}${attempt ? ` (retry ${attempt})` : ""}`);
          await diag.debug(`  headers ${JSON.stringify(redactedHeaders(init.headers))}`);
          const body = bodyForLog(init.body);
          if (body) await diag.debug(`  body ${body}`);
        }
        let res: Response | undefined;
        let text: string | undefined;
        try {
          sent = true;
          res = await p.fetch(target, {
            ...init,
            ...(opts.makeBody ? { body: await opts.makeBody(), duplex: "half" } : {}),
            signal: (opts.timeoutMs ?? timeoutMs) > 0
              ? AbortSignal.any([signal, AbortSignal.timeout(opts.timeoutMs ?? timeoutMs)])
              : signal,
          });
          if (readBody) text = await res.text();
        } catch (e) {
          if (signal.aborted || e instanceof LarkitError) throw e;
          const sent = res !== undefined || wasSent(e);
          const decision = decideRetry({ kind: "network", sent }, {
            attempt,
            idempotent,
            policy,
            now: p.clock.now(),
            random01: p.random.bytes(1)[0] / 256,
          });
          if (!decision.retry) throw transportError(e, method, target, sent, idempotent, opts);
          await diag.debug(
            `  ${decision.reason} (${e instanceof Error ? e.message : e}); retry in ${decision.delayMs} ms`,
          );
          await p.clock.sleep(decision.delayMs, signal);
          continue;
        }
        const logId = res.headers.get("x-tt-logid") ?? "-";
        await diag.debug(`\u2190 ${res.status} in ${p.clock.now() - started} ms (log_id ${logId})`);
        if (diag.debugEnabled && text !== undefined) {
          await diag.debug(`  response ${bodyForLog(text)}`);
        }
        const decision = decideRetry({ kind: "response", status: res.status, headers: res.headers }, {
          attempt,
          idempotent,
          policy,
          now: p.clock.now(),
          random01: p.random.bytes(1)[0] / 256,
        });
        if (!decision.retry) return { res, text };
        if (text === undefined) await res.body?.cancel();
        await diag.progress(
          `${decision.reason} from the suite (log_id ${logId}); retrying in ${decision.delayMs} ms`,
        );
        await p.clock.sleep(decision.delayMs, signal);
      }
    }
  }

  async function send(target: string, init: RequestInit, opts: SendOptions = {}): Promise<Response> {
    return (await exchange(target, init, opts, false)).res;
  }

  interface Built {
    target: string;
    init: RequestInit;
    opts: SendOptions;
    /** The access token sent, to invalidate it when the suite rejects it. */
    token?: string;
  }

  /** The request with its de-duplication key in place (the one place a key is put into a request). */
  function keyed(req: ApiRequest): ApiRequest {
    const idem = req.idempotency;
    if (!idem) return req;
    if (idem.in === "query") return { ...req, query: { ...req.query, [idem.field]: idem.key } };
    if (req.upload) {
      return { ...req, upload: { ...req.upload, fields: { ...req.upload.fields, [idem.field]: idem.key } } };
    }
    if (req.form) {
      const form = new FormData();
      for (const [k, v] of req.form) form.append(k, v);
      form.set(idem.field, idem.key);
      return { ...req, form };
    }
    const body = req.body ?? {};
    if (typeof body !== "object" || Array.isArray(body)) {
      throw errors.internal(`${req.method} ${req.path}: the body must be an object to carry ${idem.field}`);
    }
    return { ...req, body: { ...body, [idem.field]: idem.key } };
  }

  async function build(original: ApiRequest): Promise<Built> {
    const req = keyed(original);
    const target = await url(req.path, req.query);
    const headers = new Headers(req.headers);
    headers.set("User-Agent", `larkit/${p.version}`);
    let token: string | undefined;
    if (req.identity) {
      const request = { method: req.method, path: req.path };
      token = (await credentials.token(req.identity, req.signal ?? p.signal, request)).token;
      headers.set("Authorization", `Bearer ${token}`);
    }
    let body: BodyInit | undefined;
    let makeBody: (() => Promise<BodyInit>) | undefined;
    const upload = req.upload;
    if (upload) {
      const boundary = `larkit-${p.random.uuid()}`;
      headers.set("Content-Type", `multipart/form-data; boundary=${boundary}`);
      makeBody = async () => {
        const made = await multipartBody(p, upload, boundary);
        headers.set("Content-Length", String(made.length));
        return made.body;
      };
    } else if (req.form) body = req.form;
    else if (req.body !== undefined) {
      headers.set("Content-Type", "application/json; charset=utf-8");
      body = JSON.stringify(req.body);
    }
    return {
      target,
      token,
      init: { method: req.method.toUpperCase(), headers, body },
      opts: {
        signal: req.signal,
        // The path and the query as sent (secret-looking values masked): --debug shows what was asked for.
        label: req.path + new URL(redactedUrl(target)).search,
        // A write carrying its key cannot be applied twice, so a 5xx or a lost answer may be retried.
        idempotent: req.idempotent ?? (req.idempotency ? true : undefined),
        idempotencyKey: req.idempotency?.key,
        verify: req.verify,
        makeBody,
      },
    };
  }

  async function failure(res: Response, text: string, req: ApiRequest): Promise<LarkitError | undefined> {
    const idempotent = req.idempotent ?? (req.idempotency ? true : isIdempotentMethod(req.method));
    if (!isJson(res)) {
      if (res.ok) return undefined;
      return new LarkitError(
        res.status === 429 ? "rate_limit" : res.status >= 500 ? "network" : "api_error",
        `HTTP ${res.status}: ${text.slice(0, 300)}`,
        { code: res.status, log_id: logIdOf(res), retryable: res.status >= 500 ? idempotent : undefined },
      );
    }
    const body = parseSuiteBody(res, text, logIdOf(res));
    if ((body.code ?? 0) === 0 && res.status < 400) return undefined;
    const account = await credentials.account().catch(() => undefined);
    return suiteError({
      code: body.code ?? res.status,
      msg: body.msg ?? res.statusText,
      status: res.status,
      logId: logIdOf(res, body),
      error: body.error,
      identity: req.identity,
      identities: req.identities,
      app: account && { appId: account.appId, open: account.endpoints.open },
      idempotent,
    });
  }

  interface Answer {
    res: Response;
    /** The body, when read: always with `readBody`, else only for a suite error. */
    text?: string;
    err?: LarkitError;
  }

  async function attempt(req: ApiRequest, readBody: boolean): Promise<Answer & { token?: string }> {
    const { target, init, opts, token } = await build(req);
    const { res, text } = await exchange(target, init, opts, readBody);
    if (text === undefined && res.ok && !isJson(res)) return { res, token };
    const body = text ?? await res.text();
    return { res, text: body, err: await failure(res, body, req), token };
  }

  /**
   * One request whose token the suite may reject before it was due to expire (revoked, rotated, clock skew):
   * the chain is asked once to mint or refresh another, and the request is sent once more. The suite checks
   * the token before doing any work, so resending a write here cannot apply it twice. A second rejection is
   * the `auth` error.
   */
  async function authorized(req: ApiRequest, readBody: boolean): Promise<Answer> {
    const first = await attempt(req, readBody);
    if (!req.identity || !first.token || !isRejectedToken(first.err?.body.code)) return first;
    const renewed = await credentials.invalidate?.(req.identity, first.token, req.signal ?? p.signal);
    if (!renewed) return first;
    await diag.progress(
      `the suite rejected the ${req.identity} access token [${first.err?.body.code}]; retrying once with a new one`,
    );
    return await attempt(req, readBody);
  }

  async function call<T>(req: ApiRequest): Promise<ApiResult<T>> {
    const { res, text = "", err } = await authorized(req, true);
    if (err) throw err;
    const logId = logIdOf(res);
    if (!isJson(res)) {
      throw errors.api(
        `HTTP ${res.status}: expected JSON, got ${res.headers.get("content-type") ?? "no type"}`,
        {
          log_id: logId,
          hint: "the endpoint returns a file: rerun with --output <path>",
        },
      );
    }
    const body = parseSuiteBody(res, text, logId);
    return { data: body.data as T, status: res.status, logId, headers: res.headers };
  }

  async function raw(req: ApiRequest): Promise<Response> {
    const { res, text, err } = await authorized(req, false);
    if (err) throw err;
    // A JSON success was read whole to look for a suite error; hand it on as a fresh response.
    if (text !== undefined) return new Response(text, { status: res.status, headers: res.headers });
    const idempotent = req.idempotent ?? (req.idempotency ? true : isIdempotentMethod(req.method));
    const began = p.clock.now();
    let shown = 0;
    return bodyCutOffIsNetwork(
      res,
      `${req.method.toUpperCase()} ${req.path}`,
      idempotent,
      req.signal ?? p.signal,
      async (got, total, done) => {
        // A download's one status line (terminal only), redrawn at most every 200 ms.
        const now = p.clock.now();
        if (!done && now - shown < 200) return;
        shown = now;
        await diag.status(`downloading: ${transferText(got, total, now - began)}`);
        if (done) await diag.status();
      },
    );
  }

  return { send, call, raw, url };
}
