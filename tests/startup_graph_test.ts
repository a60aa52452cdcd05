/**
 * What the start-up paths load, from the module graph Deno builds (`deno info --json`): each module's static
 * imports, which load with it. Modules kept out of a path on purpose (issue 17) must stay out: a literal
 * import brings them back without any test of behaviour noticing.
 */
import assert from "node:assert/strict";
import { REPO } from "./helpers/run_main.ts";

interface Info {
  modules: {
    specifier: string;
    dependencies?: { code?: { specifier?: string }; isDynamic?: boolean }[];
  }[];
}

const BASE = new URL("../", import.meta.url).href;

/**
 * The modules that load with `entries` (files under the repo), as paths under the repo (npm packages as
 * `npm:name`). One `deno info` of a module that imports them all.
 */
async function staticGraph(...entries: string[]): Promise<Set<string>> {
  const dir = await Deno.makeTempDir({ prefix: "larkit-graph-" });
  const entry = `${dir}/entry.ts`;
  await Deno.writeTextFile(
    entry,
    entries.map((e) => `import ${JSON.stringify(new URL(e, BASE).href)};\n`).join(""),
  );
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--config", "deno.json", entry],
      cwd: REPO,
      stderr: "inherit",
    }).output();
    assert.equal(out.code, 0);
    const info: Info = JSON.parse(new TextDecoder().decode(out.stdout));
    const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
    for (const e of entries) {
      assert.ok(bySpecifier.has(new URL(e, BASE).href), `${e} is a module of the repo`);
    }
    const seen = new Set<string>();
    const todo = entries.map((e) => new URL(e, BASE).href);
    while (todo.length) {
      const at = todo.pop() as string;
      if (seen.has(at)) continue;
      seen.add(at);
      for (const d of bySpecifier.get(at)?.dependencies ?? []) {
        if (!d.isDynamic && d.code?.specifier) todo.push(d.code.specifier);
      }
    }
    return new Set(
      [...seen].map((s) =>
        s.startsWith(BASE) ? s.slice(BASE.length) : s.replace(/^npm:\/?([^@]+).*$/, "npm:$1")
      ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const outside = (graph: Set<string>, paths: string[]) => paths.filter((p) => graph.has(p));

Deno.test("every run's first graph holds no renderer, no jq, no dry-run text", async () => {
  const graph = await staticGraph("main.ts");
  assert.deepEqual(
    [...graph].filter((p) => p.startsWith("cli/output/formats/") || p === "cli/output/dry_run.ts"),
    [],
  );
});

Deno.test("a Tab loads no renderer and no config file module", async () => {
  const graph = await staticGraph("cli/commands/completion.ts");
  assert.deepEqual(outside(graph, ["cli/output/formats/render.ts", "cli/config/config_file.ts"]), []);
});

Deno.test("a dry run's executor and pipeline load no HTTP client", async () => {
  for (const entry of ["cli/api_commands/execute.ts", "shortcuts/pipeline.ts", "cli/commands/api.ts"]) {
    assert.deepEqual(outside(await staticGraph(entry), ["cli/http/client.ts"]), [], entry);
  }
});

/**
 * What only some runs need (`--jq`, `--page-all`, MCP, a write's prompt, a local file), kept out of a dry
 * run's path.
 */
const ON_DEMAND = [
  "cli/local_paths.ts",
  "cli/output/formats/render.ts",
  "cli/output/formats/jq.ts",
  "cli/http/pagination.ts",
  "cli/risk.ts",
];

for (
  const [entry, kept, why] of [
    ["cli/api_commands/execute.ts", [...ON_DEMAND, "cli/output/formats/rows.ts"], "an API call's dry run"],
    ["shortcuts/pipeline.ts", [...ON_DEMAND, "cli/http/mcp.ts"], "a shortcut's dry run"],
    [
      "cli/resolve/run.ts",
      [
        "registry/fields.ts",
        "registry/overlay.ts",
        "registry/schema.ts",
        "registry/describe.ts",
        "cli/api_commands/execute.ts",
        "cli/api_commands/method_help.ts",
        "shortcuts/pipeline.ts",
        "cli/http/client.ts",
        "cli/auth/chain.ts",
        "cli/config/config_file.ts",
        "cli/output/formats/render.ts",
        "cli/output/formats/jq.ts",
        "cli/vendor/zod/zod.js",
      ],
      "a generated method's line (the resolver, before the method runs)",
    ],
    ["cli/commands/schema.ts", ["cli/output/formats/jq.ts"], "schema without --jq"],
    ["cli/commands/envelope_output.ts", ["cli/output/formats/render.ts"], "a fixed command's --format check"],
    [
      "cli/auth/chain.ts",
      ["cli/auth/config_provider.ts", "cli/config/secret_store.ts", "cli/auth/scopes.ts"],
      "environment credentials",
    ],
  ] as const
) {
  Deno.test(`${why} loads none of ${kept.join(", ")}`, async () => {
    assert.deepEqual(outside(await staticGraph(entry), [...kept]), []);
  });
}

Deno.test("app-server starts without ws until remote control connects", async () => {
  assert.deepEqual(outside(await staticGraph("cli/commands/app_server.ts"), ["npm:ws"]), []);
});

/** Every module `lazy(...)` may load (`cli/lazy.ts`'s table), read from its text. */
async function lazyModules(): Promise<string[]> {
  const text = await Deno.readTextFile(new URL("cli/lazy.ts", BASE));
  const paths = [...text.matchAll(/^ {2}"([^"]+\.ts)": typeof /gm)].map((m) => m[1]);
  assert.ok(paths.includes("cli/resolve/run.ts") && paths.length > 40, `${paths.length} lazy modules`);
  return paths;
}

Deno.test("no run loads commander: the resolver is the one reading of argv", async () => {
  const graph = await staticGraph("main.ts", ...await lazyModules());
  assert.ok(graph.has("cli/resolve/parse.ts") && graph.has("npm:ws"), "the graph is the whole program's");
  assert.deepEqual(outside(graph, ["npm:commander"]), []);
});
