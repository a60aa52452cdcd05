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

/** The modules that load with `entry`, as paths under the repo (npm packages as `npm:name`). */
async function staticGraph(entry: string): Promise<Set<string>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: REPO,
    stderr: "inherit",
  }).output();
  assert.equal(out.code, 0);
  const info: Info = JSON.parse(new TextDecoder().decode(out.stdout));
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const root = new URL(entry, BASE).href;
  const seen = new Set<string>();
  const todo = [root];
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
  const graph = await staticGraph("cli/fast/complete.ts");
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
      "cli/fast/method.ts",
      [
        "shortcuts/index.ts",
        "shortcuts/command_flags.ts",
        "registry/fields.ts",
        "cli/resolve/usage.ts",
        "registry/overlay.ts",
      ],
      "a generated method's line",
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

Deno.test("app-server starts without commander, and without ws until remote control connects", async () => {
  assert.deepEqual(outside(await staticGraph("cli/commands/app_server.ts"), ["npm:commander", "npm:ws"]), []);
});
