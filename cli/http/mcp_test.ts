import assert from "node:assert/strict";
import { LarkitError } from "../output/errors.ts";
import { classifyRpcError, httpFailure, plannedToolCall, readToolResponse, unwrapToolResult } from "./mcp.ts";

function failure(fn: () => unknown): LarkitError {
  try {
    fn();
  } catch (e) {
    if (e instanceof LarkitError) return e;
    throw e;
  }
  throw new Error("expected a LarkitError");
}

Deno.test("a tool result: nested results unwrapped, one JSON text parsed, several texts joined, strings wrapped", () => {
  const text = (t: string) => ({ type: "text", text: t });
  assert.deepEqual(unwrapToolResult({ result: { content: [text('{"doc_id":"d1"}')] } }), { doc_id: "d1" });
  assert.deepEqual(unwrapToolResult({ content: [text("line 1"), text("line 2")] }), {
    message: "line 1\nline 2",
  });
  assert.deepEqual(unwrapToolResult({ content: [text("not json")] }), { message: "not json" });
  assert.deepEqual(unwrapToolResult({ doc_id: "d2" }), { doc_id: "d2" });
});

Deno.test("a tool-reported failure: a suite {code, msg} is classified as OpenAPI would, other text is mcp_error", () => {
  const text = (t: string) => ({ type: "text", text: t });
  const coded = failure(() =>
    unwrapToolResult({ content: [text('{"code":1770002,"msg":"document not found"}')], isError: true })
  );
  assert.deepEqual([coded.subtype, coded.message], ["api_error", "MCP: [1770002] document not found"]);
  const scope = failure(() =>
    unwrapToolResult({
      content: [text(JSON.stringify({
        code: 99991672,
        msg: "Access denied",
        error: { permission_violations: [{ subject: "docx:document:create" }] },
      }))],
      isError: true,
    }, "bot")
  );
  assert.deepEqual([scope.subtype, scope.body.missing_scopes], ["permission", ["docx:document:create"]]);
  const flagged = failure(() => unwrapToolResult({ content: [text("quota exceeded")], isError: true }));
  assert.deepEqual([flagged.subtype, flagged.message], ["mcp_error", "MCP: quota exceeded"]);
  const reported = failure(() => unwrapToolResult({ content: [text('{"error":"bad markdown"}')] }));
  assert.deepEqual([reported.subtype, reported.message], ["mcp_error", "MCP: bad markdown"]);
});

Deno.test("JSON-RPC errors are classified like OpenAPI codes; protocol codes are mcp_error", () => {
  assert.equal(classifyRpcError({ code: 99991663, message: "token invalid" }, 401, "user").subtype, "auth");
  assert.match(
    classifyRpcError({ code: 99991663, message: "token invalid" }, 401, "user").hint ?? "",
    /auth login/,
  );
  assert.equal(classifyRpcError({ code: 99991672, message: "no scope" }, 200, "bot").subtype, "permission");
  assert.equal(
    classifyRpcError({ code: 12345, message: "access token expired" }, 200, "user").subtype,
    "auth",
  );
  const business = classifyRpcError({ code: 1770002, message: "document not found" }, 200, "user");
  assert.deepEqual([business.subtype, business.message], ["api_error", "MCP: [1770002] document not found"]);
  assert.equal(classifyRpcError({ code: -32602, message: "unknown tool" }, 200, "user").subtype, "mcp_error");
});

Deno.test("HTTP failures map as the OpenAPI path maps them: 401 auth, 429 rate_limit, 5xx network retryable only for reads", () => {
  const status = (n: number, t: string) => ({ status: n, statusText: t, headers: new Headers() });
  const auth = httpFailure(status(401, "Unauthorized"), "nope", "user", false);
  assert.deepEqual([auth.subtype, auth.exitCode], ["auth", 3]);
  assert.equal(httpFailure(status(429, "Too Many Requests"), "", "user", false).subtype, "rate_limit");
  const read = httpFailure(status(502, "Bad Gateway"), "<html>", "bot", true);
  assert.deepEqual([read.subtype, read.body.retryable, read.message], [
    "network",
    true,
    "MCP HTTP 502 Bad Gateway: <html>",
  ]);
  const write = httpFailure(status(503, "Unavailable"), "", "bot", false);
  assert.deepEqual([write.subtype, write.body.retryable], ["network", false]);
  const rpc = httpFailure(
    status(500, "Internal"),
    '{"jsonrpc":"2.0","id":null,"error":{"code":1770002,"message":"boom"}}',
    "user",
    true,
  );
  assert.deepEqual([rpc.subtype, rpc.body.retryable], ["api_error", true]);
  const refused = httpFailure(
    status(406, "Not Acceptable"),
    '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Not Acceptable"}}',
    "user",
    false,
  );
  assert.equal(refused.subtype, "mcp_error");
  assert.equal(
    httpFailure(status(400, "Bad Request"), '{"code":99991672,"msg":"denied"}', "bot", false).subtype,
    "permission",
  );
  assert.equal(httpFailure(status(400, "Bad Request"), "nope", "bot", false).subtype, "api_error");
});

Deno.test("a JSON-RPC response: a result is unwrapped, an error classified, neither is an mcp_error", () => {
  const result = { content: [{ type: "text", text: '{"a":1}' }] };
  assert.deepEqual(readToolResponse({ jsonrpc: "2.0", id: "1", result }, "user"), { a: 1 });
  const error = { code: 99991663, message: "token invalid" };
  assert.equal(failure(() => readToolResponse({ jsonrpc: "2.0", id: "1", error }, "user")).subtype, "auth");
  assert.equal(failure(() => readToolResponse({ jsonrpc: "2.0", id: "1" }, "user")).subtype, "mcp_error");
});

Deno.test("the dry-run form of a tool call names the endpoint and the tool", () => {
  assert.deepEqual(plannedToolCall("https://mcp.example/mcp", "fetch-doc", { doc: "d" }), {
    method: "POST",
    url: "https://mcp.example/mcp",
    body: { method: "tools/call", params: { name: "fetch-doc", arguments: { doc: "d" } } },
    description: "MCP tool: fetch-doc",
  });
});
