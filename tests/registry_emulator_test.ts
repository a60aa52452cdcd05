/**
 * The registry end to end: every generated command's `--dry-run`; every method answered by the emulator from
 * its state (a response that validates against its shape and invents nothing, or the service's not-found for
 * an id it does not hold); a rotating sample of ≥ 200 methods run for real through larkit (exit 0 with data
 * valid against the shape, or the not-found) and, for a deliberately bad request, the suite's validation error.
 * The sample's seed rotates daily; set REGISTRY_SAMPLE_SEED to replay one (it is printed on failure).
 */
import assert from "node:assert/strict";
import { openRegistry } from "../registry/index.ts";
import type { ApiMethod } from "../registry/method.ts";
import { exampleRequest } from "../registry/example.ts";
import { responseShapeOf } from "../registry/shapes.ts";
import { validateValue } from "../registry/validate.ts";
import { hasHandWrittenRoute } from "../sandbox/server.ts";
import {
  emulatorEnv,
  fixtures,
  manualClock,
  startEmulator,
  tenantToken,
  userToken,
} from "./helpers/emulator.ts";
import { runCli } from "./helpers/run_cli.ts";
import { daySeed, sampleOf } from "./helpers/sample.ts";

/** Every method, deletes last (so a get or update of the same example id still finds its object). */
async function allMethods(): Promise<ApiMethod[]> {
  const registry = await openRegistry();
  const out: ApiMethod[] = [];
  for (const s of registry.listServices()) out.push(...await registry.methods(s.name));
  return lastDeletes(out);
}

function lastDeletes(methods: ApiMethod[]): ApiMethod[] {
  return [
    ...methods.filter((m) => m.httpMethod !== "DELETE"),
    ...methods.filter((m) => m.httpMethod === "DELETE"),
  ];
}

/** The `auth` service's generated commands are shadowed by the fixed `larkit auth` command. */
const reachable = (m: ApiMethod) => m.service !== "auth";

function urlOf(base: string, m: ApiMethod, params: Record<string, unknown>): string {
  const path = m.path.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(String(params[n])));
  const url = new URL(base + path);
  for (const [k, v] of Object.entries(params)) {
    if (m.parameters[k]?.location !== "query") continue;
    for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(one));
  }
  return url.toString();
}

function argsOf(m: ApiMethod): string[] {
  const { params, data } = exampleRequest(m);
  const args = [m.service, m.resource, m.name, "--params", JSON.stringify(params)];
  if (data && m.httpMethod !== "GET") args.push("--data", JSON.stringify(data));
  if (m.identities.length) args.push("--as", m.identities.includes("bot") ? "bot" : "user");
  return args;
}

const DRY_ENV = {
  LARKIT_BRAND: "custom",
  LARKIT_BASE_URL: "http://127.0.0.1:9",
  LARKIT_APP_ID: "cli_dry_run",
  LARKIT_APP_SECRET: "dry-run-secret",
};

Deno.test("every generated command's --dry-run prints its request", async () => {
  const methods = (await allMethods()).filter(reachable);
  assert.ok(methods.length >= 1268, `${methods.length} methods`);
  const configDir = await Deno.makeTempDir({ prefix: "larkit-dry-" });
  const failures: string[] = [];
  for (const m of methods) {
    const r = await runCli([...argsOf(m), "--dry-run"], { configDir, env: DRY_ENV });
    if (r.code !== 0) {
      failures.push(`${m.id}: exit ${r.code} ${r.stderr.slice(0, 200)}`);
      continue;
    }
    const out = JSON.stringify(r.json());
    const path = m.path.split("{")[0];
    if (!out.includes(path)) failures.push(`${m.id}: dry-run does not show ${path}`);
  }
  assert.deepEqual(failures, [], `${failures.length} of ${methods.length} dry-runs failed`);
});

/** Keys whose string values are ids (`chat_id`, `token`, `member_id_list`, ...). */
const ID_KEY = /(^|_)(id|ids|guid|token|key|code)(_list)?$/;
/** What a generic answer must never hold: the old sampler's placeholders. */
const PLACEHOLDER = /sample_|\(emulator\)|^Sandbox [a-z ]+ [0-9a-f]{4}$/;

