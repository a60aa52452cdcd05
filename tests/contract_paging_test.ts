/**
 * A `--page-all` that stops at `--page-limit` says so the same way in every layer — generated list methods, raw
 * `api`, and shortcuts paging through the pipeline's `paginate`: the json result carries `meta.truncated` and
 * `meta.page_token`; ndjson/table/csv, whose stdout holds only items, end stderr with the machine-readable
 * `warning: truncated: … page_token=…;` line. The token resumes exactly where the limit stopped, and
 * `--page-limit 0` fetches every page with no truncation reported.
 */
import assert from "node:assert/strict";
import { emulatorEnv, fixtures, startEmulator, withEmulator } from "./helpers/emulator.ts";
import { initAndLogin } from "./helpers/login.ts";
import { loopbackFetch, offlineAfterFirstPage, runCli } from "./helpers/run_cli.ts";

/**
 * The truncation line's `key=value` pairs, read as a script would from the last stderr line; undefined when
 * there is none.
 */
function truncationOf(stderr: string): Record<string, string> | undefined {
  const m = /^warning: truncated: (.*?);/.exec(stderr.trimEnd().split("\n").at(-1) ?? "");
  return m
    ? Object.fromEntries(m[1].split(" ").map((kv) => kv.split("=", 2) as [string, string]))
    : undefined;
}

const GENERATED = ["calendar", "calendars", "list", "--as", "bot", "--page-all", "--page-size", "1"];
const RAW = [
  "api",
  "GET",
  "/open-apis/calendar/v4/calendars",
  "--as",
  "bot",
  "--page-all",
  "--page-size",
  "1",
];
const CHAT_LIST = ["im", "+chat-list", "--as", "bot", "--page-size", "1", "--page-all"];

Deno.test("api layers: a stop at --page-limit is in the json meta and, for streamed formats, in the truncation line", async () => {
  await withEmulator({}, async (emu) => {
    const env = emulatorEnv(emu);
    for (const base of [GENERATED, RAW]) {
      const all = await runCli([...base, "--page-limit", "0", "--format", "ndjson"], { env });
      assert.equal(all.code, 0, all.stderr);
      assert.equal(truncationOf(all.stderr), undefined, "no limit: nothing truncated");
      const every = all.stdout.trimEnd().split("\n").map((l) => JSON.parse(l).calendar_id as string);
      assert.ok(every.length >= 2, `the fixtures page in ≥ 2 pages (${every.length})`);

      const json = await runCli([...base, "--page-limit", "1"], { env });
      assert.equal(json.code, 0, json.stderr);
      const meta = json.json<{ meta: { truncated: boolean; page_token: string; count: number } }>().meta;
      assert.deepEqual([meta.truncated, meta.count], [true, 1]);
      assert.equal(truncationOf(json.stderr)?.page_token, meta.page_token);

      for (const format of ["ndjson", "table", "csv"]) {
        const r = await runCli([...base, "--page-limit", "1", "--format", format], { env });
        assert.equal(r.code, 0, r.stderr);
        const t = truncationOf(r.stderr);
        assert.deepEqual(t && [t.page_limit, t.pages_fetched], ["1", "1"], `${format}: ${r.stderr}`);
        assert.ok(r.stdout.includes(every[0]) && !r.stdout.includes(every[1]), `${format}: ${r.stdout}`);
        assert.ok(!r.stdout.includes("truncated"), "stdout holds only items");
      }

      // The token read from the line resumes at the first item not written.
      const first = await runCli([...base, "--page-limit", "1", "--format", "ndjson"], { env });
      const token = truncationOf(first.stderr)?.page_token;
      const rest = await runCli([
        ...base,
        "--page-limit",
        "0",
        "--format",
        "ndjson",
        "--params",
        JSON.stringify({ page_token: token }),
      ], { env });
      assert.equal(rest.code, 0, rest.stderr);
      const resumed = [first.stdout, rest.stdout].join("").trimEnd().split("\n").map((l) =>
        JSON.parse(l).calendar_id
      );
      assert.deepEqual(resumed, every);
    }
  });
});

