/**
 * The suite's Model Context Protocol endpoint as a client, by the Streamable HTTP transport of protocol
 * revisions 2025-03-26 to 2025-11-25: a session is opened once per run and endpoint (`initialize`, then
 * `notifications/initialized`), its `Mcp-Session-Id` and the negotiated `MCP-Protocol-Version` go with every
 * later message, and an answer may come as JSON or as an SSE stream (progress notifications, then the response).
 * Every message goes through the one HTTP client (`client.send`), so `--debug` logging and `--record` apply.
 *
 * The MCP endpoint authenticates with `X-Lark-MCP-UAT` (user) or `X-Lark-MCP-TAT` (bot) and never with
 * `Authorization`; `X-Lark-MCP-Allowed-Tools` names the one tool, so the server refuses anything else. Failures
 * -- HTTP statuses, JSON-RPC errors, `isError` tool results -- are classified the way OpenAPI answers are
 * (`suite_errors.ts`, the client's 5xx rule), so a caller cannot tell from the error which transport a command
 * used; a write whose answer is lost or stalls is `outcome_unknown`, never a retryable `network` error.
 *
 * Written by hand rather than with the official SDK's client: that client costs ~110 ms and ~37 MB to load
 * (and 95 npm packages), more than a docs command's whole run; what larkit needs of it is this file.
 */
import { EventSourceParserStream } from "eventsource-parser/stream";
import * as z from "zod";
import type { CredentialChain, Identity } from "../auth/types.ts";
import type { Diagnostics } from "../output/diagnostics.ts";
import { errors, LarkitError } from "../output/errors.ts";
import type { Provider } from "../provider.ts";
import type { HttpClient } from "./client.ts";
import { isRejectedToken, loginCommand, suiteError } from "./suite_errors.ts";

/** The revision larkit asks for, and the ones it speaks (a server may answer with any of these). */
export const PROTOCOL_VERSION = "2025-11-25";
const SUPPORTED_VERSIONS = new Set([PROTOCOL_VERSION, "2025-06-18", "2025-03-26"]);

/** Seconds a tool call waits for its answer; each progress notification starts the wait again. */
export const DEFAULT_TIMEOUT_S = 60;

export interface McpToolCall {
  tool: string;
  arguments: Record<string, unknown>;
  identity: Identity;
  /** Repeating the call cannot do the work twice (a read); decides whether a lost answer is retried. */
  idempotent: boolean;
  /** Seconds without an answer or a progress notification before giving up (default `DEFAULT_TIMEOUT_S`). */
  timeoutSeconds?: number;
  /** A read command that shows whether this write happened, for the hint of a lost answer. */
  verify?: string;
  signal?: AbortSignal;
}

export interface McpDeps {
  p: Provider;
  http: HttpClient;
  credentials: CredentialChain;
  /** Where progress notifications are shown (a status line on a terminal). */
  diag?: Diagnostics;
}

/** The JSON-RPC request of one tool call, as sent and as `--dry-run` shows it. */
export function toolCallRequest(id: string, tool: string, args: Record<string, unknown>) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: args } } as const;
}

/** How `--dry-run` shows a tool call: where it would go and the JSON-RPC body, nothing sent. */
export function plannedToolCall(endpoint: string, tool: string, args: Record<string, unknown>) {
  const { method, params } = toolCallRequest("<id>", tool, args);
  return { method: "POST", url: endpoint, body: { method, params }, description: `MCP tool: ${tool}` };
}

const RpcError = z.object({ code: z.number(), message: z.string(), data: z.optional(z.unknown()) });
type RpcError = z.infer<typeof RpcError>;
const RpcMessage = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z.optional(z.union([z.string(), z.number(), z.null()])),
  method: z.optional(z.string()),
  params: z.optional(z.unknown()),
  result: z.optional(z.unknown()),
  error: z.optional(RpcError),
});
type RpcMessage = z.infer<typeof RpcMessage>;
const Progress = z.looseObject({
  progressToken: z.union([z.string(), z.number()]),
  progress: z.number(),
  total: z.optional(z.number()),
  message: z.optional(z.string()),
});
const Initialized = z.looseObject({ protocolVersion: z.string() });
const BusinessError = z.looseObject({ code: z.number(), msg: z.string() });
/** A tool's own failure text carrying a suite code: `{code, msg}` or `{code, message}`. */
const ToolFailure = z.looseObject({
  code: z.number(),
  msg: z.optional(z.string()),
  message: z.optional(z.string()),
  /** The suite's `error` object: permission_violations name the missing scopes. */
  error: z.optional(z.unknown()),
});
const TextItem = z.looseObject({ type: z.literal("text"), text: z.string() });
const ToolResult = z.looseObject({ content: z.array(z.unknown()), isError: z.optional(z.boolean()) });