/** Every (key, string) pair in an answer, arrays of strings under their key. */
function* stringsOf(v: unknown, key = ""): Generator<[string, string]> {
  if (typeof v === "string") yield [key, v];
  else if (Array.isArray(v)) { for (const x of v) yield* stringsOf(x, key); }
  else if (v && typeof v === "object") { for (const [k, x] of Object.entries(v)) yield* stringsOf(x, k); }
}

/** All the emulator's state as text: an id found here was seeded or created by the emulator. */
function stateText(emu: { db: import("node:sqlite").DatabaseSync }): string {
  const tables = emu.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
    name: string;
  }[];
  return tables.map((t) => JSON.stringify(emu.db.prepare(`SELECT * FROM "${t.name}"`).all())).join("\n");
}

Deno.test("the emulator answers every registry method from its state: valid shapes, no invented data", async () => {
  const methods = await allMethods();
  const emu = await startEmulator({ clock: manualClock() });
  try {
    const tat = await tenantToken(emu);
    const uat = (await userToken(emu)).access_token;
    const failures: string[] = [];
    let generic = 0;
    let answered = 0;
    let notFound = 0;
    let idsChecked = 0;
    const services = new Set<string>();
    let handWrittenOk = 0;
    for (const m of methods) {
      const { params, data } = exampleRequest(m);
      const url = urlOf(emu.url, m, params);
      const handWritten = hasHandWrittenRoute(m.httpMethod, new URL(url).pathname);
      const multipart = m.fileFields.length > 0;
      const sent = JSON.stringify(data ?? {});
      const res = await fetch(url, {
        method: m.httpMethod,
        headers: {
          authorization: `Bearer ${m.identities.includes("bot") ? tat : uat}`,
          "content-type": "application/json",
        },
        body: m.httpMethod === "GET" || multipart ? undefined : sent,
      });
      const text = await res.text();
      if (res.status === 404 && /page not found/.test(text)) {
        failures.push(`${m.id}: not answered`);
        continue;
      }
      if (multipart) continue;
      const shape = await responseShapeOf(m);
      if (handWritten) {
        // Hand-written routes answer example ids with their own 4xx; what they do answer must fit the shape.
        if (res.status !== 200 || shape?.format === "binary") continue;
        handWrittenOk++;
        const problems = shape ? validateValue(shape, (JSON.parse(text) as { data?: unknown }).data) : [];
        if (problems.length) failures.push(`${m.id} (hand-written): ${problems.slice(0, 3).join("; ")}`);
        continue;
      }
      generic++;
      if (shape?.format === "binary" && res.status === 200) {
        failures.push(`${m.id}: a download of a file the emulator never held answered ${res.status}`);
        continue;
      }
      const body = JSON.parse(text) as { code: number; msg: string; data?: unknown };
      if (res.status !== 200 || body.code !== 0) {
        // The example ids name nothing the emulator holds: the only failure allowed is the service's
        // not-found for one of them.
        const named = Object.entries(params).some(([k, v]) =>
          ["path", "query"].includes(m.parameters[k]?.location ?? "") && body.msg?.endsWith(`: ${v}`)
        );
        if (named && res.status >= 400 && res.status < 500) notFound++;
        else failures.push(`${m.id}: ${res.status} ${text.slice(0, 200)}`);
        continue;
      }
      answered++;
      services.add(m.service);
      const problems = shape ? validateValue(shape, body.data) : [];
      if (problems.length) failures.push(`${m.id}: ${problems.slice(0, 3).join("; ")}`);
      // Nothing invented: no placeholder, and every id is one the request named or the emulator holds.
      let state: string | undefined;
      for (const [key, value] of stringsOf(body.data)) {
        if (PLACEHOLDER.test(value)) {
          failures.push(`${m.id}: ${key} = ${JSON.stringify(value)} is a placeholder`);
        }
        if (!value || !ID_KEY.test(key)) continue;
        idsChecked++;
        if (url.includes(encodeURIComponent(value)) || sent.includes(JSON.stringify(value))) continue;
        state ??= stateText(emu);
        if (!state.includes(value)) {
          failures.push(`${m.id}: ${key} = ${value} was neither asked for nor held`);
        }
      }
    }
    assert.deepEqual(failures, [], `${failures.length} failures`);
    assert.ok(generic > 1100, `${generic} methods served by the generic handler`);
    // The sweep's coverage: successful generic answers across services, and the not-found answers.
    assert.ok(answered >= 600 && services.size >= 45, `${answered} answers from ${services.size} services`);
    assert.ok(notFound >= 500, `${notFound} not-found answers`);
    assert.ok(idsChecked >= 300, `${idsChecked} ids checked`);
    assert.ok(handWrittenOk >= 10, `${handWrittenOk} hand-written answers checked against their shapes`);
  } finally {
    await emu.stop();
  }
});

