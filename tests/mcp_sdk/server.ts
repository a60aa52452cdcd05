/**
 * An MCP server built with the official SDK (`McpServer` + `StreamableHTTPServerTransport` on 127.0.0.1), with
 * the tool names and shapes the emulator's `/mcp` exposes: the server larkit's docs shortcuts are tested
 * against (tests/mcp_sdk_test.ts). Test-only, with its own config and lock (deno.json here), so the SDK and its
 * dependencies never reach larkit's own lock, nor a user's first run.
 *
 * `deno run -A --config tests/mcp_sdk/deno.json tests/mcp_sdk/server.ts [--json] [--sessions] [--stall] [--slow]`
 * prints `{"url": ...}` once listening. `--json`: plain JSON answers (`enableJsonResponse`), else SSE streams;
 * `--sessions`: the server issues `Mcp-Session-Id`s (`sessionIdGenerator`), else stateless; `--stall`: the
 * write tools do their work, report progress and then never answer; `--slow`: every tool reports progress six times, 500 ms
 * apart, before answering. A request without `X-Lark-MCP-UAT`/`X-Lark-MCP-TAT` is 401 with `WWW-Authenticate`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import * as z from "zod";

const JSON_MODE = Deno.args.includes("--json");
const SESSIONS = Deno.args.includes("--sessions");
const STALL = Deno.args.includes("--stall");
const SLOW = Deno.args.includes("--slow");

interface Doc {
  title: string;
  markdown: string;
  revision: number;
}
const docs = new Map<string, Doc>();
let made = 0;
let base = "";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const text = (value: unknown) => ({
  content: [{ type: "text" as const, text: JSON.stringify(value) }],
});
const failure = (code: number, msg: string) => ({
  ...text({ code, msg }),
  isError: true,
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function progress(
  extra: Extra,
  progress: number,
  total: number,
  message: string,
) {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return;
  await extra.sendNotification({
    method: "notifications/progress",
    params: { progressToken, progress, total, message },
  });
}

/** What a write does before it answers: a progress report, then (with --stall) nothing ever again. */
async function working(extra: Extra, write: boolean) {
  if (SLOW) {
    for (let i = 1; i <= 6; i++) {
      await progress(extra, i, 7, `step ${i}`);
      await sleep(500);
    }
  }
  if (JSON_MODE) return;
  await progress(extra, 1, 2, "converting markdown");
  if (STALL && write) await new Promise(() => {});
}

const docId = (ref: string) => ref.split("/").pop() ?? ref;

// The tools' argument shapes, as the emulator's `/mcp` declares them (sandbox/mcp.ts).
const CREATE = {
  markdown: z.string(),
  title: z.optional(z.string()),
  folder_token: z.optional(z.string()),
  wiki_node: z.optional(z.string()),
  wiki_space: z.optional(z.string()),
};
const FETCH = {
  doc: z.string().min(1),
  offset: z.optional(z.number().int().min(0)),
  limit: z.optional(z.number().int().min(1)),
};
const UPDATE = {
  doc: z.string().min(1),
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
};
/** What a callback receives for a shape (the SDK's own inference stops at its generic output parameter). */
type Args<S extends z.ZodRawShape> = z.infer<z.ZodObject<S>>;

function mcpServer(): McpServer {
  const server = new McpServer({ name: "sdk-docs", version: "1.0.0" });
  server.registerTool("create-doc", {
    description: "Create a cloud document from Lark-flavoured markdown.",
    inputSchema: CREATE,
  }, async (args: Args<typeof CREATE>, extra: Extra) => {
    const id = `doxcnSdk${String(++made).padStart(4, "0")}`;
    docs.set(id, {
      title: args.title ?? "",
      markdown: args.markdown,
      revision: 1,
    });
    // The work is done before the answer: a write that stalls here has happened, its answer is what is lost.
    await working(extra, true);
    return text({
      doc_id: id,
      doc_url: `${base}/docx/${id}`,
      message: "document created",
    });
  });
  server.registerTool("fetch-doc", {
    description: "Fetch a document as markdown.",
    inputSchema: FETCH,
  }, async (args: Args<typeof FETCH>, extra: Extra) => {
    await working(extra, false);
    const id = docId(args.doc);
    const doc = docs.get(id);
    if (!doc) return failure(1770002, `document not found: ${args.doc}`);
    const offset = args.offset ?? 0;
    const end = args.limit === undefined ? doc.markdown.length : offset + args.limit;
    return text({
      doc_id: id,
      title: doc.title,
      markdown: doc.markdown.slice(offset, end),
      total_length: doc.markdown.length,
      has_more: end < doc.markdown.length,
    });
  });
  server.registerTool("update-doc", {
    description: "Update a document: append or overwrite (the other modes are the emulator's).",
    inputSchema: UPDATE,
  }, async (args: Args<typeof UPDATE>, extra: Extra) => {
    const id = docId(args.doc);
    const doc = docs.get(id);
    if (!doc) return failure(1770002, `document not found: ${args.doc}`);
    if (args.mode !== "append" && args.mode !== "overwrite") {
      return failure(
        99992402,
        `field validation failed: mode ${args.mode} is not offered by this server`,
      );
    }
    doc.markdown = args.mode === "append" ? doc.markdown + (args.markdown ?? "") : args.markdown ?? "";
    if (args.new_title !== undefined) doc.title = args.new_title;
    doc.revision++;
    await working(extra, true);
    return text({
      doc_id: id,
      revision: doc.revision,
      message: "document updated",
    });
  });
  return server;
}

/** Stateful: one transport (and server) per session, found by its id; stateless: a new pair per request. */
const transports = new Map<string, StreamableHTTPServerTransport>();

async function transportFor(
  req: IncomingMessage,
): Promise<StreamableHTTPServerTransport | undefined> {
  const id = req.headers["mcp-session-id"];
  if (SESSIONS && typeof id === "string") return transports.get(id);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: SESSIONS ? () => crypto.randomUUID() : undefined,
    enableJsonResponse: JSON_MODE,
    onsessioninitialized: (sid: string) => void transports.set(sid, transport),
  });
  await mcpServer().connect(transport);
  return transport;
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  if (!req.headers["x-lark-mcp-uat"] && !req.headers["x-lark-mcp-tat"]) {
    res.writeHead(401, {
      "content-type": "application/json",
      "www-authenticate": 'Bearer realm="mcp"',
    });
    res.end(
      JSON.stringify({
        jsonrpc: "2.0",
        id: null,
        error: { code: 99991661, message: "missing token" },
      }),
    );
    return;
  }
  const transport = await transportFor(req);
  if (!transport) {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32001, message: "Session not found" },
      }),
    );
    return;
  }
  await transport.handleRequest(req, res);
}

const http = createServer((req, res) => {
  handle(req, res).catch((e) => {
    if (!res.headersSent) res.writeHead(500);
    res.end(String(e));
  });
});
http.listen(0, "127.0.0.1", () => {
  const { port } = http.address() as { port: number };
  base = `http://127.0.0.1:${port}`;
  console.log(JSON.stringify({ url: `${base}/mcp` }));
});