const AUTH_WORDS = /unauthorized|access token|token invalid|token expired/i;
/** JSON-RPC's own range: the request or the tool call was malformed, not a suite business failure. */
const isProtocolCode = (code: number) => code >= -32768 && code <= -32000;

/** A JSON-RPC `error` (or a `{code, msg}` body) -> the error type an OpenAPI answer with that code gets. */
export function classifyRpcError(
  e: { code: number; message: string; data?: unknown },
  status: number,
  identity: Identity,
  idempotent = false,
): LarkitError {
  // A server-side failure did nothing the caller can rely on; re-running is safe when repeating the call is.
  const retryable = status >= 500 ? idempotent : undefined;
  if (isProtocolCode(e.code)) return errors.mcp(`MCP: [${e.code}] ${e.message}`, { code: e.code, retryable });
  const classified = suiteError({
    code: e.code,
    msg: e.message,
    status,
    identity,
    error: e.data,
    idempotent,
  });
  if (classified.subtype !== "api_error") return prefixed(classified);
  // A code the suite's table does not know, worded as a token failure (the reference's rule).
  if (AUTH_WORDS.test(e.message)) {
    return errors.auth(`MCP: [${e.code}] ${e.message}`, {
      code: e.code,
      hint: identity === "user"
        ? `log in again: ${loginCommand()}`
        : "check the app credentials: larkit config show",
    });
  }
  return errors.api(`MCP: [${e.code}] ${e.message}`, { code: e.code, detail: e.data, retryable });
}

function prefixed(e: LarkitError): LarkitError {
  const { type: _, subtype, message, ...extra } = e.body;
  return new LarkitError(subtype, `MCP: ${message}`, extra);
}

/**
 * A tool result -> the value it carries: nested `result`s unwrapped; a single text item holding JSON becomes
 * that JSON, other texts are joined by newlines; a string becomes `{message}`. A tool-reported failure
 * (`isError`) carrying a suite code `{code, msg}` is classified as an OpenAPI answer with that code would be;
 * any other (`isError` text, or an object with a non-empty `error` string) is an `mcp_error`.
 */
export function unwrapToolResult(result: unknown, identity: Identity = "user"): unknown {
  let value = result;
  while (value && typeof value === "object" && !Array.isArray(value) && "result" in value) {
    value = (value as { result: unknown }).result;
  }
  const tool = ToolResult.safeParse(value);
  if (tool.success) {
    const texts = tool.data.content.map((c) => TextItem.safeParse(c)).filter((t) => t.success).map((t) =>
      t.data.text
    );
    if (tool.data.isError) {
      const coded = ToolFailure.safeParse(texts.length === 1 ? parseJsonOr(texts[0]) : undefined);
      if (coded.success) {
        const message = coded.data.msg ?? coded.data.message ?? "the tool reported an error";
        throw classifyRpcError({ code: coded.data.code, message, data: coded.data.error }, 200, identity);
      }
      throw errors.mcp(`MCP: ${texts.join("\n") || "the tool reported an error"}`);
    }
    value = texts.length === 1 ? parseJsonOr(texts[0]) : texts.join("\n");
  }
  if (typeof value === "string") return { message: value };
  const reported = (value as { error?: unknown } | null)?.error;
  if (typeof reported === "string" && reported !== "") throw errors.mcp(`MCP: ${reported}`);
  return value;
}

function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * An HTTP answer that carries no response (a failure status, a body that is not JSON-RPC) -> the error value
 * the OpenAPI path gives the same status: a JSON-RPC `error` or `{code, msg}` body classified by its code, 401
 * `auth`, 429 `rate_limit`, 5xx `network` (retryable when repeating the call is safe), other statuses `api_error`.
 */
