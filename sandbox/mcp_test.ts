import assert from "node:assert/strict";
import { startEmulator } from "./server.ts";
import { tenantToken, userToken } from "../tests/helpers/emulator.ts";
import { call } from "./test_http.ts";
import { DOCS } from "./fixtures.ts";
import { CREATE_DOC } from "./scopes.ts";

type Emu = Awaited<ReturnType<typeof startEmulator>>;

async function rpc(emu: Emu, headers: Record<string, string>, method: string, params?: unknown) {
  const res = await fetch(`${emu.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: "req-1", method, params }),
  });
  return {
    status: res.status,
    body: await res.json() as {
      jsonrpc: string;
      id: string;
      result?: { content?: { type: string; text: string }[]; tools?: { name: string }[] };
      error?: { code: number; message: string };
    },
  };
}

/** The tool payload: `result.content[0]` is one `type: "text"` item holding JSON. */
function payload(r: Awaited<ReturnType<typeof rpc>>): Record<string, unknown> {
  const content = r.body.result?.content ?? [];
  assert.equal(content.length, 1);
  assert.equal(content[0].type, "text");
  return JSON.parse(content[0].text);
}

Deno.test("tools/list names create-doc, fetch-doc, update-doc with input schemas", async () => {
  const emu = await startEmulator();
  try {
    const tat = await tenantToken(emu);
    const r = await rpc(emu, { "X-Lark-MCP-TAT": tat }, "tools/list");
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
    const h = { "X-Lark-MCP-UAT": uat };
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

Deno.test("MCP errors: no token 401, unknown tool, bad arguments, missing doc, missing scope", async () => {
  const emu = await startEmulator();
  try {
    const noToken = await rpc(emu, {}, "tools/list");
    assert.equal(noToken.status, 401);
    assert.equal(noToken.body.error?.code, 99991661);
    const tat = await tenantToken(emu);
    const h = { "X-Lark-MCP-TAT": tat };
    assert.equal((await rpc(emu, h, "tools/call", { name: "nope", arguments: {} })).body.error?.code, -32602);
    assert.equal(
      (await rpc(emu, h, "tools/call", { name: "create-doc", arguments: {} })).body.error?.code,
      -32602,
    );
    assert.equal(
      (await rpc(emu, h, "tools/call", { name: "fetch-doc", arguments: { doc: "doxcnMissing" } })).body.error
        ?.code,
      1770002,
    );
    assert.equal(
      (await rpc(emu, h, "tools/call", { name: "fetch-doc", arguments: { doc: DOCS.handbook } })).body
        .result !== undefined,
      true,
    );
    emu.revokeScopes("tenant", CREATE_DOC);
    const denied = await rpc(emu, h, "tools/call", { name: "create-doc", arguments: { markdown: "x" } });
    assert.equal(denied.body.error?.code, 99991672);
    assert.equal((await rpc(emu, h, "resources/list")).body.error?.code, -32601);
    const notAllowed = await rpc(emu, { ...h, "X-Lark-MCP-Allowed-Tools": "fetch-doc" }, "tools/call", {
      name: "update-doc",
      arguments: { doc: DOCS.handbook, mode: "append", markdown: "x" },
    });
    assert.equal(notAllowed.body.error?.code, -32602);
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
