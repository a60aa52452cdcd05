/**
 * The suite's Model Context Protocol endpoint as a client: one JSON-RPC 2.0 `tools/call` per invocation, sent
 * through the one HTTP client (`client.send`) so retries, `--debug` logging and `--record` apply to it too.
 *
 * The MCP endpoint authenticates with `X-Lark-MCP-UAT` (user) or `X-Lark-MCP-TAT` (bot) and never with
 * `Authorization`; `X-Lark-MCP-Allowed-Tools` names the one tool, so the server refuses anything else. The
 * answer is classified the way OpenAPI answers are (`suite_errors.ts`), so a caller cannot tell from the error
 * which transport a command used.
 */
import * as z from "zod";
import type { CredentialChain, Identity } from "../auth/types.ts";
import { errors, LarkitError } from "../output/errors.ts";
import type { Provider } from "../provider.ts";
import type { HttpClient } from "./client.ts";
import { loginCommand, suiteError } from "./suite_errors.ts";

export interface McpToolCall {
  tool: string;
  arguments: Record<string, unknown>;
  identity: Identity;
  /** Repeating the call cannot do the work twice (a read); decides whether a lost answer is retried. */
  idempotent: boolean;
  signal?: AbortSignal;
}

export interface McpDeps {
  p: Provider;
  http: HttpClient;
  credentials: CredentialChain;
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
const RpcResponse = z.looseObject({ result: z.optional(z.unknown()), error: z.optional(RpcError) });
const BusinessError = z.looseObject({ code: z.number(), msg: z.string() });
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
): LarkitError {
  if (AUTH_WORDS.test(e.message) && !isProtocolCode(e.code)) {
    const classified = suiteError({ code: e.code, msg: e.message, status, identity, error: e.data });
    if (classified.subtype === "auth") return prefixed(classified);
    return errors.auth(`MCP: [${e.code}] ${e.message}`, {
      code: e.code,
      hint: identity === "user"
        ? `log in again: ${loginCommand()}`
        : "check the app credentials: larkit config show",
    });
  }
  if (isProtocolCode(e.code)) return errors.mcp(`MCP: [${e.code}] ${e.message}`, { code: e.code });
  const classified = suiteError({ code: e.code, msg: e.message, status, identity, error: e.data });
  return classified.subtype === "api_error"
    ? errors.api(`MCP: [${e.code}] ${e.message}`, { code: e.code, detail: e.data })
    : prefixed(classified);
}

function prefixed(e: LarkitError): LarkitError {
  const { type: _, subtype, message, ...extra } = e.body;
  return new LarkitError(subtype, `MCP: ${message}`, extra);
}

/**
 * A tool result -> the value it carries: nested `result`s unwrapped; a single text item holding JSON becomes
 * that JSON, other texts are joined by newlines; a string becomes `{message}`. A tool-reported failure
 * (`isError`, or an object with a non-empty `error` string) is an `mcp_error`.
 */
export function unwrapToolResult(result: unknown): unknown {
  let value = result;
  while (value && typeof value === "object" && !Array.isArray(value) && "result" in value) {
    value = (value as { result: unknown }).result;
  }
  const tool = ToolResult.safeParse(value);
  if (tool.success) {
    const texts = tool.data.content.map((c) => TextItem.safeParse(c)).filter((t) => t.success).map((t) =>
      t.data.text
    );
    if (tool.data.isError) throw errors.mcp(`MCP: ${texts.join("\n") || "the tool reported an error"}`);
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

/** The HTTP answer of a tool call -> its value, or the error value it stands for. */
export function readToolAnswer(
  res: { status: number; statusText: string },
  text: string,
  identity: Identity,
): unknown {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    if (res.status === 401) throw authRejected(res.status, text, identity);
    if (res.status >= 400) throw httpFailure(res, text);
    throw errors.api(`MCP returned non-JSON: ${text.slice(0, 300)}`, {
      hint: "the MCP endpoint answered oddly; re-run with --debug to see it",
    });
  }
  const rpc = RpcResponse.safeParse(body);
  if (rpc.success && rpc.data.error) throw classifyRpcError(rpc.data.error, res.status, identity);
  const business = BusinessError.safeParse(body);
  if (business.success && business.data.code !== 0) {
    throw classifyRpcError({ code: business.data.code, message: business.data.msg }, res.status, identity);
  }
  if (res.status === 401) throw authRejected(res.status, text, identity);
  if (res.status >= 400) throw httpFailure(res, text);
  if (!rpc.success || rpc.data.result === undefined) {
    throw errors.mcp("MCP: the answer carries neither a result nor an error", { detail: body });
  }
  return unwrapToolResult(rpc.data.result);
}

function authRejected(status: number, text: string, identity: Identity): LarkitError {
  return errors.auth(`MCP HTTP ${status}: ${text.slice(0, 300)}`, {
    code: status,
    hint: identity === "user" ? `log in again: ${loginCommand()}` : "check the app credentials",
  });
}

function httpFailure(res: { status: number; statusText: string }, text: string): LarkitError {
  return errors.api(`MCP HTTP ${res.status} ${res.statusText}: ${text.slice(0, 4000)}`, { code: res.status });
}

/** Calls one MCP tool as the identity and returns the tool's value. */
export async function callMcpTool(deps: McpDeps, call: McpToolCall): Promise<unknown> {
  const account = await deps.credentials.account();
  const token = await deps.credentials.token(call.identity, call.signal ?? deps.p.signal);
  const headers = new Headers({
    "Content-Type": "application/json",
    "User-Agent": `larkit/${deps.p.version}`,
    [call.identity === "user" ? "X-Lark-MCP-UAT" : "X-Lark-MCP-TAT"]: token.token,
    "X-Lark-MCP-Allowed-Tools": call.tool,
  });
  const body = JSON.stringify(toolCallRequest(deps.p.random.uuid(), call.tool, call.arguments));
  const res = await deps.http.send(account.endpoints.mcp, { method: "POST", headers, body }, {
    signal: call.signal,
    label: `MCP tools/call ${call.tool}`,
    idempotent: call.idempotent,
  });
  return readToolAnswer(res, await res.text(), call.identity);
}
