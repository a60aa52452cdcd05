/**
 * Generated API commands, raw `api` and the registry overlay, end to end: larkit in-process against
 * the suite emulator.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BOT_EVENTS_LIST,
  type Emulator,
  emulatorEnv,
  fixtures,
  startEmulator,
  withEmulator,
} from "./helpers/emulator.ts";
import { pageAllNdjsonArgv, seedMessages } from "./helpers/bulk_messages.ts";
import { seedLogin } from "./helpers/login.ts";
import { runCli } from "./helpers/run_cli.ts";
import { apiSendArgv, sendTextArgv } from "./helpers/text_message.ts";

const { CALENDARS, CHATS } = fixtures;

Deno.test("generated GET with a path parameter returns the suite's data in the envelope", async () => {
  await withEmulator({}, async (emu) => {
    const r = await runCli(BOT_EVENTS_LIST, { env: emulatorEnv(emu) });
    assert.equal(r.code, 0, r.stderr);
    const out = r.json<{ ok: boolean; identity: string; data: { items: unknown[] } }>();
    assert.equal(out.ok, true);
    assert.equal(out.identity, "bot");
    assert.ok(Array.isArray(out.data.items));
    const path = emu.requests().at(-1)?.path ?? "";
    assert.ok(path.includes(encodeURIComponent(CALENDARS.bot)), path);
  });
});

Deno.test("POST with --data @file and with --data - (stdin)", async () => {
  const emu = await startEmulator({});
  const dir = await Deno.makeTempDir();
  try {
    const body = { receive_id: CHATS.engineering, msg_type: "text", content: JSON.stringify({ text: "hi" }) };
    await Deno.writeTextFile(join(dir, "msg.json"), JSON.stringify(body));
    const args = ["im", "messages", "create", "--params", '{"receive_id_type":"chat_id"}'];
    const fromFile = await runCli([...args, "--data", "@msg.json"], { env: emulatorEnv(emu), cwd: dir });
    assert.equal(fromFile.code, 0, fromFile.stderr);
    const fromStdin = await runCli([...args, "--data", "-"], {
      env: emulatorEnv(emu),
      stdin: JSON.stringify(body),
    });
    assert.equal(fromStdin.code, 0, fromStdin.stderr);
    const ids = [fromFile, fromStdin].map((r) => r.json<{ data: { message_id: string } }>().data.message_id);
    assert.notEqual(ids[0], ids[1]);
  } finally {
    await emu.stop();
  }
});

Deno.test("dry-run prints method, URL, params and body, and sends nothing", async () => {
  await withEmulator({}, async (emu) => {
    emu.clearRequests();
    const r = await runCli([...sendTextArgv("oc_1", "hi"), "--dry-run"], { env: emulatorEnv(emu) });
    assert.equal(r.code, 0, r.stderr);
    const out = r.json<
      { data: { api: Record<string, unknown>[]; as: string }; meta: { dry_run: boolean } }
    >();
    assert.equal(out.meta.dry_run, true);
    assert.equal(out.data.as, "bot");
    const [api] = out.data.api;
    assert.equal(api.method, "POST");
    assert.equal(api.url, `${emu.url}/open-apis/im/v1/messages`);
    assert.deepEqual(api.params, { receive_id_type: "chat_id" });
    assert.equal(api.headers, undefined, "the token is never shown; `as` says which identity sends it");
    assert.equal((api.body as Record<string, unknown>).receive_id, "oc_1");
    assert.deepEqual(emu.requests().filter((q) => q.path.startsWith("/open-apis/im")), []);
  });
});

Deno.test("429 and 503 with Retry-After are retried, then succeed", async () => {
  await withEmulator({}, async (emu) => {
    const path = `/open-apis/calendar/v4/calendars/${encodeURIComponent(CALENDARS.bot)}/events`;
    emu.faults.rateLimit({ path: "/open-apis/calendar", times: 1, retryAfterSeconds: 1 });
    emu.faults.serverError({ path: "/open-apis/calendar", times: 1, status: 503, retryAfterSeconds: 1 });
    emu.clearRequests();
    // The waits are recorded instead of spent: each is the Retry-After the suite asked for.
    const waits: number[] = [];
    const r = await runCli(BOT_EVENTS_LIST, {
      env: emulatorEnv(emu),
      sleep: (ms) => (waits.push(ms), Promise.resolve()),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(emu.requests().filter((q) => q.path === path).length, 3);
    assert.deepEqual(waits, [1000, 1000]);
  });
});

Deno.test("a POST whose response is lost is not resent: outcome_unknown", async () => {
  await withEmulator({}, async (emu) => {
    emu.faults.dropConnection({ path: "/open-apis/im/v1/messages", times: 1, after: "after-handling" });
    emu.clearRequests();
    const r = await runCli(
      apiSendArgv({ receive_id: CHATS.engineering, msg_type: "text", content: '{"text":"once"}' }),
      { env: emulatorEnv(emu) },
    );
    assert.equal(r.code, 8, r.stderr);
    assert.equal(r.errorJson().error.type, "outcome_unknown");
    assert.equal(emu.requests().filter((q) => q.path === "/open-apis/im/v1/messages").length, 1);
  });
});

Deno.test("a missing scope is a permission error whose hint names the scope", async () => {
  await withEmulator({}, async (emu) => {
    emu.revokeScopes("tenant", ["im:message", "im:message:send_as_bot", "im:message:send"]);
    const r = await runCli(sendTextArgv(CHATS.engineering, "x"), { env: emulatorEnv(emu) });
    assert.notEqual(r.code, 0);
    const err = r.errorJson().error;
    assert.ok(["permission", "missing_scope"].includes(err.subtype), JSON.stringify(err));
    assert.match(err.hint ?? "", /im:message/);
  });
});

Deno.test("--page-all --format ndjson streams 10,000 items", async () => {
  await withEmulator({}, async (emu) => {
    const inChat = seedMessages(emu, CHATS.random, 10_000, "bulk");
    const r = await runCli(pageAllNdjsonArgv(CHATS.random), { env: emulatorEnv(emu) });
    assert.equal(r.code, 0, r.stderr.slice(0, 2000));
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines.length, inChat);
    assert.ok(lines.every((l) => JSON.parse(l).message_id));
  });
});

Deno.test("the remote overlay is fetched by registry refresh, never by ordinary runs, and serves later runs", async () => {
  const emu = await startEmulator({});
  const configDir = await Deno.makeTempDir();
  try {
    emu.setOverlay({
      version: "2026.05.01",
      services: [{
        name: "newsvc",
        servicePath: "/open-apis/newsvc/v1",
        description: "A service from the overlay",
        resources: {
          widgets: { methods: { list: { path: "widgets", httpMethod: "GET", accessTokens: ["tenant"] } } },
        },
      }, { name: "../evil", servicePath: "/etc", resources: {} }],
    });
    const env = { ...emulatorEnv(emu), LARKIT_REMOTE_META: "on" };
    const before = await runCli(["schema"], { env, configDir });
    assert.equal(before.code, 0, before.stderr);
    assert.ok(!before.stdout.includes("newsvc"));
    assert.equal(emu.requests().filter((q) => q.path === "/api/tools/open/api_definition").length, 0);
    const refreshed = await runCli(["registry", "refresh"], { env, configDir });
    assert.equal(refreshed.code, 0, refreshed.stderr);
    assert.match(refreshed.stderr, /invalid and was skipped/);
    const second = await runCli(["newsvc", "widgets", "list", "--dry-run"], { env, configDir });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /\/open-apis\/newsvc\/v1\/widgets/);
    emu.setOverlay("corrupt");
    const corrupt = await runCli(["registry", "refresh"], { env, configDir });
    assert.notEqual(corrupt.code, 0);
    const third = await runCli(["newsvc", "widgets", "list", "--dry-run"], { env, configDir });
    assert.equal(third.code, 0, "the cached overlay still serves");
  } finally {
    await emu.stop();
  }
});

Deno.test("dry-run without credentials fails as the real run does: a config error, nothing shown", async () => {
  const dry = await runCli(["calendar", "calendars", "list", "--dry-run"]);
  const real = await runCli(["calendar", "calendars", "list"]);
  assert.equal(dry.stdout, "");
  assert.equal(dry.code, real.code);
  assert.equal(dry.errorJson().error.type, "config");
  assert.equal(dry.errorJson().error.type, real.errorJson().error.type);
});

const TENANT_PATH = "/open-apis/auth/v3/tenant_access_token/internal";
const USER_TOKEN_PATH = "/open-apis/authen/v2/oauth/token";
const CALENDARS_PATH = "/open-apis/calendar/v4/calendars";
const count = (emu: Emulator, path: string) => emu.requests().filter((q) => q.path === path).length;

Deno.test("a cached bot token the suite rejects is minted again once and the request retried", async () => {
  const emu = await startEmulator({});
  const configDir = await Deno.makeTempDir();
  try {
    const env = emulatorEnv(emu);
    const first = await runCli(["calendar", "calendars", "list"], { env, configDir });
    assert.equal(first.code, 0, first.stderr);
    emu.expireTokens("tenant");
    emu.clearRequests();
    const second = await runCli(["calendar", "calendars", "list"], { env, configDir });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(count(emu, TENANT_PATH), 1);
    assert.equal(count(emu, CALENDARS_PATH), 2);
    emu.clearRequests();
    const third = await runCli(["calendar", "calendars", "list"], { env, configDir });
    assert.equal(third.code, 0, third.stderr);
    assert.equal(count(emu, TENANT_PATH), 0, "the re-minted token was cached");
  } finally {
    await emu.stop();
  }
});

Deno.test("a bot token rejected twice is an auth error after exactly one re-mint", async () => {
  await withEmulator({}, async (emu) => {
    emu.clearRequests();
    // The search API takes user tokens only: the suite refuses every tenant token it is sent.
    const r = await runCli([
      "api",
      "GET",
      "/open-apis/search/v1/user",
      "--params",
      '{"query":"a"}',
      "--as",
      "bot",
    ], {
      env: emulatorEnv(emu),
    });
    assert.equal(r.code, 3, r.stderr);
    const err = JSON.parse(r.stderr.slice(r.stderr.indexOf("{"))).error;
    assert.deepEqual([err.type, err.subtype], ["authentication", "auth"]);
    assert.equal(err.code, 99991668);
    assert.equal(count(emu, TENANT_PATH), 2);
    assert.equal(count(emu, "/open-apis/search/v1/user"), 2);
  });
});

Deno.test("a token given verbatim is not retried when the suite rejects it", async () => {
  await withEmulator({}, async (emu) => {
    emu.clearRequests();
    const r = await runCli(["calendar", "calendars", "list"], {
      env: { LARKIT_BASE_URL: emu.url, LARKIT_TENANT_ACCESS_TOKEN: "t-revoked-long-ago" },
    });
    assert.equal(r.code, 3, r.stderr);
    assert.deepEqual([r.errorJson().error.type, r.errorJson().error.subtype], ["authentication", "auth"]);
    assert.equal(count(emu, CALENDARS_PATH), 1);
  });
});

Deno.test("a user token the suite rejects as expired is refreshed once and the request retried", async () => {
  const emu = await startEmulator({});
  const configDir = await Deno.makeTempDir();
  try {
    const init = await runCli(
      ["config", "init", "--app-id", emu.app.appId, "--app-secret-stdin", "--base-url", emu.url],
      { configDir, stdin: `${emu.app.appSecret}\n` },
    );
    assert.equal(init.code, 0, init.stderr);
    // Valid for two hours as far as larkit knows; the suite is about to say otherwise.
    await seedLogin(emu, configDir, { scope: "calendar:calendar:readonly offline_access" });
    emu.expireTokens("user");
    emu.clearRequests();
    const r = await runCli(["calendar", "calendars", "list", "--as", "user"], { configDir });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json<{ identity: string }>().identity, "user");
    assert.equal(count(emu, USER_TOKEN_PATH), 1);
    assert.equal(count(emu, CALENDARS_PATH), 2);
  } finally {
    await emu.stop();
  }
});
