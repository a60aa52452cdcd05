/**
 * The suite's MCP endpoint (`/mcp`) by the Streamable HTTP transport, as strictly as the official SDK's server:
 * `POST` only with `Accept: application/json, text/event-stream` (406 otherwise) and a JSON body (415); a session
 * is opened by `initialize` (its `Mcp-Session-Id` is required on every later message: 400 without, 404 when
 * unknown or ended by `DELETE`); `MCP-Protocol-Version` must be a revision the server speaks (400); notifications
 * and responses are answered 202 with no body; JSON-RPC batches only in a session that negotiated 2025-03-26;
 * `ping`, `tools/list`, `tools/call` for the docs tools `create-doc`, `fetch-doc` and `update-doc`, whose
 * arguments are held to their declared input schemas (`registry/mcp_tools.json`, closed unless the emulator runs
 * with lenient fields). A tool's failure (bad arguments, a missing document, a missing scope) is a result with
 * `isError: true` whose text holds the suite's `{code, msg}` (and, for bad arguments, `error.field_violations`);
 * JSON-RPC errors are for protocol errors (unknown method or tool, malformed messages).
 * Credentials come in `X-Lark-MCP-UAT` (user) or `X-Lark-MCP-TAT` (bot), never `Authorization`; a missing or bad
 * one is 401 with `WWW-Authenticate`. A tool result is `content: [{type: "text", text: <JSON>}]`.
 */
import * as z from "zod";
import { type Caller, callerFromToken, checkScopes } from "./auth.ts";
import { applyUpdate } from "./doc_edit.ts";
import { createDoc, docUrl, findDoc, saveDoc } from "./docs_store.ts";
import { isReply, json, type Reply } from "./reply.ts";
import type { RequestCtx, Route } from "./router.ts";
import { CREATE_DOC, READ_DOC, WRITE_DOC } from "./scopes.ts";
import type { EmulatorState } from "./state.ts";
import { mcpArgumentProblems } from "./request_check.ts";
import mcpTools from "../registry/mcp_tools.json" with { type: "json" };

/** A tool's input schema as `tools/list` shows it: the one its arguments are held to (closed unless lenient). */
function inputSchemaOf(st: EmulatorState, name: string): Record<string, unknown> {
  const schema = (mcpTools.tools as Record<string, Record<string, unknown>>)[name];
  return st.lenientFields ? schema : { ...schema, additionalProperties: false };
}

/** The revisions the endpoint speaks, newest first; an `initialize` asking for another gets the newest. */
const MCP_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;
/** The revision that still allows JSON-RPC batches (2025-06-18 removed them). */
const BATCH_VERSION = "2025-03-26";

const Id = z.union([z.string(), z.number()]);
type Id = z.infer<typeof Id> | null;

const RpcRequest = z.object({
  jsonrpc: z.literal("2.0"),
  id: Id,
  method: z.string(),
  params: z.optional(z.record(z.string(), z.unknown())),
});
const RpcNotification = z.object({
  jsonrpc: z.literal("2.0"),
  method: z.string(),
  params: z.optional(z.record(z.string(), z.unknown())),
});
const RpcResponse = z.object({
  jsonrpc: z.literal("2.0"),
  id: Id,
  result: z.optional(z.unknown()),
  error: z.optional(z.object({ code: z.number(), message: z.string(), data: z.optional(z.unknown()) })),
});
type Message =
  | { kind: "request"; id: Exclude<Id, null>; method: string; params: Record<string, unknown> }
  | { kind: "notification"; method: string; params: Record<string, unknown> }
  | { kind: "response" };

function messageOf(raw: unknown): Message | undefined {
  const req = RpcRequest.safeParse(raw);
  if (req.success && req.data.id !== null) {
    return { kind: "request", id: req.data.id, method: req.data.method, params: req.data.params ?? {} };
  }
  const note = RpcNotification.safeParse(raw);
  if (note.success && !Object.hasOwn(raw as object, "id")) {
    return { kind: "notification", method: note.data.method, params: note.data.params ?? {} };
  }
  const res = RpcResponse.safeParse(raw);
  if (res.success && (res.data.result !== undefined) !== (res.data.error !== undefined)) {
    return { kind: "response" };
  }
  return undefined;
}

