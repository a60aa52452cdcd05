/**
 * One dry-run document for every layer (shortcuts, generated commands, raw `api`, MCP tool calls), and a dry
 * run that is a faithful pre-flight: it takes the real run's steps up to the request, so a broken config, an
 * unknown profile or an invalid environment fails it exactly as it fails the real run; `--jq` applies to it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DRY_RUN_KEYS } from "../cli/output/dry_run.ts";
import { BOT_EVENTS_LIST, emulatorEnv, fixtures, withEmulator } from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";
import { sendTextArgv } from "./helpers/text_message.ts";

const { CHATS, DOCS } = fixtures;

/** A command per layer, each as the bot. */
const LAYERS: Record<string, string[]> = {
  generated: BOT_EVENTS_LIST,
  api: ["api", "GET", "/open-apis/calendar/v4/calendars", "--params", '{"page_size":5}'],
  shortcut: ["im", "+messages-list", "--chat-id", CHATS.engineering],
  mcp: ["docs", "+fetch", "--doc", DOCS.handbook],
};

const FIXED = [...DRY_RUN_KEYS].filter((k) => k !== "idempotency_key").sort();
const REQUEST_KEYS = ["body", "description", "method", "params", "url"];

Deno.test("every layer's dry run has the same keys: as, appId, api[{method, url, params?, body?, description?}]", async () => {
  await withEmulator({}, async (emu) => {
    const env = emulatorEnv(emu);
    for (const [layer, argv] of Object.entries(LAYERS)) {
      const r = await runCli([...argv, "--as", "bot", "--dry-run"], { env });
      assert.equal(r.code, 0, `${layer}: ${r.stderr}`);
      const doc = r.json<{ ok: boolean; data: Record<string, unknown>; meta: unknown }>();
      assert.deepEqual(doc.meta, { dry_run: true }, layer);
      const keys = Object.keys(doc.data).filter((k) => (DRY_RUN_KEYS as readonly string[]).includes(k))
        .sort();
      assert.deepEqual(keys, FIXED, layer);
      assert.equal(doc.data.as, "bot", layer);
      for (const req of doc.data.api as Record<string, unknown>[]) {
        assert.deepEqual(Object.keys(req).filter((k) => !REQUEST_KEYS.includes(k)), [], layer);
        assert.ok(!String(req.url).includes("?"), `${layer}: the query is in params, never in the url`);
      }
      assert.match(r.stderr, /=== Dry Run ===/);
    }
    const api = await runCli([...LAYERS.api, "--as", "bot", "--dry-run"], { env });
    assert.deepEqual(api.json<{ data: { api: { params: unknown }[] } }>().data.api[0].params, {
      page_size: 5,
    });
    const keyed = await runCli([
      ...sendTextArgv(CHATS.engineering, "x"),
      "--idempotency-key",
      "k-1",
      "--dry-run",
    ], { env });
    const send = await runCli(
      [
        "im",
        "+messages-send",
        "--chat-id",
        CHATS.engineering,
        "--text",
        "x",
        "--idempotency-key",
        "k-1",
        "--dry-run",
      ],
      { env },
    );
    for (const r of [keyed, send]) {
      const data = r.json<{ data: { idempotency_key: string; api: { body: { uuid: string } }[] } }>().data;
      assert.equal(data.idempotency_key, "k-1");
      assert.equal(data.api.at(-1)?.body.uuid, "k-1");
    }
  });
});

Deno.test("--dry-run --jq filters the dry-run document in every layer", async () => {
  await withEmulator({}, async (emu) => {
    for (const [layer, argv] of Object.entries(LAYERS)) {
      const r = await runCli([...argv, "--as", "bot", "--dry-run", "--jq", ".data.api[0].method"], {
        env: emulatorEnv(emu),
      });
      assert.equal(r.code, 0, `${layer}: ${r.stderr}`);
      assert.match(r.stdout.trim(), /^"?(GET|POST)"?$/, layer);
    }
  });
});

Deno.test("a dry run fails where the real run fails: corrupt config, unknown profile, invalid environment", async () => {
  await withEmulator({}, async (emu) => {
    const corrupt = await Deno.makeTempDir();
    await Deno.writeTextFile(join(corrupt, "config.json"), "{ not json");
    const env = emulatorEnv(emu);
    const cases: {
      name: string;
      env?: Record<string, string>;
      configDir?: string;
      pre?: string[];
      /** The real run is expected to fail (else: whatever it does, the dry run does too). */
      fails: boolean;
    }[] = [
      {
        name: "corrupt config file",
        env: { LARKIT_APP_ID: "", LARKIT_APP_SECRET: "" },
        configDir: corrupt,
        fails: true,
      },
      { name: "unknown --profile", pre: ["--profile", "nosuch"], fails: false },
      { name: "invalid LARKIT_DEFAULT_AS", env: { LARKIT_DEFAULT_AS: "robot" }, fails: true },
      { name: "invalid LARKIT_STRICT_MODE", env: { LARKIT_STRICT_MODE: "sometimes" }, fails: true },
      { name: "invalid LARKIT_BRAND", env: { LARKIT_BRAND: "acme" }, fails: true },
    ];
    for (const c of cases) {
      for (const [layer, argv] of Object.entries(LAYERS)) {
        const opts = { env: { ...env, ...c.env }, configDir: c.configDir };
        const real = await runCli([...(c.pre ?? []), ...argv], opts);
        const dry = await runCli([...(c.pre ?? []), ...argv, "--dry-run"], opts);
        const what = `${c.name}, ${layer}`;
        assert.equal(dry.code, real.code, `${what}: ${dry.stdout}${dry.stderr}`);
        if (c.fails) {
          assert.notEqual(real.code, 0, `${what}: the real run fails (${real.stdout.slice(0, 200)})`);
          assert.equal(dry.stdout, "", what);
          assert.equal(dry.errorJson().error.type, real.errorJson().error.type, what);
          assert.equal(dry.errorJson().error.message, real.errorJson().error.message, what);
        }
      }
    }
  });
});
