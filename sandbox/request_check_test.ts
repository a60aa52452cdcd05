import assert from "node:assert/strict";
import { handWrittenRoutes, startEmulator } from "./server.ts";
import { findApiMethod } from "./generic.ts";
import { mcpArgumentProblems } from "./request_check.ts";
import { manualClock, tenantToken } from "../tests/helpers/emulator.ts";
import { runCli } from "../tests/helpers/run_cli.ts";
import { apiSendArgv } from "../tests/helpers/text_message.ts";
import { call } from "./test_http.ts";
import { CHATS } from "./fixtures.ts";

type Violations = { field_violations?: { field: string; description: string }[] };

const fields = (body: { error?: unknown }) =>
  ((body.error as Violations | undefined)?.field_violations ?? []).map((v) => `${v.field}: ${v.description}`);

async function withEmulator(lenientFields: boolean, fn: (url: string, token: string) => Promise<void>) {
  const emu = await startEmulator({ clock: manualClock(), lenientFields });
  try {
    await fn(emu.url, await tenantToken(emu));
  } finally {
    await emu.stop();
  }
}

const SEND = `/open-apis/im/v1/messages?receive_id_type=chat_id`;
const TEXT = { receive_id: CHATS.engineering, msg_type: "text", content: JSON.stringify({ text: "hi" }) };

Deno.test("a hand-written route's request is checked first: an unknown body or query field is refused, naming it", async () => {
  await withEmulator(false, async (url, token) => {
    const body = await call(url, "POST", SEND, { token, body: { ...TEXT, colour: "red" } });
    assert.equal(body.status, 400);
    assert.equal(body.body.code, 99992402);
    assert.match(body.body.msg, /^field validation failed/);
    assert.deepEqual(fields(body.body), ["colour: unknown field"]);
    const query = await call(url, "POST", `${SEND}&receive_id_kind=chat`, { token, body: TEXT });
    assert.deepEqual(fields(query.body), ["receive_id_kind: unknown field"]);
    assert.equal((await call(url, "POST", SEND, { token, body: TEXT })).body.code, 0);
  });
});

Deno.test("missing, mistyped and out-of-enum fields are refused, nested paths named", async () => {
  await withEmulator(false, async (url, token) => {
    const missing = await call(url, "POST", "/open-apis/im/v1/messages", {
      token,
      body: { msg_type: "text" },
    });
    assert.deepEqual(fields(missing.body).sort(), [
      "content: required",
      "receive_id: required",
      "receive_id_type: required",
    ]);
    const enumBad = await call(url, "POST", "/open-apis/im/v1/messages?receive_id_type=phone", {
      token,
      body: TEXT,
    });
    assert.match(fields(enumBad.body).join(), /^receive_id_type: "phone" is not one of/);
    // A generic route (no hand-written handler): a mistyped field, and an unknown one inside an object.
    const generic = await call(url, "POST", `/open-apis/im/v1/chats/${CHATS.engineering}/members`, {
      token,
      body: { id_list: "ou_1" },
    });
    assert.deepEqual(fields(generic.body), ["id_list: expected array, got string"]);
    const nested = await call(url, "POST", "/open-apis/im/v1/chats", {
      token,
      body: { name: "n", i18n_names: { en_us: "n", klingon: "n" } },
    });
    assert.deepEqual(fields(nested.body), ["i18n_names.klingon: unknown field"]);
  });
});

Deno.test("multipart uploads: form fields are checked by name", async () => {
  await withEmulator(false, async (url, token) => {
    const upload = (extra: Record<string, string>) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(extra)) form.append(k, v);
      form.append("image", new Blob([new Uint8Array([137, 80, 78, 71])]), "a.png");
      return fetch(`${url}/open-apis/im/v1/images`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: form,
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    };
    const unknown = await upload({ image_type: "message", caption: "x" });
    assert.equal(unknown.status, 400);
    assert.deepEqual(fields(unknown.body), ["caption: unknown field"]);
    assert.deepEqual(fields((await upload({})).body), ["image_type: required"]);
    assert.match(
      fields((await upload({ image_type: "sticker" })).body).join(),
      /image_type: "sticker" is not one/,
    );
  });
});

Deno.test("lenient fields: unknown fields are ignored as production does; missing ones are still refused", async () => {
  await withEmulator(true, async (url, token) => {
    const ok = await call(url, "POST", `${SEND}&receive_id_kind=chat`, {
      token,
      body: { ...TEXT, colour: "red" },
    });
    assert.equal(ok.body.code, 0);
    const missing = await call(url, "POST", SEND, { token, body: { msg_type: "text", colour: "red" } });
    assert.deepEqual(fields(missing.body).sort(), ["content: required", "receive_id: required"]);
  });
});

Deno.test("larkit sandbox run --lenient-fields starts the emulator lenient; without it an unknown field is refused", async () => {
  const argv = (lenient: string[]) => [
    "sandbox",
    "run",
    ...lenient,
    "--as",
    "bot",
    "--",
    ...apiSendArgv({ ...TEXT, colour: "red" }),
  ];
  const strict = await runCli(argv([]));
  assert.equal(strict.code, 1, strict.stdout);
  assert.match(strict.stderr, /colour: unknown field/);
  const lenient = await runCli(argv(["--lenient-fields"]));
  assert.equal(lenient.code, 0, lenient.stderr);
});

Deno.test("every hand-written open-apis route is a registry method, so its requests are checked too", async () => {
  const unchecked: string[] = [];
  for (const r of handWrittenRoutes().filter((r) => r.path.startsWith("/open-apis/"))) {
    const { found } = await findApiMethod(r.method, r.path.replace(/:([^/]+)/g, "x_$1"));
    if (!found) unchecked.push(`${r.method} ${r.path}`);
  }
  // The OAuth token endpoint takes a form (RFC 8628/6749), checked by its own handler; no JSON API.
  assert.deepEqual(unchecked, ["POST /open-apis/authen/v2/oauth/token"]);
});

Deno.test("MCP tool arguments are held to the declared tool schemas (registry/mcp_tools.json)", () => {
  const args = { doc: "doxcnAbc123", mode: "append", markdown: "x" };
  assert.deepEqual(mcpArgumentProblems("update-doc", args), []);
  assert.deepEqual(mcpArgumentProblems("update-doc", { ...args, colour: 1 }), [
    { field: "colour", description: "unknown field" },
  ]);
  assert.deepEqual(mcpArgumentProblems("update-doc", { ...args, colour: 1 }, { lenientFields: true }), []);
  assert.deepEqual(mcpArgumentProblems("update-doc", { doc: "d", mode: "rewrite" })?.map((p) => p.field), [
    "mode",
  ]);
  assert.deepEqual(mcpArgumentProblems("fetch-doc", {}), [{ field: "doc", description: "required" }]);
  assert.equal(mcpArgumentProblems("delete-doc", {}), undefined);
});