interface Session {
  version: string;
  /** The caller that opened it: another token cannot use it. */
  owner: string;
}

/** Open sessions per emulator (a restart forgets them, as a server restart does: clients re-initialize). */
const SESSIONS = new WeakMap<EmulatorState, Map<string, Session>>();

function sessionsOf(st: EmulatorState): Map<string, Session> {
  let map = SESSIONS.get(st);
  if (!map) SESSIONS.set(st, map = new Map());
  return map;
}

/**
 * The tools' arguments, as their declared input schemas (`registry/mcp_tools.json`) type them: `callTool`
 * holds the arguments to those schemas (`mcpArgumentProblems`) before a tool runs.
 */
interface CreateArgs {
  markdown: string;
  title?: string;
  folder_token?: string;
  wiki_node?: string;
  wiki_space?: string;
}
interface FetchArgs {
  doc: string;
  offset?: number;
  limit?: number;
}
type UpdateArgs = Parameters<typeof applyUpdate>[1] & { doc: string; new_title?: string };

interface Tool {
  description: string;
  scopes: string[];
  run(st: EmulatorState, caller: Caller, args: never): ToolOutcome;
}

type ToolOutcome = { ok: true; value: unknown } | { ok: false; code: number; message: string };

/** Docs error code for a missing document (docx "not found"). */
const DOC_NOT_FOUND = 1770002;
/** The suite's "field validation failed": arguments the tool cannot use. */
const INVALID_PARAM = 99992402;

const TOOLS: Record<string, Tool> = {
  "create-doc": {
    description: "Create a cloud document from Lark-flavoured markdown.",
    scopes: CREATE_DOC,
    run(st, caller, args: CreateArgs) {
      const doc = createDoc(st, caller.openId, args.markdown, args.title, args.folder_token ?? "");
      return {
        ok: true,
        value: { doc_id: doc.document_id, doc_url: docUrl(st, doc.document_id), message: "document created" },
      };
    },
  },
  "fetch-doc": {
    description: "Fetch a document as markdown; `offset`/`limit` page through long documents by characters.",
    scopes: READ_DOC,
    run(st, _caller, args: FetchArgs) {
      const doc = findDoc(st, args.doc);
      if (!doc) return { ok: false, code: DOC_NOT_FOUND, message: `document not found: ${args.doc}` };
      const offset = args.offset ?? 0;
      const end = args.limit === undefined ? doc.markdown.length : offset + args.limit;
      return {
        ok: true,
        value: {
          doc_id: doc.document_id,
          title: doc.title,
          markdown: doc.markdown.slice(offset, end),
          total_length: doc.markdown.length,
          has_more: end < doc.markdown.length,
        },
      };
    },
  },
  "update-doc": {
    description: "Update a document: append, overwrite, or edit a selection (by ellipsis or by title).",
    scopes: WRITE_DOC,
    run(st, _caller, args: UpdateArgs) {
      const doc = findDoc(st, args.doc);
      if (!doc) return { ok: false, code: DOC_NOT_FOUND, message: `document not found: ${args.doc}` };
      const edited = applyUpdate(doc.markdown, args);
      if (!edited.ok) return { ok: false, code: INVALID_PARAM, message: edited.error };
      const saved = saveDoc(st, doc, edited.markdown, args.new_title);
      return {
        ok: true,
        value: { doc_id: saved.document_id, revision: saved.revision, message: "document updated" },
      };
    },
  },
};

const MCP_HEADERS = { "cache-control": "no-store" };

function rpcError(
  id: Id,
  code: number,
  message: string,
  status = 200,
  headers?: Record<string, string>,
): Reply {
  return json({ jsonrpc: "2.0", id, error: { code, message } }, status, { ...MCP_HEADERS, ...headers });
}

/** A transport-level refusal, worded as the official SDK's server words it (JSON-RPC error, id null). */
function refuse(status: number, code: number, message: string, headers?: Record<string, string>): Reply {
  return rpcError(null, code, message, status, headers);
}

