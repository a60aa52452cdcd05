/**
 * MCP by the spec, against code nobody here wrote: larkit's docs shortcuts against a server built with the
 * official `@modelcontextprotocol/sdk` (tests/mcp_sdk/server.ts) in its plain-JSON and streaming (SSE) modes,
 * with and without sessions; a streamed write that stalls; and the SDK's own client against the emulator's
 * `/mcp`. The SDK runs in its own process under its own config and lock (tests/mcp_sdk/deno.json): it is a
 * test-only dependency, absent from larkit's lock and from a user's first run.
 */
import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { startEmulator, userToken } from "./helpers/emulator.ts";
import type { FetchFn } from "../cli/provider.ts";
import { errorOf, loopbackFetch, runCli } from "./helpers/run_cli.ts";
import { emulatorEnv } from "./helpers/emulator.ts";

const CONFIG = fromFileUrl(new URL("./mcp_sdk/deno.json", import.meta.url));
const script = (name: string) => fromFileUrl(new URL(`./mcp_sdk/${name}`, import.meta.url));
// `--check`: the helpers are type-checked as they run (no other step checks them: they are not in larkit's config).
const deno = (args: string[]) => ["run", "-A", "--quiet", "--check", "--frozen", "--config", CONFIG, ...args];

interface SdkServer {
  url: string;
  origin: string;
  stop(): Promise<void>;
}

/** Starts the SDK server with `flags`; resolves once it printed where it listens. */
async function sdkServer(flags: string[]): Promise<SdkServer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: deno([script("server.ts"), ...flags]),
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await lines.read();
    if (done) throw new Error(`the SDK server ended before listening: ${text}`);
    text += value;
  }
  const { url } = JSON.parse(text.split("\n")[0]) as { url: string };
  return {
    url,
    origin: new URL(url).origin,
    async stop() {
      child.kill();
      await lines.cancel();
      await child.status;
    },
  };
}

/** larkit as a user whose token the environment gives, with every service at the SDK server's origin. */
function larkitAt(server: SdkServer, fetch?: FetchFn) {
  return (args: string[], env: Record<string, string> = {}) =>
    runCli([...args, "--as", "user"], {
      fetch,
      env: {
        LARKIT_BRAND: "custom",
        LARKIT_BASE_URL: server.origin,
        LARKIT_APP_ID: "cli_a1b2c3d4e5f60718",
        LARKIT_APP_SECRET: "secret",
        LARKIT_USER_ACCESS_TOKEN: "u-sdk-test",
        ...env,
      },
    });
}

for (const json of [true, false]) {
  for (const sessions of [true, false]) {
    const mode = `${json ? "plain JSON" : "SSE streams"}, ${sessions ? "with sessions" : "stateless"}`;
    Deno.test(`docs +create, +fetch, +update against the official SDK's server (${mode})`, async () => {
      const server = await sdkServer([...(json ? ["--json"] : []), ...(sessions ? ["--sessions"] : [])]);
      try {
        const larkit = larkitAt(server);
        const created = await larkit(["docs", "+create", "--title", "Plan", "--markdown", "# Plan\n"]);
        assert.equal(created.code, 0, created.stderr);
        const doc = created.json<{ data: { doc_id: string; doc_url: string } }>().data;
        assert.match(doc.doc_id, /^doxcnSdk/);
        const updated = await larkit([
          "docs",
          "+update",
          "--doc",
          doc.doc_id,
          "--mode",
          "append",
          "--markdown",
          "More.\n",
        ]);
        assert.equal(updated.code, 0, updated.stderr);
        const fetched = await larkit(["docs", "+fetch", "--doc", doc.doc_url]);
        assert.equal(fetched.code, 0, fetched.stderr);
        assert.deepEqual(
          fetched.json<{ data: { title: string; markdown: string } }>().data.markdown,
          "# Plan\nMore.\n",
        );

        // A tool's own failure (`isError` with the suite's code) is the api error an OpenAPI 1770002 would be.
        const missing = await larkit(["docs", "+fetch", "--doc", "doxcnNoSuchDoc"]);
        assert.equal(missing.code, 1, missing.stderr);
        const e = errorOf(missing);
        assert.deepEqual([e.type, e.subtype, e.message, e.retryable], [
          "api",
          "api_error",
          "MCP: [1770002] document not found: doxcnNoSuchDoc",
          false,
        ]);
      } finally {
        await server.stop();
      }
    });
  }
}

Deno.test("a streamed write that reports progress and then stalls is outcome_unknown, naming the check", async () => {
  const server = await sdkServer(["--sessions", "--stall"]);
  try {
    const larkit = larkitAt(server);
    const r = await larkit([
      "docs",
      "+create",
      "--title",
      "Q3 plan",
      "--markdown",
      "# Q3\n",
      "--timeout",
      "1",
    ]);
    assert.equal(r.code, 8, r.stderr);
    const e = errorOf(r);
    assert.deepEqual([e.type, e.subtype, e.retryable], ["outcome_unknown", "outcome_unknown", false]);
    assert.match(
      e.message,
      /^MCP tools\/call create-doc: the request was sent but no answer came within 1000 ms/,
    );
    assert.equal(
      e.hint,
      "do not re-run blindly (no de-duplication key): check whether it happened first: " +
        "larkit docs +search --query 'Q3 plan'",
    );
    // The document was made: its answer is what was lost, which is why a blind re-run would make a second.
    const fetched = await larkit(["docs", "+fetch", "--doc", "doxcnSdk0001"]);
    assert.equal(fetched.code, 0, fetched.stderr);
  } finally {
    await server.stop();
  }
});

