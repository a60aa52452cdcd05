/**
 * The suite's MCP endpoint (`POST /mcp`): JSON-RPC 2.0 with `initialize`, `tools/list` and `tools/call` for the
 * docs tools `create-doc`, `fetch-doc` and `update-doc`. Credentials come in `X-Lark-MCP-UAT` (user) or
 * `X-Lark-MCP-TAT` (bot), never `Authorization`; a tool result is `content: [{type: "text", text: <JSON>}]`.
 */
import * as z from "zod";
// JSON Schema conversion only the emulator needs: taken from zod's core, so larkit's own bundle stays without it
// (cli/vendor/zod/entry.ts).
import { toJSONSchema } from "zod-npm/v4/core";
import { type Caller, callerFromToken, checkScopes } from "./auth.ts";
import { applyUpdate } from "./doc_edit.ts";
import { createDoc, docUrl, findDoc, saveDoc } from "./docs_store.ts";
import { isReply, json, type Reply } from "./reply.ts";
import type { RequestCtx, Route } from "./router.ts";
import { CREATE_DOC, READ_DOC, WRITE_DOC } from "./scopes.ts";
import type { EmulatorState } from "./state.ts";

const RpcRequest = z.object({
  jsonrpc: z.literal("2.0"),
  id: z.optional(z.union([z.string(), z.number()])),
  method: z.string(),
  params: z.optional(z.record(z.string(), z.unknown())),
});

type Id = string | number | null;

const CreateArgs = z.object({
  markdown: z.string(),
  title: z.optional(z.string()),
  folder_token: z.optional(z.string()),
  wiki_node: z.optional(z.string()),
  wiki_space: z.optional(z.string()),
});
const FetchArgs = z.object({
  doc: z.string().check(z.minLength(1)),
  offset: z.optional(z.number().check(z.int(), z.minimum(0))),
  limit: z.optional(z.number().check(z.int(), z.minimum(1))),
});
const UpdateArgs = z.object({
  doc: z.string().check(z.minLength(1)),
  mode: z.enum([
    "append",
    "overwrite",
    "replace_range",
    "replace_all",
    "insert_before",
    "insert_after",
    "delete_range",
  ]),
  markdown: z.optional(z.string()),
  selection_with_ellipsis: z.optional(z.string()),
  selection_by_title: z.optional(z.string()),
  new_title: z.optional(z.string()),
});

interface Tool {
  description: string;
  schema: z.ZodMiniType;
  scopes: string[];
  run(st: EmulatorState, caller: Caller, args: never): ToolOutcome;
}

type ToolOutcome = { ok: true; value: unknown } | { ok: false; code: number; message: string };

/** Docs error code for a missing document (docx "not found"). */
const DOC_NOT_FOUND = 1770002;

const TOOLS: Record<string, Tool> = {
  "create-doc": {
    description: "Create a cloud document from Lark-flavoured markdown.",
    schema: CreateArgs,
    scopes: CREATE_DOC,
    run(st, caller, args: z.infer<typeof CreateArgs>) {
      const doc = createDoc(st, caller.openId, args.markdown, args.title, args.folder_token ?? "");
      return {
        ok: true,
        value: { doc_id: doc.document_id, doc_url: docUrl(st, doc.document_id), message: "document created" },
      };
    },
  },
  "fetch-doc": {
    description: "Fetch a document as markdown; `offset`/`limit` page through long documents by characters.",
    schema: FetchArgs,
    scopes: READ_DOC,
    run(st, _caller, args: z.infer<typeof FetchArgs>) {
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
    schema: UpdateArgs,
    scopes: WRITE_DOC,
    run(st, _caller, args: z.infer<typeof UpdateArgs>) {
      const doc = findDoc(st, args.doc);
      if (!doc) return { ok: false, code: DOC_NOT_FOUND, message: `document not found: ${args.doc}` };
      const edited = applyUpdate(doc.markdown, args);
      if (!edited.ok) return { ok: false, code: -32602, message: edited.error };
      const saved = saveDoc(st, doc, edited.markdown, args.new_title);
      return {
        ok: true,
        value: { doc_id: saved.document_id, revision: saved.revision, message: "document updated" },
      };
    },
  },
};

function rpcError(id: Id, code: number, message: string, status = 200, data?: unknown): Reply {
  return json(
    { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } },
    status,
  );
}

function rpcResult(id: Id, result: unknown): Reply {
  return json({ jsonrpc: "2.0", id, result });
}

function mcpCaller(ctx: RequestCtx): Caller | Reply {
  const uat = ctx.req.headers.get("x-lark-mcp-uat");
  const tat = ctx.req.headers.get("x-lark-mcp-tat");
  const token = uat ?? tat;
  if (!token) {
    return rpcError(null, 99991661, "Missing access token: send X-Lark-MCP-UAT or X-Lark-MCP-TAT.", 401);
  }
  const caller = callerFromToken(ctx.st, token);
  if (isReply(caller)) {
    const msg = caller.kind === "suite" ? caller.msg : "invalid access token";
    const code = caller.kind === "suite" ? caller.code : 99991663;
    return rpcError(null, code, msg, 401);
  }
  return caller;
}

function callTool(ctx: RequestCtx, caller: Caller, id: Id, params: Record<string, unknown>): Reply {
  const name = typeof params.name === "string" ? params.name : "";
  const tool = TOOLS[name];
  if (!tool) return rpcError(id, -32602, `unknown tool: ${name}`);
  const allowed = ctx.req.headers.get("x-lark-mcp-allowed-tools");
  if (allowed && !allowed.split(",").map((s) => s.trim()).includes(name)) {
    return rpcError(id, -32602, `tool ${name} is not in X-Lark-MCP-Allowed-Tools`);
  }
  const denied = checkScopes(caller, tool.scopes);
  if (denied?.kind === "suite") return rpcError(id, denied.code, denied.msg, 200, denied.error);
  const args = tool.schema.safeParse(params.arguments ?? {});
  if (!args.success) {
    return rpcError(
      id,
      -32602,
      `invalid arguments: ${args.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  }
  const out = tool.run(ctx.st, caller, args.data as never);
  if (!out.ok) return rpcError(id, out.code, out.message);
  return rpcResult(id, { content: [{ type: "text", text: JSON.stringify(out.value) }] });
}

export const mcpRoutes: Route[] = [
  {
    method: "POST",
    path: "/mcp",
    auth: "none",
    handle(ctx) {
      let raw: unknown;
      try {
        raw = JSON.parse(new TextDecoder().decode(ctx.bytes));
      } catch {
        return rpcError(null, -32700, "parse error");
      }
      const req = RpcRequest.safeParse(raw);
      if (!req.success) return rpcError(null, -32600, "invalid request");
      const id = req.data.id ?? null;
      const caller = mcpCaller(ctx);
      if (isReply(caller)) return caller;
      switch (req.data.method) {
        case "initialize":
          return rpcResult(id, {
            protocolVersion: "2025-03-26",
            capabilities: { tools: {} },
            serverInfo: { name: "larkit-sandbox-mcp", version: "0.1.0" },
          });
        case "tools/list":
          return rpcResult(id, {
            tools: Object.entries(TOOLS).map(([name, t]) => ({
              name,
              description: t.description,
              inputSchema: toJSONSchema(t.schema),
            })),
          });
        case "tools/call":
          return callTool(ctx, caller, id, req.data.params ?? {});
        default:
          return rpcError(id, -32601, `method not found: ${req.data.method}`);
      }
    },
  },
];
