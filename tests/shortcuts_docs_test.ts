/**
 * Docs shortcuts end to end: `main.ts` against the suite emulator's MCP endpoint. Documents are created,
 * fetched and edited through JSON-RPC `tools/call`, with the MCP credential headers and no Authorization.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { emulatorEnv, fixtures, startEmulator } from "./helpers/emulator.ts";
import { initAndLogin } from "./helpers/login.ts";
import { runCli } from "./helpers/run_cli.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";

const HANDBOOK = fixtures.DOCS.handbook;

interface Created {
  identity: string;
  data: { doc_id: string; doc_url: string };
}
interface Fetched {
  data: { doc_id: string; title: string; markdown: string; has_more: boolean };
}

Deno.test("docs +create from @file as user goes through MCP create-doc; +fetch reads it back", async () => {
  await withSuite(async (emu, larkit) => {
    const cwd = await Deno.makeTempDir();
    await Deno.writeTextFile(join(cwd, "plan.md"), "# Plan\n\n- ship it\n");
    const r = await larkit(["docs", "+create", "--title", "Plan", "--markdown", "@plan.md", "--as", "user"], {
      asUser: true,
      cwd,
    });
    assert.equal(r.code, 0, r.stderr);
    const created = r.json<Created>();
    assert.equal(created.identity, "user");
    assert.match(created.data.doc_id, /^doxcn/);
    // A session first (initialize, then the initialized notification), then the call in it.
    const calls = suiteCalls(emu);
    assert.deepEqual(calls.map((c) => [c.path, (c.body as { method: string }).method]), [
      ["/mcp", "initialize"],
      ["/mcp", "notifications/initialized"],
      ["/mcp", "tools/call"],
    ]);
    for (const c of calls) {
      assert.equal(c.headers["x-lark-mcp-uat"], "<redacted>");
      assert.equal(c.headers["x-lark-mcp-allowed-tools"], "create-doc");
      assert.equal(c.headers["accept"], "application/json, text/event-stream");
      assert.equal(c.headers["authorization"], undefined);
    }
    assert.equal(calls[0].headers["mcp-session-id"], undefined);
    const session = calls[1].headers["mcp-session-id"];
    assert.ok(session);
    assert.equal(calls[2].headers["mcp-session-id"], session);
    assert.equal(calls[2].headers["mcp-protocol-version"], "2025-11-25");
    const body = calls[2].body as { jsonrpc: string; id: string; method: string; params: unknown };
    assert.equal(body.jsonrpc, "2.0");
    assert.equal(body.method, "tools/call");
    assert.deepEqual(body.params, {
      name: "create-doc",
      arguments: { markdown: "# Plan\n\n- ship it\n", title: "Plan" },
      _meta: { progressToken: body.id },
    });

    const f = await larkit(["docs", "+fetch", "--doc", created.data.doc_url, "--as", "user"], {
      asUser: true,
    });
    assert.equal(f.code, 0, f.stderr);
    assert.equal(f.json<Fetched>().data.markdown, "# Plan\n\n- ship it\n");
  });
});

Deno.test("docs +create as bot from stdin uses X-Lark-MCP-TAT; +fetch --format pretty prints markdown", async () => {
  await withSuite(async (emu, larkit) => {
    const r = await larkit(["docs", "+create", "--markdown", "-", "--as", "bot"], {
      stdin: "# From a pipe\n",
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json<Created>().identity, "bot");
    const mcp = suiteCalls(emu).find((c) => c.path === "/mcp");
    assert.equal(mcp?.headers["x-lark-mcp-tat"], "<redacted>");
    assert.equal(mcp?.headers["x-lark-mcp-uat"], undefined);

    const pretty = await larkit(["docs", "+fetch", "--doc", HANDBOOK, "--format", "pretty", "--as", "bot"]);
    assert.equal(pretty.code, 0, pretty.stderr);
    assert.ok(pretty.stdout.startsWith("# Team handbook\n\n# Team handbook\n"), pretty.stdout);
    const sliced = await larkit([
      "docs",
      "+fetch",
      "--doc",
      HANDBOOK,
      "--offset",
      "2",
      "--limit",
      "4",
      "--as",
      "bot",
    ]);
    assert.deepEqual(
      { markdown: sliced.json<Fetched>().data.markdown, has_more: sliced.json<Fetched>().data.has_more },
      { markdown: "Team", has_more: true },
    );
  });
});

Deno.test("docs +update: append, then replace a section by title; the document shows both", async () => {
  await withSuite(async (_emu, larkit) => {
    const append = await larkit([
      "docs",
      "+update",
      "--doc",
      HANDBOOK,
      "--mode",
      "append",
      "--markdown",
      "## Contacts\n\nAsk Bob.\n",
      "--as",
      "bot",
    ]);
    assert.equal(append.code, 0, append.stderr);
    assert.equal(append.json<{ data: { doc_id: string } }>().data.doc_id, HANDBOOK);
    const replace = await larkit([
      "docs",
      "+update",
      "--doc",
      HANDBOOK,
      "--mode",
      "replace_range",
      "--selection-by-title",
      "## On-call",
      "--markdown",
      "## On-call\n\nRotate daily.\n\n",
      "--new-title",
      "Handbook v2",
      "--as",
      "bot",
    ]);
    assert.equal(replace.code, 0, replace.stderr);
    const doc = (await larkit(["docs", "+fetch", "--doc", HANDBOOK, "--as", "bot"])).json<Fetched>().data;
    assert.equal(doc.title, "Handbook v2");
    assert.match(doc.markdown, /## On-call\n\nRotate daily\./);
    assert.match(doc.markdown, /## Contacts\n\nAsk Bob\./);
    assert.doesNotMatch(doc.markdown, /Rotate weekly/);
  });
});

Deno.test("docs dry-runs show the MCP tool call and send nothing", async () => {
  await withSuite(async (emu, larkit) => {
    const create = await larkit([
      "docs",
      "+create",
      "--markdown",
      "# Hi",
      "--folder-token",
      "fldcnX",
      "--dry-run",
    ]);
    assert.equal(create.code, 0, create.stderr);
    const plan = create.json<{
      data: { api: { method: string; url: string; body: unknown; description: string }[]; mcp_tool: string };
      meta: unknown;
    }>();
    assert.equal(plan.data.mcp_tool, "create-doc");
    assert.equal(plan.data.api[0].method, "POST");
    assert.equal(plan.data.api[0].url, `${emu.url}/mcp`);
    assert.equal(plan.data.api[0].description, "MCP tool: create-doc");
    assert.deepEqual(plan.data.api[0].body, {
      method: "tools/call",
      params: { name: "create-doc", arguments: { markdown: "# Hi", folder_token: "fldcnX" } },
    });
    assert.deepEqual(plan.meta, { dry_run: true });
    const fetch = await larkit(["docs", "+fetch", "--doc", HANDBOOK, "--dry-run"]);
    assert.equal(fetch.json<{ data: { mcp_tool: string } }>().data.mcp_tool, "fetch-doc");
    const update = await larkit([
      "docs",
      "+update",
      "--doc",
      HANDBOOK,
      "--mode",
      "overwrite",
      "--markdown",
      "x",
      "--dry-run",
    ]);
    assert.deepEqual(
      update.json<{ data: { api: { body: { params: { arguments: unknown } } }[] } }>().data.api[0].body.params
        .arguments,
      {
        doc: HANDBOOK,
        mode: "overwrite",
        markdown: "x",
      },
    );
    assert.deepEqual(emu.requests(), []);
  });
});

Deno.test("docs bad input: conflicting places, a range mode without selection, a missing document, a bad token", async () => {
  await withSuite(async (emu, larkit) => {
    const places = await larkit([
      "docs",
      "+create",
      "--markdown",
      "x",
      "--folder-token",
      "a",
      "--wiki-node",
      "b",
    ]);
    assert.equal(places.code, 2);
    assert.match(
      places.errorJson().error.message,
      /--folder-token, --wiki-node, and --wiki-space are mutually exclusive/,
    );
    const noSelection = await larkit([
      "docs",
      "+update",
      "--doc",
      HANDBOOK,
      "--mode",
      "replace_range",
      "--markdown",
      "x",
    ]);
    assert.equal(noSelection.code, 2);
    assert.match(
      noSelection.errorJson().error.message,
      /needs --selection-with-ellipsis or --selection-by-title/,
    );
    const noMarkdown = await larkit(["docs", "+create", "--title", "x"]);
    assert.equal(noMarkdown.errorJson().error.message, "--markdown is required");
    assert.deepEqual(suiteCalls(emu), []);

    const missing = await larkit(["docs", "+fetch", "--doc", "doxcnNoSuchDoc", "--as", "bot"]);
    assert.equal(missing.code, 1);
    assert.deepEqual(
      { subtype: missing.errorJson().error.subtype, message: missing.errorJson().error.message },
      { subtype: "api_error", message: "MCP: [1770002] document not found: doxcnNoSuchDoc" },
    );
    const badToken = await larkit(["docs", "+fetch", "--doc", HANDBOOK, "--as", "user"], {
      env: { LARKIT_USER_ACCESS_TOKEN: "u-not-a-token" },
    });
    assert.equal(badToken.code, 3, badToken.stderr);
    assert.deepEqual([badToken.errorJson().error.type, badToken.errorJson().error.subtype], [
      "authentication",
      "auth",
    ]);
    assert.match(badToken.errorJson().error.hint ?? "", /larkit auth login/);
  });
});

Deno.test("docs +fetch over MCP is recorded with --record and answered from the recording with --replay", async () => {
  await withSuite(async (emu, larkit) => {
    const dir = await Deno.makeTempDir();
    const recorded = await larkit(["--record", dir, "docs", "+fetch", "--doc", HANDBOOK], { asUser: true });
    assert.equal(recorded.code, 0, recorded.stderr);
    const saved = await Array.fromAsync(Deno.readDir(dir));
    assert.ok(saved.length > 0);
    emu.clearRequests();
    const replayed = await larkit(["--replay", dir, "docs", "+fetch", "--doc", HANDBOOK], { asUser: true });
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.equal(replayed.stdout, recorded.stdout);
    assert.deepEqual(emu.requests(), []);
  });
});

Deno.test("docs +create as bot grants the logged-in user full access to the new document; as the user it grants nothing", async () => {
  const emu = await startEmulator({});
  const configDir = await Deno.makeTempDir();
  try {
    await initAndLogin(emu, configDir);
    emu.clearRequests();
    const bot = await runCli(["docs", "+create", "--markdown", "# Made by the bot", "--as", "bot"], {
      configDir,
    });
    assert.equal(bot.code, 0, bot.stderr);
    const made = bot.json<{ data: { doc_id: string; permission_grant?: Record<string, string> } }>().data;
    assert.deepEqual(made.permission_grant, {
      status: "granted",
      perm: "full_access",
      user_open_id: fixtures.USERS.alice.open_id,
      member_type: "openid",
      message: "the logged-in user has full access",
    });
    const grants = emu.requests().filter((q) => q.path.startsWith("/open-apis/drive/v1/permissions/"));
    assert.deepEqual(grants.map((q) => [q.method, q.path]), [
      ["POST", `/open-apis/drive/v1/permissions/${made.doc_id}/members`],
    ]);
    emu.clearRequests();
    const user = await runCli(["docs", "+create", "--markdown", "# Mine", "--as", "user"], { configDir });
    assert.equal(user.code, 0, user.stderr);
    assert.ok(!("permission_grant" in user.json<{ data: object }>().data), "as the user, nothing to grant");
    assert.equal(
      emu.requests().filter((q) => q.path.startsWith("/open-apis/drive/v1/permissions/")).length,
      0,
    );
  } finally {
    await emu.stop();
  }
});

Deno.test("a cached bot token the MCP endpoint rejects (401) is minted again once and the call sent again", async () => {
  const emu = await startEmulator({});
  const configDir = await Deno.makeTempDir();
  try {
    const env = emulatorEnv(emu);
    const first = await runCli(["docs", "+fetch", "--doc", HANDBOOK, "--as", "bot"], { env, configDir });
    assert.equal(first.code, 0, first.stderr);
    emu.expireTokens("tenant");
    emu.clearRequests();
    const second = await runCli(["docs", "+fetch", "--doc", HANDBOOK, "--as", "bot"], { env, configDir });
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(
      emu.requests().map((q) =>
        `${q.method} ${q.path} ${(q.body as { method?: string }).method ?? ""}`.trim()
      ),
      [
        "POST /mcp initialize",
        "POST /open-apis/auth/v3/tenant_access_token/internal",
        "POST /mcp initialize",
        "POST /mcp notifications/initialized",
        "POST /mcp tools/call",
      ],
    );
  } finally {
    await emu.stop();
  }
});