export function httpFailure(
  res: { status: number; statusText: string; headers?: Headers },
  text: string,
  identity: Identity,
  idempotent: boolean,
): LarkitError {
  const body = parseJsonOr(text);
  const rpc = RpcMessage.safeParse(body);
  // A transport-level refusal (406, 415, 400 from the SDK's server) carries a JSON-RPC error in the protocol's
  // range: it is the request's fault, an `mcp_error`, except an auth status, which stays `auth`.
  if (rpc.success && rpc.data.error && !(res.status === 401 && isProtocolCode(rpc.data.error.code))) {
    return classifyRpcError(rpc.data.error, res.status, identity, idempotent);
  }
  const business = BusinessError.safeParse(body);
  if (business.success && business.data.code !== 0) {
    return classifyRpcError(
      { code: business.data.code, message: business.data.msg },
      res.status,
      identity,
      idempotent,
    );
  }
  const shown = text.slice(0, 300);
  if (res.status === 401) {
    const challenge = res.headers?.get("www-authenticate");
    return errors.auth(`MCP HTTP 401: ${shown}${challenge ? ` (${challenge})` : ""}`, {
      code: 401,
      hint: identity === "user" ? `log in again: ${loginCommand()}` : "check the app credentials",
    });
  }
  return new LarkitError(
    res.status === 429 ? "rate_limit" : res.status >= 500 ? "network" : "api_error",
    `MCP HTTP ${res.status} ${res.statusText}: ${shown}`,
    { code: res.status, retryable: res.status >= 500 ? idempotent : undefined },
  );
}

/** The JSON-RPC response to a tool call -> its value, or the error value it stands for. */
export function readToolResponse(message: RpcMessage, identity: Identity): unknown {
  if (message.error) throw classifyRpcError(message.error, 200, identity);
  if (message.result === undefined) {
    throw errors.mcp("MCP: the answer carries neither a result nor an error", { detail: message });
  }
  return unwrapToolResult(message.result, identity);
}

interface Session {
  /** `Mcp-Session-Id`, when the server issued one. */
  id?: string;
  version: string;
}

/** One session per HTTP client (one run), endpoint and identity; a pending `initialize` is shared. */
const sessions = new WeakMap<HttpClient, Map<string, Promise<Session>>>();

/** The server no longer knows the session (HTTP 404 on a message that carried its id): open another. */
class SessionGone extends Error {}

/** The server refused the token at the door (HTTP 401, before doing anything): `error` is what it means. */
class TokenRefused extends Error {
  constructor(readonly error: LarkitError) {
    super(error.message);
  }
}

interface Channel {
  deps: McpDeps;
  endpoint: string;
  identity: Identity;
  token: string;
  tool: string;
  timeoutMs: number;
  signal: AbortSignal;
}

interface Sent {
  idempotent: boolean;
  verify?: string;
  /** The message as logs and errors name it: `MCP tools/call create-doc`. */
  what: string;
  /** The progress token the request carries: its notifications restart the wait. */
  progressToken?: string;
}

/**
 * A wait that restarts whenever `extend` is called and, when it runs out, aborts its signal with the error
 * value the caller chose: a real timer, as the HTTP client's own timeout is.
 */
function restartableDeadline(ms: number, expired: () => LarkitError) {
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(expired()), ms);
  return {
    signal: controller.signal,
    extend() {
      clearTimeout(timer);
      if (!controller.signal.aborted) timer = setTimeout(() => controller.abort(expired()), ms);
    },
    stop: () => clearTimeout(timer),
  };
}

/**
 * Sends one JSON-RPC message and returns the response to it (`undefined` for a notification, answered 202).
 * The deadline covers the whole exchange, body included; progress notifications on an SSE answer restart it.
 */