Deno.test("a rotating sample of 200+ methods runs for real through larkit; bad requests get the suite's 99992402", async () => {
  const seed = daySeed("REGISTRY_SAMPLE_SEED");
  const candidates = (await allMethods()).filter((m) =>
    reachable(m) && !m.fileFields.length && !hasHandWrittenRoute(m.httpMethod, urlPath(m))
  );
  const sample = sampleOf(candidates, 220, seed);
  const ordered = lastDeletes(sample);
  const emu = await startEmulator({ clock: manualClock() });
  const configDir = await Deno.makeTempDir({ prefix: "larkit-sample-" });
  try {
    const uat = (await userToken(emu)).access_token;
    const env = { ...emulatorEnv(emu), LARKIT_USER_ACCESS_TOKEN: uat };
    const failures: string[] = [];
    let bad = 0;
    let notFound = 0;
    for (const m of ordered) {
      const shape = await responseShapeOf(m);
      // A method that answers a file is run as a user would run it: with --output, in a directory of its own.
      const download = shape?.format === "binary";
      const cwd = download ? await Deno.makeTempDir({ prefix: "larkit-sample-out-" }) : undefined;
      const out = download ? ["--output", "answer.bin"] : [];
      const r = await runCli([...argsOf(m), ...yes(m), ...out], { configDir, env, cwd });
      if (download && r.code === 0 && (await Deno.stat(`${cwd}/answer.bin`)).size === 0) {
        failures.push(`${m.id}: --output wrote an empty file`);
      }
      if (r.code !== 0) {
        // An example id names nothing the emulator holds: the service's not-found is the right answer.
        const e = r.stderr ? r.errorJson() as { error?: { subtype?: string; message?: string } } : {};
        const named = Object.entries(exampleRequest(m).params).some(([k, v]) =>
          m.parameters[k]?.location === "path" && e.error?.message?.endsWith(`: ${v}`)
        );
        if (!named) {
          failures.push(`${m.id}: exit ${r.code} ${r.stderr.slice(0, 300)}`);
          continue;
        }
        notFound++;
      } else if (shape && shape.format !== "binary") {
        const problems = validateValue(shape, (r.json() as { data: unknown }).data);
        if (problems.length) failures.push(`${m.id}: ${problems.slice(0, 3).join("; ")}`);
      }
      // The deliberately bad request: drop one required query parameter or body field (raw `api`, which
      // does not check the registry, so the emulator must).
      const { params, data } = exampleRequest(m);
      const query = Object.keys(params).find((k) => m.parameters[k]?.location === "query");
      // A GET carries no body (larkit does not send one), so only a non-GET can lose a body field.
      const field = data && m.httpMethod !== "GET" ? Object.keys(data)[0] : undefined;
      if (!query && !field) continue;
      const badParams = { ...params };
      const badData = data ? { ...data } : undefined;
      if (query) delete badParams[query];
      else delete badData![field!];
      const path = m.path.replace(/\{([^}]+)\}/g, (_, n: string) => String(params[n]));
      const queryOnly = Object.fromEntries(
        Object.entries(badParams).filter(([k]) => m.parameters[k]?.location === "query"),
      );
      const args = ["api", m.httpMethod, path, "--params", JSON.stringify(queryOnly), "--yes"];
      if (badData && m.httpMethod !== "GET") args.push("--data", JSON.stringify(badData));
      if (m.identities.length) args.push("--as", m.identities.includes("bot") ? "bot" : "user");
      const b = await runCli(args, { configDir, env });
      bad++;
      const err = b.stderr ? b.errorJson() as { error?: { code?: number } } : {};
      if (b.code === 0 || err.error?.code !== 99992402) {
        failures.push(
          `${m.id} (bad request without ${query ?? field}): exit ${b.code} ${b.stderr.slice(0, 200)}`,
        );
      }
    }
    assert.deepEqual(
      failures,
      [],
      `seed ${seed} (REGISTRY_SAMPLE_SEED=${seed} to replay): ${failures.length} failures`,
    );
    assert.ok(
      sample.length >= 200 && bad >= 50 && sample.length - notFound >= 80,
      `seed ${seed}: ${sample.length} sampled (${notFound} answered not-found), ${bad} bad requests`,
    );
  } finally {
    await emu.stop();
  }
});

