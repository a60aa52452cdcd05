/**
 * The catalogue (`commands --format ndjson`, what agents plan from) says which flags a command has, which are
 * required and what a flag defaults to exactly as help does, for every command: help's text is read here, per
 * leaf of the listed command nodes (`formatHelp`, what `--help` prints), and the catalogue's line must say
 * the same of each flag.
 */
import assert from "node:assert/strict";
import { type CatalogueEntry, leaves } from "../cli/commands/catalogue.ts";
import { createRunContext } from "../cli/context.ts";
import { prescanGlobals } from "../cli/globals.ts";
import { formatHelp } from "../cli/resolve/help_format.ts";
import { expanded, flagsOf, nodePath } from "../cli/resolve/node.ts";
import { liveRoot } from "../cli/resolve/root.ts";
import { shortcutFlags } from "../shortcuts/command_flags.ts";
import { loadShortcuts } from "../shortcuts/index.ts";
import { cliProvider, runCli } from "./helpers/run_cli.ts";

/** What help says of a flag: the text on its line. */
interface Shown {
  required: boolean;
  /** What follows `(default: ` in its line, as printed. */
  default?: string;
}

/** A width no description reaches: each option's help stays on one line. */
const WIDE = 100_000;

/** Each option line of a help text: `  --name <v>  description`, keyed by the long (else short) flag. */
function optionLines(help: string): Map<string, string> {
  const section = help.split("\nOptions:\n")[1]?.split("\n\n")[0] ?? "";
  const out = new Map<string, string>();
  for (const line of section.split("\n")) {
    const m = /^ {2}((?:-\w, )?(-[-\w]+)(?: [<[][^>\]]*[>\]])?)(?: {2,}(.*))?$/.exec(line);
    if (m && m[2] !== "--help") out.set(m[2], m[3] ?? "");
  }
  return out;
}

async function shownByHelp(): Promise<Map<string, Map<string, Shown>>> {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-catalogue-flags-" });
  try {
    const p = cliProvider({ configDir, env: { LARKIT_REMOTE_META: "off" } });
    const root = await expanded(await liveRoot(createRunContext(p, prescanGlobals([], p.env))));
    const out = new Map<string, Map<string, Shown>>();
    for (const leaf of leaves(root)) {
      await leaf.describe?.();
      const path = nodePath(leaf).join(" ");
      const flags = new Map<string, Shown>();
      for (const [name, text] of optionLines(formatHelp(leaf, WIDE))) {
        const shown: Shown = { required: /\(required\)/.test(text) };
        const fallback = /\(default: ([^)]*)\)/.exec(text)?.[1];
        if (fallback !== undefined) shown.default = fallback;
        flags.set(name, shown);
      }
      // Every visible declared flag has its line (the reading of help above is not blind).
      const declared = leaf.options.filter((o) => !o.hidden).map((o) => flagsOf(o).long ?? flagsOf(o).short);
      assert.deepEqual([...flags.keys()], declared, `${path}: help's flags`);
      out.set(path, flags);
    }
    return out;
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
}

Deno.test("the catalogue's flags, required and default agree with help for every flag of every command", async () => {
  const help = await shownByHelp();
  const r = await runCli(["commands", "--format", "ndjson"]);
  assert.equal(r.code, 0, r.stderr);
  const entries = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as CatalogueEntry);
  assert.equal(entries.length, help.size);
  let required = 0;
  let defaults = 0;
  for (const e of entries) {
    const flags = help.get(e.path);
    assert.ok(flags, e.path);
    assert.deepEqual(e.flags.map((f) => f.name), [...flags.keys()], e.path);
    for (const f of e.flags) {
      const shown = flags.get(f.name) as Shown;
      assert.equal(f.required, shown.required, `${e.path} ${f.name} required`);
      // Only this way round: many descriptions say what happens without the flag in words
      // (`(default: the root of My Space)`), which is no value for the catalogue.
      if (f.default !== undefined) {
        assert.ok(
          shown.default === String(f.default) || shown.default === JSON.stringify(f.default),
          `${e.path} ${f.name} default: catalogue ${JSON.stringify(f.default)}, help ${shown.default}`,
        );
        defaults++;
      }
      if (f.required) required++;
    }
  }
  assert.ok(required > 400, `${required} required flags`);
  assert.ok(defaults > 1000, `${defaults} flags with a default`);
  const send = entries.find((e) => e.path === "im +messages-send") as CatalogueEntry;
  assert.equal(send.flags.find((f) => f.name === "--msg-type")?.default, "text");
  assert.equal(send.flags.find((f) => f.name === "--chat-id")?.required, false);
  const createFlags = entries.find((e) => e.path === "task +create")?.flags ?? [];
  assert.equal(createFlags.find((f) => f.name === "--summary")?.required, true);
  const list = entries.find((e) => e.path === "calendar calendars list")?.flags ?? [];
  assert.equal(list.find((f) => f.name === "--page-limit")?.default, "10");
});

Deno.test("a shortcut's required flags in the catalogue are the ones its declaration requires", async () => {
  const r = await runCli(["commands", "--service", "task", "--format", "ndjson"]);
  assert.equal(r.code, 0, r.stderr);
  const entries = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as CatalogueEntry);
  let checked = 0;
  for (const shortcut of await loadShortcuts("task")) {
    const entry = entries.find((e) => e.path === `task ${shortcut.command}`);
    assert.ok(entry, shortcut.command);
    const want = shortcutFlags(shortcut).filter((f) => f.required).map((f) =>
      /--[a-z0-9-]+/.exec(f.spec)?.[0]
    );
    assert.deepEqual(entry.flags.filter((f) => f.required).map((f) => f.name), want, entry.path);
    checked += want.length;
  }
  assert.ok(checked > 5, `${checked} required flags checked`);
});