async function post(ch: Channel, session: Session | undefined, message: object, sent: Sent) {
  const { p, http } = ch.deps;
  const id = (message as { id?: string }).id;
  const lost = (why: string, timedOut = false) => {
    if (sent.idempotent) {
      return timedOut
        ? errors.timeout(`${sent.what}: ${why}`, { hint: "retry later, or allow longer with --timeout" })
        : errors.network(`${sent.what}: ${why}`, { hint: "re-run the command" });
    }
    return errors.outcomeUnknown(
      `${sent.what}: the request was sent but ${why}; it may or may not have taken effect`,
      {
        hint: sent.verify
          ? `do not re-run blindly (no de-duplication key): check whether it happened first: ${sent.verify}`
          : "do not re-run blindly (no de-duplication key): look the result up to check whether it happened",
        detail: { method: "POST", path: new URL(ch.endpoint).pathname, tool: ch.tool },
      },
    );
  };
  const deadline = restartableDeadline(
    ch.timeoutMs,
    () => lost(`no answer came within ${ch.timeoutMs} ms`, true),
  );
  const signal = AbortSignal.any([ch.signal, deadline.signal]);
  const headers = new Headers({
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "User-Agent": `larkit/${p.version}`,
    [ch.identity === "user" ? "X-Lark-MCP-UAT" : "X-Lark-MCP-TAT"]: ch.token,
    "X-Lark-MCP-Allowed-Tools": ch.tool,
  });
  if (session?.id) headers.set("Mcp-Session-Id", session.id);
  if (session) headers.set("MCP-Protocol-Version", session.version);
  // The stream's own failure when the deadline or an interrupt ended it: that reason, not the runtime's words.
  const ended = (e: unknown): unknown =>
    deadline.signal.aborted ? deadline.signal.reason : ch.signal.aborted ? ch.signal.reason : e;
  try {
    let res: Response;
    try {
      res = await http.send(ch.endpoint, { method: "POST", headers, body: JSON.stringify(message) }, {
        signal,
        label: sent.what,
        idempotent: sent.idempotent,
        verify: sent.verify,
        // The deadline above is the wait (it restarts on progress); the client's fixed one would cut a stream.
        timeoutMs: 0,
      });
    } catch (e) {
      throw ended(e);
    }
    if (res.status === 404 && session?.id) {
      await res.body?.cancel();
      throw new SessionGone();
    }
    const type = (res.headers.get("content-type") ?? "").toLowerCase();
    if (res.ok && id === undefined) {
      await res.body?.cancel();
      return { res, message: undefined };
    }
    if (res.ok && type.includes("text/event-stream")) {
      try {
        const answer = await fromStream(res, id, sent.progressToken, deadline.extend, ch.deps.diag);
        if (answer) return { res, message: answer };
      } catch (e) {
        const why = ended(e);
        if (why instanceof LarkitError) throw why;
        throw lost(`its answer stream broke off (${why instanceof Error ? why.message : String(why)})`);
      }
      throw lost("its answer stream ended before the answer");
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      const why = ended(e);
      if (why instanceof LarkitError) throw why;
      throw lost(`its answer was cut off (${why instanceof Error ? why.message : String(why)})`);
    }
    if (res.status === 401) throw new TokenRefused(httpFailure(res, text, ch.identity, sent.idempotent));
    if (!res.ok) throw httpFailure(res, text, ch.identity, sent.idempotent);
    const parsed = parseJsonOr(text);
    const candidates = Array.isArray(parsed) ? parsed : [parsed];
    const answer = candidates.map((m) => RpcMessage.safeParse(m)).find((m) => m.success && m.data.id === id);
    if (!answer?.success) {
      throw errors.mcp(`MCP returned no JSON-RPC answer to ${sent.what}: ${text.slice(0, 300)}`, {
        hint: "the MCP endpoint answered oddly; re-run with --debug to see it",
      });
    }
    return { res, message: answer.data };
  } finally {
    deadline.stop();
  }
}

/**
 * Reads an SSE answer until the response with `id` arrives: progress notifications for the request restart
 * the wait (and show on a terminal's status line); other messages the server sends on the stream (its own
 * requests, log notifications) are not for this call. Ends the stream once the response is in.
 */
async function fromStream(
  res: Response,
  id: string | undefined,
  progressToken: string | undefined,
  extend: () => void,
  diag: Diagnostics | undefined,
): Promise<RpcMessage | undefined> {
  const events = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await events.read();
      if (done) return undefined;
      if (value.event !== undefined && value.event !== "message") continue;
      if (!value.data.trim()) continue;
      const message = RpcMessage.safeParse(parseJsonOr(value.data));
      if (!message.success) continue;
      if (message.data.method === "notifications/progress") {
        const progress = Progress.safeParse(message.data.params);
        if (progress.success && String(progress.data.progressToken) === progressToken) {
          extend();
          const { progress: at, total, message: said } = progress.data;
          await diag?.status(`MCP: ${said ?? "working"}${total ? ` (${at}/${total})` : ""}`);
        }
        continue;
      }
      if (message.data.method === undefined && message.data.id === id) return message.data;
    }
  } finally {
    await diag?.status();
    await events.cancel().catch(() => {});
  }
}