Deno.test("generic handler: create → get → patch → list → delete act on what was created; lists paginate", async () => {
  const emu = await startEmulator({ clock: manualClock() });
  try {
    const uat = (await userToken(emu)).access_token;
    const env = { ...emulatorEnv(emu), LARKIT_USER_ACCESS_TOKEN: uat };
    const larkit = (args: string[]) => runCli(args, { env });
    const run = async (args: string[]) => {
      const r = await larkit(args);
      assert.equal(r.code, 0, r.stderr);
      return (r.json() as { data: Record<string, unknown> }).data;
    };
    // A table made through the tables API takes views (a shaped resource): ids in the suite's format, the body
    // merged in, answers fit the shape.
    const madeTable = await run([
      "bitable",
      "app.tables",
      "create",
      "--as",
      "bot",
      "--params",
      JSON.stringify({ app_token: fixtures.BASE.app }),
      "--data",
      '{"table":{"name":"Leads"}}',
    ]);
    const tableId = madeTable.table_id as string;
    assert.match(tableId, /^tbl[A-Za-z0-9]{13}$/, "a bitable table id in the suite's format");
    const app = JSON.stringify({ app_token: fixtures.BASE.app, table_id: tableId });
    const made = await run([
      "bitable",
      "app.table.views",
      "create",
      "--as",
      "bot",
      "--params",
      app,
      "--data",
      '{"view_name":"Open items","view_type":"grid"}',
    ]);
    const view = made.view as { view_id: string; view_name: string };
    assert.equal(view.view_name, "Open items");
    assert.match(view.view_id, /^vew[A-Za-z0-9]{10}$/, "a bitable view id in the suite's format");
    const at = JSON.stringify({ app_token: fixtures.BASE.app, table_id: tableId, view_id: view.view_id });
    await run([
      "bitable",
      "app.table.views",
      "patch",
      "--as",
      "bot",
      "--params",
      at,
      "--data",
      '{"view_name":"Done"}',
    ]);
    const got = await run(["bitable", "app.table.views", "get", "--as", "bot", "--params", at]);
    assert.equal((got.view as { view_name: string }).view_name, "Done");
    const listed = await run(["bitable", "app.table.views", "list", "--as", "bot", "--params", app]);
    assert.deepEqual((listed.items as { view_id: string }[]).map((v) => v.view_id), [view.view_id]);
    await run(["bitable", "app.table.views", "delete", "--as", "bot", "--params", at, "--yes"]);
    const gone = await larkit(["bitable", "app.table.views", "get", "--as", "bot", "--params", at]);
    assert.notEqual(gone.code, 0);
    const after = await run(["bitable", "app.table.views", "list", "--as", "bot", "--params", app]);
    assert.deepEqual(after.items, []);

    // A POST search lists the collection it names (`…/cost_centers/search` → `…/cost_centers`).
    const center = await run([
      "corehr",
      "cost_centers",
      "create",
      "--as",
      "bot",
      "--data",
      JSON.stringify({ name: [{ lang: "en-US", value: "R&D" }], effective_time: "2026-01-01" }),
    ]);
    const centerId = (center.cost_center as { cost_center_id: string }).cost_center_id;
    const found = await run([
      "corehr",
      "cost_centers",
      "search",
      "--as",
      "bot",
      "--params",
      '{"page_size":10}',
      "--data",
      "{}",
    ]);
    assert.deepEqual((found.items as { cost_center_id: string }[]).map((c) => c.cost_center_id), [centerId]);

    // An id never created names nothing: the suite's not-found, not a made-up meeting.
    const meeting = await larkit([
      "vc",
      "meetings",
      "get",
      "--as",
      "bot",
      "--params",
      '{"meeting_id":"6911188411932033028"}',
    ]);
    assert.equal(meeting.code, 1, meeting.stderr);
    assert.equal(meeting.errorJson().error.subtype, "not_found");
    assert.equal(meeting.stdout, "");

    // A supplementary entry (base v3 tables, no declared response) is served the same way.
    const base = JSON.stringify({ base_token: "bascnSandboxBase" });
    const table = await run([
      "base",
      "tables",
      "create",
      "--as",
      "bot",
      "--params",
      base,
      "--data",
      '{"name":"Leads"}',
    ]);
    assert.equal(table.name, "Leads");
    const tables = await run(["base", "tables", "list", "--as", "bot", "--params", base]);
    assert.deepEqual((tables.items as { name: string }[]).map((t) => t.name), ["Leads"]);

    // Pagination over created objects: page_size, page_token, has_more.
    // After the seeded personal library, the spaces made here, in order.
    for (const name of ["One", "Two", "Three"]) {
      await run(["wiki", "spaces", "create", "--as", "user", "--data", JSON.stringify({ name })]);
    }
    const page1 = await run(["wiki", "spaces", "list", "--as", "user", "--params", '{"page_size":2}']);
    assert.deepEqual((page1.items as { name: string }[]).map((s) => s.name), ["My library", "One"]);
    assert.equal(page1.has_more, true);
    const page2 = await run([
      "wiki",
      "spaces",
      "list",
      "--as",
      "user",
      "--params",
      JSON.stringify({ page_size: 2, page_token: page1.page_token }),
    ]);
    assert.deepEqual((page2.items as { name: string }[]).map((s) => s.name), ["Two", "Three"]);
    assert.equal(page2.has_more, false);
    const all = await larkit(["wiki", "spaces", "list", "--as", "user", "--page-all", "--page-size", "1"]);
    assert.equal(all.code, 0, all.stderr);
    assert.equal((all.json() as { data: { items: unknown[] } }).data.items.length, 4);
  } finally {
    await emu.stop();
  }
});