Deno.test("a streamed write whose connection breaks after its progress is outcome_unknown", async () => {
  const server = await sdkServer(["--sessions", "--stall"]);
  try {
    // The tools/call answer's stream carries the server's first event, then the connection breaks.
    const cutAfterFirstEvent: FetchFn = async (input, init) => {
      const req = new Request(input, init);
      const method = (await req.clone().json().catch(() => ({}))).method;
      const res = await loopbackFetch(req);
      if (method !== "tools/call") return res;
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent) {
            await reader.cancel();
            return controller.error(new TypeError("error reading a body from connection: connection reset"));
          }
          const { value } = await reader.read();
          sent = true;
          controller.enqueue(value as Uint8Array);
        },
      });
      return new Response(body, { status: res.status, headers: res.headers });
    };
    const r = await larkitAt(server, cutAfterFirstEvent)([
      "docs",
      "+create",
      "--title",
      "Notes",
      "--markdown",
      "x",
    ]);
    assert.equal(r.code, 8, r.stderr);
    const e = errorOf(r);
    assert.equal(e.type, "outcome_unknown");
    assert.match(
      e.message,
      /^MCP tools\/call create-doc: the request was sent but its answer stream broke off/,
    );
    assert.match(e.hint ?? "", /check whether it happened first: larkit docs \+search --query Notes$/);
  } finally {
    await server.stop();
  }
});

Deno.test("progress notifications restart the wait: an answer after three times --timeout still arrives", async () => {
  const server = await sdkServer(["--slow"]);
  try {
    const r = await larkitAt(server)(["docs", "+create", "--markdown", "# Slow\n", "--timeout", "1"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.json<{ data: { doc_id: string } }>().data.doc_id, /^doxcnSdk/);
  } finally {
    await server.stop();
  }
});

Deno.test("an SSE answer is recorded with --record and served from the recording with --replay", async () => {
  const server = await sdkServer(["--sessions"]);
  const dir = await Deno.makeTempDir();
  try {
    const larkit = larkitAt(server);
    const created = await larkit(["docs", "+create", "--markdown", "# Recorded\n"]);
    const doc = created.json<{ data: { doc_id: string } }>().data.doc_id;
    const recorded = await larkit(["--record", dir, "docs", "+fetch", "--doc", doc]);
    assert.equal(recorded.code, 0, recorded.stderr);
    await server.stop();
    const replayed = await larkit(["--replay", dir, "docs", "+fetch", "--doc", doc]);
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.equal(replayed.stdout, recorded.stdout);
  } finally {
    await server.stop().catch(() => {});
  }
});

Deno.test("a session the server forgot (404) is opened again once, and the call goes through", async () => {
  const emu = await startEmulator();
  try {
    const uat = (await userToken(emu)).access_token;
    const seen: string[] = [];
    let ended = false;
    const r = await runCli(["docs", "+create", "--markdown", "# Again\n", "--as", "user"], {
      env: { ...emulatorEnv(emu), LARKIT_USER_ACCESS_TOKEN: uat },
      fetch: async (input, init) => {
        const req = new Request(input, init);
        const body = req.method === "POST" ? await req.clone().json() : {};
        if (body.method === "tools/call" && !ended) {
          // The server restarts between the session's opening and the call: the session is gone.
          ended = true;
          const headers = new Headers(req.headers);
          await (await loopbackFetch(req.url, { method: "DELETE", headers })).body?.cancel();
        }
        const res = await loopbackFetch(req);
        seen.push(`${body.method} ${res.status}`);
        return res;
      },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(seen, [
      "initialize 200",
      "notifications/initialized 202",
      "tools/call 404",
      "initialize 200",
      "notifications/initialized 202",
      "tools/call 200",
    ]);
  } finally {
    await emu.stop();
  }
});

Deno.test("the official SDK's client against the emulator's /mcp: initialize, list tools, call tools, ping", async () => {
  const emu = await startEmulator();
  try {
    const uat = (await userToken(emu)).access_token;
    const out = await new Deno.Command(Deno.execPath(), {
      args: deno([script("client.ts"), `${emu.url}/mcp`, "X-Lark-MCP-UAT", uat]),
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    const seen = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.ok(seen.session, "the emulator issued a session");
    assert.equal(seen.version, "2025-11-25");
    assert.deepEqual(seen.tools, ["create-doc", "fetch-doc", "update-doc"]);
    assert.match(seen.created.doc_id, /^doxcn/);
    assert.deepEqual([seen.fetched.isError, seen.fetched.markdown, seen.fetched.title], [
      false,
      "# From the SDK\n",
      "SDK",
    ]);
    assert.deepEqual(seen.missing, {
      isError: true,
      code: 1770002,
      msg: "document not found: doxcnNoSuchDoc",
    });
    assert.deepEqual(seen.pong, {});
  } finally {
    await emu.stop();
  }
});