const accepted = (): Reply => ({ kind: "raw", status: 202, body: null, headers: MCP_HEADERS });

interface Answer {
  id: Exclude<Id, null>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** A tool's own failure: a result the model can read, carrying the suite's `{code, msg}`. */
function toolFailure(code: number, msg: string, error?: unknown): unknown {
  const text = JSON.stringify(error === undefined ? { code, msg } : { code, msg, error });
  return { content: [{ type: "text", text }], isError: true };
}

function callTool(ctx: RequestCtx, caller: Caller, params: Record<string, unknown>): Omit<Answer, "id"> {
  const name = typeof params.name === "string" ? params.name : "";
  const tool = TOOLS[name];
  if (!tool) return { error: { code: -32602, message: `unknown tool: ${name}` } };
  const allowed = ctx.req.headers.get("x-lark-mcp-allowed-tools");
  if (allowed && !allowed.split(",").map((s) => s.trim()).includes(name)) {
    return { error: { code: -32602, message: `tool ${name} is not in X-Lark-MCP-Allowed-Tools` } };
  }
  const denied = checkScopes(caller, tool.scopes);
  if (denied?.kind === "suite") return { result: toolFailure(denied.code, denied.msg, denied.error) };
  const args = params.arguments ?? {};
  const problems = mcpArgumentProblems(name, args, { lenientFields: ctx.st.lenientFields }) ?? [];
  if (problems.length) {
    const detail = problems.map((p) => `${p.field || "arguments"}: ${p.description}`).join("; ");
    return {
      result: toolFailure(INVALID_PARAM, `field validation failed: ${detail}`, {
        field_violations: problems,
      }),
    };
  }
  const out = tool.run(ctx.st, caller, args as never);
  if (!out.ok) return { result: toolFailure(out.code, out.message) };
  return { result: { content: [{ type: "text", text: JSON.stringify(out.value) }] } };
}

/** One request inside a session (or `initialize`, which opens one). */
function answer(
  ctx: RequestCtx,
  caller: Caller,
  req: Extract<Message, { kind: "request" }>,
): Omit<Answer, "id"> {
  switch (req.method) {
    case "ping":
      return { result: {} };
    case "tools/list":
      return {
        result: {
          tools: Object.entries(TOOLS).map(([name, t]) => ({
            name,
            description: t.description,
            inputSchema: inputSchemaOf(ctx.st, name),
          })),
        },
      };
    case "tools/call":
      return callTool(ctx, caller, req.params);
    default:
      return { error: { code: -32601, message: `Method not found: ${req.method}` } };
  }
}

const InitializeParams = z.looseObject({
  protocolVersion: z.string(),
  capabilities: z.record(z.string(), z.unknown()),
  clientInfo: z.looseObject({ name: z.string(), version: z.string() }),
});

function initialize(ctx: RequestCtx, caller: Caller, req: Extract<Message, { kind: "request" }>): Reply {
  const params = InitializeParams.safeParse(req.params);
  if (!params.success) {
    return rpcError(
      req.id,
      -32602,
      "Invalid params: initialize needs protocolVersion, capabilities and clientInfo",
    );
  }
  const asked = params.data.protocolVersion;
  const version = (MCP_VERSIONS as readonly string[]).includes(asked) ? asked : MCP_VERSIONS[0];
  const id = crypto.randomUUID();
  sessionsOf(ctx.st).set(id, { version, owner: ownerOf(caller) });
  return json(
    {
      jsonrpc: "2.0",
      id: req.id,
      result: {
        protocolVersion: version,
        capabilities: { tools: {} },
        serverInfo: { name: "larkit-sandbox-mcp", version: "0.2.0" },
      },
    },
    200,
    { ...MCP_HEADERS, "mcp-session-id": id },
  );
}

const ownerOf = (caller: Caller) => `${caller.appId} ${caller.kind} ${caller.openId}`;

function challenge(error?: string): Record<string, string> {
  return {
    "www-authenticate": error
      ? `Bearer realm="mcp", error="${error}", error_description="send a valid X-Lark-MCP-UAT or X-Lark-MCP-TAT"`
      : `Bearer realm="mcp"`,
  };
}

function mcpCaller(ctx: RequestCtx): Caller | Reply {
  const token = ctx.req.headers.get("x-lark-mcp-uat") ?? ctx.req.headers.get("x-lark-mcp-tat");
  if (!token) {
    return refuse(401, 99991661, "Missing access token: send X-Lark-MCP-UAT or X-Lark-MCP-TAT.", challenge());
  }
  const caller = callerFromToken(ctx.st, token);
  if (isReply(caller)) {
    const msg = caller.kind === "suite" ? caller.msg : "invalid access token";
    const code = caller.kind === "suite" ? caller.code : 99991663;
    return refuse(401, code, msg, challenge("invalid_token"));
  }
  return caller;
}

/**
 * The session a message names: 400 without `Mcp-Session-Id`, 404 for one not open (or opened by another
 * caller), 400 for an `MCP-Protocol-Version` other than the one it negotiated.
 */
function sessionOf(ctx: RequestCtx, caller: Caller): Session | Reply {
  const id = ctx.req.headers.get("mcp-session-id");
  if (!id) return refuse(400, -32000, "Bad Request: Mcp-Session-Id header is required");
  const session = sessionsOf(ctx.st).get(id);
  if (!session || session.owner !== ownerOf(caller)) return refuse(404, -32001, "Session not found");
  const version = ctx.req.headers.get("mcp-protocol-version");
  if (version !== null && version !== session.version) {
    return refuse(
      400,
      -32000,
      `Bad Request: Unsupported protocol version: ${version} (this session speaks ${session.version})`,
    );
  }
  return session;
}

function post(ctx: RequestCtx): Reply {
  const caller = mcpCaller(ctx);
  if (isReply(caller)) return caller;
  const accept = ctx.req.headers.get("accept") ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
    return refuse(
      406,
      -32000,
      "Not Acceptable: Client must accept both application/json and text/event-stream",
    );
  }
  if (!(ctx.req.headers.get("content-type") ?? "").includes("application/json")) {
    return refuse(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
  }
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(ctx.bytes));
  } catch {
    return refuse(400, -32700, "Parse error: Invalid JSON");
  }
  const batch = Array.isArray(raw);
  const messages = (batch ? raw as unknown[] : [raw]).map(messageOf);
  if (messages.length === 0 || messages.some((m) => m === undefined)) {
    return refuse(400, -32700, "Parse error: Invalid JSON-RPC message");
  }
  const all = messages as Message[];
  const init = all.find((m) => m.kind === "request" && m.method === "initialize");
  if (init) {
    if (batch) return refuse(400, -32600, "Invalid Request: initialize must not be part of a batch");
    if (ctx.req.headers.get("mcp-session-id")) {
      return refuse(400, -32600, "Invalid Request: Server already initialized");
    }
    return initialize(ctx, caller, init as Extract<Message, { kind: "request" }>);
  }
  const session = sessionOf(ctx, caller);
  if (isReply(session)) return session;
  if (batch && session.version !== BATCH_VERSION) {
    return refuse(400, -32600, `Invalid Request: batches are not part of protocol ${session.version}`);
  }
  const answers: Answer[] = [];
  for (const m of all) {
    if (m.kind === "request") answers.push({ id: m.id, ...answer(ctx, caller, m) });
  }
  if (answers.length === 0) return accepted();
  const bodies = answers.map((a) => ({ jsonrpc: "2.0", ...a }));
  return json(batch ? bodies : bodies[0], 200, MCP_HEADERS);
}

/** `DELETE /mcp` ends the session it names; later messages in it get 404. */
function end(ctx: RequestCtx): Reply {
  const caller = mcpCaller(ctx);
  if (isReply(caller)) return caller;
  const session = sessionOf(ctx, caller);
  if (isReply(session)) return session;
  sessionsOf(ctx.st).delete(ctx.req.headers.get("mcp-session-id") as string);
  return { kind: "raw", status: 200, body: null, headers: MCP_HEADERS };
}

export const mcpRoutes: Route[] = [
  { method: "POST", path: "/mcp", auth: "none", handle: post },
  { method: "DELETE", path: "/mcp", auth: "none", handle: end },
];
