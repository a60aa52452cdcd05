import assert from "node:assert/strict";
import { startEmulator } from "./server.ts";
import { tenantToken, userToken } from "../tests/helpers/emulator.ts";
import { call } from "./test_http.ts";
import { DOCS } from "./fixtures.ts";
import { CREATE_DOC } from "./scopes.ts";

type Emu = Awaited<ReturnType<typeof startEmulator>>;

const ACCEPT = "application/json, text/event-stream";

interface RpcBody {
  jsonrpc: string;
  id: string | null;
  result?: {
    content?: { type: string; text: string }[];
    isError?: boolean;
    tools?: { name: string }[];
    protocolVersion?: string;
  };
  error?: { code: number; message: string };
}

/** One POST to /mcp as the official SDK's client sends it (unless `headers` says otherwise). */
async function post(emu: Emu, headers: Record<string, string>, body: unknown) {
  const res = await fetch(`${emu.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

/** initialize + notifications/initialized: the headers every later message of the session carries. */
async function session(emu: Emu, auth: Record<string, string>, version = "2025-11-25") {
  const init = await post(emu, auth, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "test", version: "1" } },
  });
  assert.equal(init.status, 200, init.text);
  const id = init.headers.get("mcp-session-id");
  assert.ok(id);
  const h = { ...auth, "mcp-session-id": id, "mcp-protocol-version": init.body.result.protocolVersion };
  const note = await post(emu, h, { jsonrpc: "2.0", method: "notifications/initialized" });
  assert.deepEqual([note.status, note.text], [202, ""]);
  return h;
}

async function rpc(emu: Emu, headers: Record<string, string>, method: string, params?: unknown) {
  const r = await post(emu, headers, { jsonrpc: "2.0", id: "req-1", method, params });
  return { status: r.status, body: r.body as RpcBody };
}

/** The tool payload: `result.content[0]` is one `type: "text"` item holding JSON. */
function payload(r: Awaited<ReturnType<typeof rpc>>): Record<string, unknown> {
  const content = r.body.result?.content ?? [];
  assert.equal(content.length, 1);
  assert.equal(content[0].type, "text");
  return JSON.parse(content[0].text);
}

/** A tool's own failure: an `isError` result holding the suite's {code, msg}. */
function toolFailure(r: Awaited<ReturnType<typeof rpc>>): { code: number; msg: string } {
  assert.equal(r.body.error, undefined);
  assert.equal(r.body.result?.isError, true);
  return payload(r) as { code: number; msg: string };
}

Deno.test("tools/list names create-doc, fetch-doc, update-doc with input schemas", async () => {
  const emu = await startEmulator();
  try {
    const h = await session(emu, { "X-Lark-MCP-TAT": await tenantToken(emu) });
    const r = await rpc(emu, h, "tools/list");
    assert.equal(r.body.jsonrpc, "2.0");
    assert.equal(r.body.id, "req-1");
    assert.deepEqual(r.body.result?.tools?.map((t) => t.name), ["create-doc", "fetch-doc", "update-doc"]);
  } finally {
    await emu.stop();
  }
});

Deno.test("create-doc → {doc_id, doc_url, message}; fetch-doc returns the markdown; update-doc edits it", async () => {
  const emu = await startEmulator();
  try {
    const uat = (await userToken(emu)).access_token;
    const h = await session(emu, { "X-Lark-MCP-UAT": uat });
    const created = payload(
      await rpc(emu, h, "tools/call", {
        name: "create-doc",
        arguments: { markdown: "# Notes\n\nHello.\n", title: "Notes" },
      }),
    );
    assert.match(String(created.doc_id), /^doxcn/);
    assert.equal(created.doc_url, `${emu.url}/docx/${created.doc_id}`);
    assert.ok(created.message);

    const fetched = payload(
      await rpc(emu, h, "tools/call", { name: "fetch-doc", arguments: { doc: String(created.doc_url) } }),
    );
    assert.equal(fetched.markdown, "# Notes\n\nHello.\n");
    assert.equal(fetched.title, "Notes");
    const part = payload(
      await rpc(emu, h, "tools/call", {
        name: "fetch-doc",
        arguments: { doc: created.doc_id, offset: 2, limit: 5 },
      }),
    );
    assert.equal(part.markdown, "Notes");
    assert.equal(part.has_more, true);

    const updated = payload(
      await rpc(emu, h, "tools/call", {
        name: "update-doc",
        arguments: { doc: created.doc_id, mode: "append", markdown: "More.\n" },
      }),
    );
    assert.equal(updated.revision, 2);
    const raw = await call(emu.url, "GET", `/open-apis/docx/v1/documents/${created.doc_id}/raw_content`, {
      token: uat,
    });
    assert.equal(raw.body.data?.content, "Notes\n\nHello.\nMore.\n");
    const meta = await call(emu.url, "GET", `/open-apis/docx/v1/documents/${created.doc_id}`, { token: uat });
    assert.deepEqual(meta.body.data?.document, {
      document_id: created.doc_id,
      revision_id: 2,
      title: "Notes",
    });
  } finally {
    await emu.stop();
  }
});

Deno.test("tool failures are isError results with the suite's code; protocol errors are JSON-RPC errors", async () => {
  const emu = await startEmulator();
  try {
    const h = await session(emu, { "X-Lark-MCP-TAT": await tenantToken(emu) });
    assert.equal((await rpc(emu, h, "tools/call", { name: "nope", arguments: {} })).body.error?.code, -32602);
    assert.equal(
      toolFailure(await rpc(emu, h, "tools/call", { name: "create-doc", arguments: {} })).code,
      99992402,
    );
    assert.deepEqual(
      toolFailure(await rpc(emu, h, "tools/call", { name: "fetch-doc", arguments: { doc: "doxcnMissing" } })),
      { code: 1770002, msg: "document not found: doxcnMissing" },
    );
    assert.ok(
      payload(await rpc(emu, h, "tools/call", { name: "fetch-doc", arguments: { doc: DOCS.handbook } })),
    );
    emu.revokeScopes("tenant", CREATE_DOC);
    const denied = await rpc(emu, h, "tools/call", { name: "create-doc", arguments: { markdown: "x" } });
    assert.equal(toolFailure(denied).code, 99991672);
    assert.equal((await rpc(emu, h, "resources/list")).body.error?.code, -32601);
    const notAllowed = await rpc(emu, { ...h, "X-Lark-MCP-Allowed-Tools": "fetch-doc" }, "tools/call", {
      name: "update-doc",
      arguments: { doc: DOCS.handbook, mode: "append", markdown: "x" },
    });
    assert.equal(notAllowed.body.error?.code, -32602);
    assert.deepEqual((await rpc(emu, h, "ping")).body.result, {});
  } finally {
    await emu.stop();
  }
});

Deno.test("the transport as strict as the SDK's server: auth, Accept, Content-Type, JSON, sessions, versions", async () => {
  const emu = await startEmulator();
  try {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const noToken = await post(emu, {}, init);
    assert.deepEqual([noToken.status, noToken.body.error.code], [401, 99991661]);
    assert.match(noToken.headers.get("www-authenticate") ?? "", /^Bearer /);
    const badToken = await post(emu, { "X-Lark-MCP-UAT": "u-nope" }, init);
    assert.equal(badToken.status, 401);
    assert.match(badToken.headers.get("www-authenticate") ?? "", /error="invalid_token"/);

    const tat = { "X-Lark-MCP-TAT": await tenantToken(emu) };
    assert.equal((await post(emu, { ...tat, accept: "application/json" }, init)).status, 406);
    assert.equal((await post(emu, { ...tat, "content-type": "text/plain" }, init)).status, 415);
    const garbled = await post(emu, tat, "{not json");
    assert.deepEqual([garbled.status, garbled.body.error.code], [400, -32700]);

    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    const noSession = await post(emu, tat, list);
    assert.deepEqual([noSession.status, noSession.body.error.code], [400, -32000]);
    assert.equal((await post(emu, { ...tat, "mcp-session-id": "nope" }, list)).status, 404);

    const h = await session(emu, tat);
    assert.equal((await post(emu, { ...h, "mcp-protocol-version": "1999-01-01" }, list)).status, 400);
    assert.equal((await post(emu, h, init)).status, 400, "a session is initialized once");
    const someoneElse = { ...h, "X-Lark-MCP-TAT": "", "X-Lark-MCP-UAT": (await userToken(emu)).access_token };
    assert.equal((await post(emu, someoneElse, list)).status, 404, "a session is its opener's");
    const reply = await post(emu, h, { jsonrpc: "2.0", id: "from-server", result: {} });
    assert.deepEqual([reply.status, reply.text], [202, ""]);

    const ended = await fetch(`${emu.url}/mcp`, { method: "DELETE", headers: h });
    await ended.body?.cancel();
    assert.equal(ended.status, 200);
    assert.equal((await post(emu, h, list)).status, 404);
  } finally {
    await emu.stop();
  }
});

Deno.test("batches: answered as an array under 2025-03-26, refused under 2025-11-25", async () => {
  const emu = await startEmulator();
  try {
    const tat = { "X-Lark-MCP-TAT": await tenantToken(emu) };
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ];
    const old = await session(emu, tat, "2025-03-26");
    assert.equal(old["mcp-protocol-version"], "2025-03-26");
    const answered = await post(emu, old, batch);
    assert.equal(answered.status, 200);
    assert.deepEqual(answered.body.map((a: RpcBody) => a.id), [1, 2]);
    const current = await session(emu, tat);
    const refused = await post(emu, current, batch);
    assert.deepEqual([refused.status, refused.body.error.code], [400, -32600]);
    const unknownVersion = await session(emu, tat, "2024-01-01");
    assert.equal(unknownVersion["mcp-protocol-version"], "2025-11-25", "an unknown revision gets the newest");
  } finally {
    await emu.stop();
  }
});

Deno.test("docx OpenAPI: unknown document → 1770002", async () => {
  const emu = await startEmulator();
  try {
    const tat = await tenantToken(emu);
    const r = await call(emu.url, "GET", "/open-apis/docx/v1/documents/doxcnMissing", { token: tat });
    assert.equal(r.status, 404);
    assert.equal(r.body.code, 1770002);
  } finally {
    await emu.stop();
  }
});

Deno.test("tool arguments are held to the tools' declared schemas: unknown, missing, mistyped refused, named", async () => {
  const emu = await startEmulator();
  try {
    const h = await session(emu, { "X-Lark-MCP-TAT": await tenantToken(emu) });
    const violations = async (name: string, args: unknown) => {
      const r = await rpc(emu, h, "tools/call", { name, arguments: args });
      const failure = toolFailure(r) as { code: number; error?: { field_violations: unknown[] } };
      assert.equal(failure.code, 99992402);
      return failure.error?.field_violations;
    };
    assert.deepEqual(await violations("create-doc", { markdown: "x", colour: "red" }), [
      { field: "colour", description: "unknown field" },
    ]);
    assert.deepEqual(await violations("fetch-doc", { doc: 5 }), [{
      field: "doc",
      description: "expected string, got number",
    }]);
    assert.deepEqual(await violations("update-doc", { doc: DOCS.handbook }), [{
      field: "mode",
      description: "required",
    }]);
    // tools/list shows the schemas the arguments are held to.
    const listed = await rpc(emu, h, "tools/list");
    const tools = (listed.body.result?.tools ?? []) as {
      name: string;
      inputSchema: { required?: string[]; additionalProperties?: boolean };
    }[];
    const update = tools.find((t) => t.name === "update-doc")?.inputSchema;
    assert.deepEqual([update?.required, update?.additionalProperties], [["doc", "mode"], false]);
  } finally {
    await emu.stop();
  }
});

Deno.test("with lenient fields the MCP endpoint ignores unknown tool arguments as the suite does", async () => {
  const emu = await startEmulator({ lenientFields: true });
  try {
    const h = await session(emu, { "X-Lark-MCP-TAT": await tenantToken(emu) });
    const r = await rpc(emu, h, "tools/call", {
      name: "create-doc",
      arguments: { markdown: "# Hi", colour: "red" },
    });
    assert.equal(r.body.result?.isError, undefined, JSON.stringify(r.body));
    assert.ok(payload(r).doc_id);
    const missing = await rpc(emu, h, "tools/call", { name: "create-doc", arguments: { colour: "red" } });
    assert.equal(toolFailure(missing).code, 99992402);
  } finally {
    await emu.stop();
  }
});