/** High-risk writes ask first; `--yes` is their flag (other commands do not take it). */
const yes = (m: ApiMethod) => m.risk === "high-risk-write" ? ["--yes"] : [];

function urlPath(m: ApiMethod): string {
  const { params } = exampleRequest(m);
  return new URL(urlOf("http://x", m, params)).pathname;
}

Deno.test("a generated command counts the items of its declared list field, not the first array", async () => {
  const emu = await startEmulator({ clock: manualClock() });
  try {
    const registry = await openRegistry();
    const m = (await registry.findMethod("attendance", "user_stats_datas", "query"))!;
    assert.equal(m.listField, "user_datas");
    // A user the tenant does not have: the answer lists it in `invalid_user_list`, before the (empty) list field.
    const data = JSON.stringify({ ...exampleRequest(m).data, user_ids: ["nobody01"] });
    const args = [...argsOf(m), "--params", JSON.stringify({ employee_type: "employee_id" }), "--data", data];
    const r = await runCli(args, { env: emulatorEnv(emu) });
    assert.equal(r.code, 0, r.stderr);
    const out = r.json() as {
      data: { user_datas: unknown[]; invalid_user_list: unknown[] };
      meta: { count: number };
    };
    assert.deepEqual(out.data.invalid_user_list, ["nobody01"], "the answer has another, non-empty array");
    assert.equal(out.meta.count, out.data.user_datas.length);
    // The table shows the list field's items, not the other array (nor the wrapper).
    const table = await runCli([...args, "--format", "table"], { env: emulatorEnv(emu) });
    assert.equal(table.code, 0, table.stderr);
    assert.ok(!table.stdout.includes("nobody01"), table.stdout);
  } finally {
    await emu.stop();
  }
});
