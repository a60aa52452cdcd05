/**
 * The catalogue (`commands --format ndjson`, what agents plan from) says which flags are required and what a
 * flag defaults to exactly as help does, for every command: both are derived here from the declarations help
 * is built from (commander's options, and a shortcut's own flags through `shortcutFlags`), and help's text
 * is checked to show them.
 */
import assert from "node:assert/strict";
import type { Option } from "commander";
import { type CatalogueEntry, leaves } from "../cli/commands/catalogue.ts";
import { commandPath, metaOf } from "../cli/command_meta.ts";
import { createRunContext } from "../cli/context.ts";
import { prescanGlobals } from "../cli/globals.ts";
import { buildTree } from "../cli/tree.ts";
import { shortcutFlags } from "../shortcuts/command_flags.ts";
import { loadShortcuts } from "../shortcuts/index.ts";
import { cliProvider, runCli } from "./helpers/run_cli.ts";

interface Declared {
  required: boolean;
  default?: unknown;
}

async function declaredByHelp(): Promise<Map<string, Map<string, Declared>>> {
  const configDir = await Deno.makeTempDir({ prefix: "larkit-catalogue-flags-" });
  try {
    const p = cliProvider({ configDir, env: { LARKIT_REMOTE_META: "off" } });
    const ctx = createRunContext(p, prescanGlobals([], p.env));
    const program = await buildTree([], ctx, { services: "all" });
    const out = new Map<string, Map<string, Declared>>();
    for (const leaf of leaves(program).filter((c) => c.name() !== "help")) {
      const path = commandPath(leaf);
      const shortcut = metaOf(leaf)?.layer === "shortcut"
        ? (await loadShortcuts(path[0])).find((s) => s.command === path[1])
        : undefined;
      const own = shortcut ? shortcutFlags(shortcut) : [];
      const help = leaf.createHelp();
      const flags = new Map<string, Declared>();
      for (const opt of (leaf.options as Option[]).filter((o) => !o.hidden)) {
        const f = own.find((f) => f.spec === opt.flags);
        // `addApiFlags` declares the API flags' notes beside the text it gives commander.
        const api = metaOf(leaf)?.layer === "shortcut"
          ? undefined
          : metaOf(leaf)?.flags?.[opt.long?.slice(2) ?? ""];
        const d: Declared = {
          required: Boolean(opt.mandatory) || f?.required === true || api?.required === true,
        };
        const fallback = opt.defaultValue ?? f?.shownDefault ?? api?.default;
        if (fallback !== undefined) d.default = fallback;
        // Help shows both: the note in the description, or commander's "(default: ...)".
        const text = help.optionDescription(opt);
        if (d.required && !opt.mandatory) {
          assert.match(text, /\(required\)/, `${path.join(" ")} ${opt.flags}`);
        }
        if (d.default !== undefined) {
          assert.ok(
            text.includes(`(default: ${d.default})`) ||
              text.includes(`(default: ${JSON.stringify(d.default)})`),
            `${path.join(" ")} ${opt.flags}: ${text}`,
          );
        }
        flags.set(opt.long ?? opt.short ?? opt.flags, d);
      }
      out.set(path.join(" "), flags);
    }
    return out;
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
}

Deno.test("the catalogue's required and default agree with help for every flag of every command", async () => {
  const help = await declaredByHelp();
  const r = await runCli(["commands", "--format", "ndjson"]);
  assert.equal(r.code, 0, r.stderr);
  const entries = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as CatalogueEntry);
  assert.equal(entries.length, help.size);
  let required = 0;
  for (const e of entries) {
    const flags = help.get(e.path);
    assert.ok(flags, e.path);
    assert.deepEqual(e.flags.map((f) => f.name), [...flags.keys()], e.path);
    for (const f of e.flags) {
      const d = flags.get(f.name) as Declared;
      assert.equal(f.required, d.required, `${e.path} ${f.name} required`);
      assert.deepEqual(f.default, d.default, `${e.path} ${f.name} default`);
      if (f.required) required++;
    }
  }
  assert.ok(required > 400, `${required} required flags`);
  const send = entries.find((e) => e.path === "im +messages-send") as CatalogueEntry;
  assert.equal(send.flags.find((f) => f.name === "--msg-type")?.default, "text");
  assert.equal(send.flags.find((f) => f.name === "--chat-id")?.required, false);
  const agendaFlags = entries.find((e) => e.path === "task +create")?.flags ?? [];
  assert.equal(agendaFlags.find((f) => f.name === "--summary")?.required, true);
});
