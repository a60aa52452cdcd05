/**
 * `larkit commands` answers the same through the lean resolver (`cli/fast/catalogue.ts`) as through the tree:
 * same stdout, stderr and exit code for every format, one service, a jq filter and the errors. The tree is
 * forced by a gate that allows everything. `cli/fast/catalogue_static.ndjson` is written from the tree by
 * `deno task gen` (`tests/manifest_test.ts` checks it is fresh).
 */
import assert from "node:assert/strict";
import { registryEntries, STATIC_FILE, type StaticHeader } from "../cli/fast/catalogue.ts";
import { runCli as runIn } from "../cli/run.ts";
import { calendarOverlay } from "./helpers/lean_vs_tree.ts";
import { openRegistry } from "../registry/index.ts";
import { cliProvider } from "./helpers/run_cli.ts";

const ENV = { LARKIT_REMOTE_META: "off" };

async function run(argv: string[], tree: boolean, configDir: string, env: Record<string, string> = ENV) {
  const p = cliProvider({ configDir, env });
  const code = await runIn(argv, p, tree ? { gate: () => undefined } : {});
  return { code, stdout: p.out.text(), stderr: p.err.text() };
}

Deno.test("the generated methods' entries worked out from the registry are the tree's (the overlay's path)", async () => {
  const lines = (await Deno.readTextFile(STATIC_FILE)).trimEnd().split("\n");
  const header = JSON.parse(lines[0]) as StaticHeader;
  let at = 1 + header.fixed;
  const registry = await openRegistry();
  for (const [name, [generated, other]] of Object.entries(header.services)) {
    const want = lines.slice(at, at + generated).map((l) => JSON.parse(l));
    at += generated + other;
    assert.deepEqual(registryEntries(name, await registry.methods(name)), want, name);
  }
});

Deno.test("commands answers the same through the lean resolver and through the tree", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-catalogue-" });
  try {
    const lines = [
      ["commands"],
      ["commands", "--format", "ndjson"],
      ["commands", "--format=table"],
      ["commands", "--service", "calendar"],
      ["commands", "--service", "event", "--format", "ndjson"],
      ["commands", "--service", "im", "-q", ".data | length"],
      ["commands", "--service", "nosuch"],
      ["commands", "--service", "config"],
      ["commands", "--format", "csv"],
      ["commands", "--format", "nosuch"],
      ["commands", "--nosuch"],
    ];
    for (const argv of lines) {
      const fast = await run(argv, false, configDir);
      const tree = await run(argv, true, configDir);
      assert.deepEqual(fast, tree, argv.join(" "));
    }
    // Strict mode prunes the tree: the lean resolver leaves that run to it.
    const strict = { ...ENV, LARKIT_APP_ID: "cli_x", LARKIT_APP_SECRET: "s", LARKIT_STRICT_MODE: "bot" };
    assert.deepEqual(
      await run(["commands", "--format", "ndjson"], false, configDir, strict),
      await run(["commands", "--format", "ndjson"], true, configDir, strict),
    );
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

Deno.test("with a registry overlay in force, the generated entries come from the overlay, as in the tree", async () => {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-catalogue-" });
  const cacheDir = await Deno.makeTempDir({ prefix: "larkit-catalogue-cache-" });
  try {
    // The overlay serves calendar with one method described anew and one method more.
    const env = await calendarOverlay(cacheDir, (list) => {
      list.description = "Lists calendars, as the overlay describes it";
      return { ...list, description: "A method only the overlay has" };
    });
    for (const argv of [["commands", "--format", "ndjson"], ["commands", "--service", "calendar"]]) {
      const fast = await run(argv, false, configDir, env);
      const tree = await run(argv, true, configDir, env);
      assert.equal(fast.code, 0, fast.stderr);
      assert.match(fast.stdout, /A method only the overlay has/, fast.stderr.slice(0, 600));
      assert.deepEqual(fast, tree, argv.join(" "));
    }
  } finally {
    await Deno.remove(configDir, { recursive: true });
    await Deno.remove(cacheDir, { recursive: true });
  }
});
