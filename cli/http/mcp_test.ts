import assert from "node:assert/strict";
import { LarkitError } from "../output/errors.ts";
import { classifyRpcError, plannedToolCall, readToolAnswer, unwrapToolResult } from "./mcp.ts";

const ok = { status: 200, statusText: "OK" };

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

Deno.test("a tool-reported failure is an mcp_error: isError, or an object with an error string", () => {
  const flagged = failure(() =>
    unwrapToolResult({ content: [{ type: "text", text: "quota exceeded" }], isError: true })
  );
  assert.deepEqual([flagged.subtype, flagged.message], ["mcp_error", "MCP: quota exceeded"]);
  const reported = failure(() =>
    unwrapToolResult({ content: [{ type: "text", text: '{"error":"bad markdown"}' }] })
  );
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

Deno.test("HTTP answers: non-JSON, 401, other HTTP failures, a {code,msg} body, and a success", () => {
  assert.match(failure(() => readToolAnswer(ok, "<html>", "user")).message, /^MCP returned non-JSON: <html>/);
  assert.equal(
    failure(() => readToolAnswer({ status: 401, statusText: "Unauthorized" }, "nope", "user")).subtype,
    "auth",
  );
  const http = failure(() => readToolAnswer({ status: 502, statusText: "Bad Gateway" }, "{}", "bot"));
  assert.deepEqual([http.subtype, http.message], ["api_error", "MCP HTTP 502 Bad Gateway: {}"]);
  assert.equal(
    failure(() => readToolAnswer(ok, '{"code":99991672,"msg":"denied"}', "bot")).subtype,
    "permission",
  );
  const answer = JSON.stringify({
    jsonrpc: "2.0",
    id: "1",
    result: { content: [{ type: "text", text: '{"a":1}' }] },
  });
  assert.deepEqual(readToolAnswer(ok, answer, "user"), { a: 1 });
  assert.equal(failure(() => readToolAnswer(ok, '{"jsonrpc":"2.0","id":"1"}', "user")).subtype, "mcp_error");
});

Deno.test("the dry-run form of a tool call names the endpoint and the tool", () => {
  assert.deepEqual(plannedToolCall("https://mcp.example/mcp", "fetch-doc", { doc: "d" }), {
    method: "POST",
    url: "https://mcp.example/mcp",
    body: { method: "tools/call", params: { name: "fetch-doc", arguments: { doc: "d" } } },
    description: "MCP tool: fetch-doc",
  });
});
