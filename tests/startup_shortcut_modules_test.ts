/**
 * `shortcuts/modules.json` names, for every shortcut of every service and each of its aliases, the module that
 * declares it, so the lean resolver (`cli/fast/method.ts`) loads that module alone for `<service> +name`. It is
 * written from the service lists by `deno run -A tests/startup_shortcut_modules_test.ts`; this test checks it
 * byte for byte. Each module is found by the identity of the objects its service's `index.ts` lists, so every
 * one it names is in that index's static graph, which `deno task compile` embeds.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { SHORTCUT_MODULES_FILE, type ShortcutModules } from "../cli/fast/shortcut_line.ts";
import { SHORTCUT_SERVICES } from "../shortcuts/index.ts";

const SHORTCUTS_DIR = fileURLToPath(new URL("../shortcuts/", import.meta.url));

async function* modulesUnder(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) yield* modulesUnder(path);
    else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) yield path;
  }
}

/** The map as the service lists give it: services and names in list order, paths relative to `shortcuts/`. */
async function modulesFromLists(): Promise<string> {
  const declaredIn = new Map<unknown, string>();
  const files: string[] = [];
  for await (const file of modulesUnder(SHORTCUTS_DIR)) files.push(file);
  for (const file of files.sort()) {
    for (const value of Object.values(await import(file))) {
      const path = relative(SHORTCUTS_DIR, file).replaceAll("\\", "/");
      const earlier = declaredIn.get(value);
      if (earlier === undefined) declaredIn.set(value, path);
      else if (typeof value === "object" && value !== null && "run" in value) {
        assert.fail(`a shortcut is exported by both ${earlier} and ${path}: export it from one module`);
      }
    }
  }
  const map: ShortcutModules = {};
  for (const [service, entry] of Object.entries(SHORTCUT_SERVICES)) {
    const names: Record<string, string> = {};
    for (const shortcut of await entry.load()) {
      const path = declaredIn.get(shortcut);
      assert.ok(path, `${service} ${shortcut.command} is exported by no module under shortcuts/`);
      // The first shortcut a name reaches is the one the list lookup finds.
      for (const name of [shortcut.command, ...(shortcut.aliases ?? [])]) names[name] ??= path;
    }
    map[service] = names;
  }
  return JSON.stringify(map, null, 2) + "\n";
}

Deno.test("shortcuts/modules.json names the module that declares every shortcut and alias", async () => {
  const written = await Deno.readTextFile(SHORTCUT_MODULES_FILE);
  assert.ok(
    written === await modulesFromLists(),
    "shortcuts/modules.json is stale: run `deno run -A tests/startup_shortcut_modules_test.ts`",
  );
});

if (import.meta.main) await Deno.writeTextFile(SHORTCUT_MODULES_FILE, await modulesFromLists());