/** `initialize` then `notifications/initialized`; the session the server issued (if any) and the revision. */
async function openSession(ch: Channel): Promise<Session> {
  const { p } = ch.deps;
  const request = {
    jsonrpc: "2.0",
    id: p.random.uuid(),
    method: "initialize",
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "larkit", version: p.version },
    },
  };
  // Nothing is done by `initialize`: repeating it is safe.
  const { res, message } = await post(ch, undefined, request, { idempotent: true, what: "MCP initialize" });
  if (message?.error) throw classifyRpcError(message.error, res.status, ch.identity, true);
  const init = Initialized.safeParse(message?.result);
  if (!init.success) {
    throw errors.mcp("MCP: the initialize answer carries no protocolVersion", { detail: message });
  }
  if (!SUPPORTED_VERSIONS.has(init.data.protocolVersion)) {
    throw errors.mcp(
      `MCP: the server speaks protocol ${init.data.protocolVersion}, larkit speaks ${
        [...SUPPORTED_VERSIONS].join(", ")
      }`,
      {
        hint: "update larkit, or ask the endpoint's operator which revisions it supports",
      },
    );
  }
  const session = { id: res.headers.get("mcp-session-id") ?? undefined, version: init.data.protocolVersion };
  await post(ch, session, { jsonrpc: "2.0", method: "notifications/initialized" }, {
    idempotent: true,
    what: "MCP notifications/initialized",
  });
  return session;
}

function sessionFor(ch: Channel, fresh: boolean): Promise<Session> {
  let byKey = sessions.get(ch.deps.http);
  if (!byKey) sessions.set(ch.deps.http, byKey = new Map());
  const key = `${ch.endpoint} ${ch.identity}`;
  const known = byKey.get(key);
  if (known && !fresh) return known;
  const opened = openSession(ch);
  byKey.set(key, opened);
  // A session that failed to open is not kept: the next call tries again.
  opened.catch(() => byKey.get(key) === opened && byKey.delete(key));
  return opened;
}

/** The call in the run's session; a session the server forgot (404, nothing done) is opened again, once. */
async function inSession(ch: Channel, call: McpToolCall): Promise<RpcMessage> {
  const send = async (fresh: boolean) => {
    const session = await sessionFor(ch, fresh);
    const id = ch.deps.p.random.uuid();
    const request = toolCallRequest(id, call.tool, call.arguments);
    // The request's id is its progress token: the server reports progress only for a request that asks.
    const body = { ...request, params: { ...request.params, _meta: { progressToken: id } } };
    const { message } = await post(ch, session, body, {
      idempotent: call.idempotent,
      verify: call.verify,
      what: `MCP tools/call ${call.tool}`,
      progressToken: id,
    });
    return message as RpcMessage;
  };
  try {
    return await send(false);
  } catch (e) {
    if (!(e instanceof SessionGone)) throw e;
  }
  try {
    return await send(true);
  } catch (e) {
    if (!(e instanceof SessionGone)) throw e;
    throw errors.mcp("MCP: the server dropped a session it had just opened (HTTP 404)", {
      hint: "re-run the command; if it persists, the MCP endpoint is misbehaving",
    });
  }
}

/**
 * Calls one MCP tool as the identity and returns the tool's value. A token the server refuses before it was
 * due to expire (revoked, rotated) is renewed once through the credential chain and the call sent again, as
 * the OpenAPI path does: a 401 comes before any work, so a write cannot happen twice.
 */
export async function callMcpTool(deps: McpDeps, call: McpToolCall): Promise<unknown> {
  const account = await deps.credentials.account();
  const signal = call.signal ?? deps.p.signal;
  let token = (await deps.credentials.token(call.identity, signal)).token;
  for (let renewed = false;; renewed = true) {
    const ch: Channel = {
      deps,
      endpoint: account.endpoints.mcp,
      identity: call.identity,
      token,
      tool: call.tool,
      timeoutMs: (call.timeoutSeconds ?? DEFAULT_TIMEOUT_S) * 1000,
      signal,
    };
    try {
      return readToolResponse(await inSession(ch, call), call.identity);
    } catch (e) {
      if (!(e instanceof TokenRefused)) throw e;
      const code = e.error.body.code;
      if (
        renewed || !isRejectedToken(code) ||
        !await deps.credentials.invalidate?.(call.identity, token, signal)
      ) {
        throw e.error;
      }
      await deps.diag?.progress(
        `the MCP endpoint rejected the ${call.identity} access token [${code}]; retrying once with a new one`,
      );
      token = (await deps.credentials.token(call.identity, signal)).token;
    }
  }
}