Deno.test("shortcuts through paginate: --page-limit stops with meta.truncated and the line; --page-token resumes; 0 = no limit", async () => {
  await withEmulator({}, async (emu) => {
    const env = emulatorEnv(emu);
    const chats = Object.values(fixtures.CHATS).sort();

    const all = await runCli([...CHAT_LIST, "--page-limit", "0"], { env });
    assert.equal(all.code, 0, all.stderr);
    const allOut = all.json<{ data: { chat_id: string }[]; meta: Record<string, unknown> }>();
    assert.deepEqual(allOut.data.map((c) => c.chat_id).sort(), chats);
    assert.equal(allOut.meta.truncated, undefined);
    assert.equal(truncationOf(all.stderr), undefined);

    const limited = await runCli([...CHAT_LIST, "--page-limit", "2"], { env });
    assert.equal(limited.code, 0, limited.stderr);
    const out = limited.json<{ data: { chat_id: string }[]; meta: Record<string, unknown> }>();
    assert.deepEqual([out.meta.count, out.meta.has_more, out.meta.truncated], [2, true, true]);
    assert.equal(typeof out.meta.page_token, "string");
    const line = truncationOf(limited.stderr);
    assert.deepEqual(line, { page_limit: "2", pages_fetched: "2", page_token: out.meta.page_token });
    assert.match(limited.stderr, /resume with --page-token /);

    const rest = await runCli([
      "im",
      "+chat-list",
      "--as",
      "bot",
      "--page-size",
      "1",
      "--page-token",
      String(out.meta.page_token),
    ], { env });
    assert.equal(rest.code, 0, rest.stderr);
    const restIds = rest.json<{ data: { chat_id: string }[] }>().data.map((c) => c.chat_id);
    assert.deepEqual([...out.data.map((c) => c.chat_id), ...restIds].sort(), chats);

    // Streamed formats: stdout holds the items only; the facts are in the line.
    const ndjson = await runCli([...CHAT_LIST, "--page-limit", "1", "--format", "ndjson"], { env });
    assert.equal(ndjson.code, 0, ndjson.stderr);
    assert.equal(ndjson.stdout.trimEnd().split("\n").length, 1);
    assert.equal(truncationOf(ndjson.stderr)?.pages_fetched, "1");
  });
});

Deno.test("--page-limit takes 0 (no limit) and refuses a negative count, in every layer", async () => {
  await withEmulator({}, async (emu) => {
    const env = emulatorEnv(emu);
    for (const argv of [GENERATED, RAW, CHAT_LIST]) {
      const r = await runCli([...argv, "--page-limit", "-1"], { env });
      assert.equal(r.code, 2, `${argv.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, /page-limit/);
    }
  });
});

Deno.test("drive +search pages through paginate with the token in the body; its stop at the limit is reported", async () => {
  const emu = await startEmulator({});
  const configDir = await Deno.makeTempDir();
  try {
    await initAndLogin(emu, configDir);
    // The emulator has no search index: three one-hit pages answered here, chained by the body's page_token.
    const tokens: (string | undefined)[] = [];
    const fetch: typeof loopbackFetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!url.includes("/search/v2/doc_wiki/search")) return loopbackFetch(input, init);
      const token = JSON.parse(String(init?.body)).page_token as string | undefined;
      tokens.push(token);
      const n = token ? Number(token.slice(1)) : 0;
      const data = {
        res_units: [{ title_highlighted: `hit ${n}`, entity_type: "DOC" }],
        has_more: n < 2,
        ...(n < 2 ? { page_token: `p${n + 1}` } : {}),
      };
      return Promise.resolve(
        new Response(JSON.stringify({ code: 0, msg: "success", data }), {
          headers: { "content-type": "application/json" },
        }),
      );
    };
    const search = ["drive", "+search", "--query", "plan", "--as", "user", "--page-all"];
    const limited = await runCli([...search, "--page-limit", "2"], { configDir, fetch });
    assert.equal(limited.code, 0, limited.stderr);
    const out = limited.json<{ data: unknown[]; meta: Record<string, unknown> }>();
    assert.deepEqual(tokens, [undefined, "p1"], "the second page asked for with the token in the body");
    assert.deepEqual([out.data.length, out.meta.truncated, out.meta.page_token], [2, true, "p2"]);
    assert.equal(truncationOf(limited.stderr)?.page_token, "p2");

    tokens.length = 0;
    const all = await runCli([...search, "--page-limit", "0"], { configDir, fetch });
    assert.equal(all.code, 0, all.stderr);
    const every = all.json<{ data: unknown[]; meta: Record<string, unknown> }>();
    assert.deepEqual([every.data.length, every.meta.truncated, tokens], [3, undefined, [
      undefined,
      "p1",
      "p2",
    ]]);
  } finally {
    await emu.stop();
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("raw api: a later page failing under ndjson or csv keeps the items written and says where to resume", async () => {
  await withEmulator({}, async (emu) => {
    // Every page after the first fails for good (the network is gone).
    const fetch = offlineAfterFirstPage;
    for (const format of ["ndjson", "csv"]) {
      const r = await runCli([...RAW, "--format", format], {
        env: emulatorEnv(emu),
        fetch,
        sleep: () => Promise.resolve(),
      });
      assert.equal(r.code, 4, r.stderr);
      assert.ok(r.stdout.length > 0, `${format}: the first page's item stays on stdout`);
      const error = JSON.parse(r.stderr.slice(r.stderr.indexOf("\n{") + 1)).error;
      assert.deepEqual([error.type, error.detail.items_written, error.detail.pages_fetched], [
        "network",
        1,
        1,
      ]);
      assert.equal(typeof error.detail.page_token, "string");
    }
  });
});
