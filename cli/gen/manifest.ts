/**
 * The CLI's manifest, written by `deno task gen` from the declarations (never by a test, never by hand): what
 * the resolver reads so that a run builds only the command nodes its words name.
 *
 * - `shortcuts/modules.json`: for every shortcut of every service and each of its aliases, the module that
 *   declares it, so `<service> +name` loads that module alone. Each module is found by the identity of the
 *   objects its service's `index.ts` lists, so every one it names is in that index's static graph, which
 *   `deno task compile` embeds.
 * - `cli/resolve/help_static.ndjson`: the root's list, then per service the shortcuts' help and completion
 *   data.
 * - `cli/resolve/catalogue_static.ndjson`: the catalogue (`commands`) with strict mode off, a header first.
 * - `deno.json`'s `compile` task: an `--include` for every lazily loaded module (`cli/lazy.ts`'s table) and
 *   every path a run reads by a computed name (`LAZY_DATA`), so the compiled binary holds them.
 *
 * Kept as three files, not one: a shortcut's dry run reads 13 KB of module names, not the 3.8 MB catalogue.
 * `tests/manifest_test.ts` checks each is what this writes and names the command that rewrites them.
 */
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { registryOf } from "../api_commands/registry_of.ts";
import { type CatalogueEntry, nodeCatalogue, STATIC_FILE, type StaticHeader } from "../commands/catalogue.ts";
import { FIXED_NAMES } from "../resolve/fixed_commands.ts";
import { createRunContext } from "../context.ts";
import { prescanGlobals } from "../globals.ts";
import { LAZY_DATA } from "../lazy.ts";
import { subcommandTerm } from "../resolve/help_format.ts";
import { liveRoot, type StaticRoot } from "../resolve/root.ts";
import { HELP_STATIC_FILE } from "../resolve/services.ts";
import { SHORTCUT_MODULES_FILE, type ShortcutModules, staticShortcut } from "../resolve/shortcut_nodes.ts";
import { testProvider } from "../test_provider.ts";
import { openRegistry } from "../../registry/index.ts";
import { loadShortcuts, SHORTCUT_SERVICES } from "../../shortcuts/index.ts";

const SHORTCUTS_DIR = fileURLToPath(new URL("../../shortcuts/", import.meta.url));

/** A provider with no network, no colour and a throw-away home: what the manifest says depends on no machine. */
function quietProvider(home: string) {
  return testProvider({ home, env: { NO_COLOR: "1", LARKIT_REMOTE_META: "off" } });
}

async function withHome<T>(f: (home: string) => Promise<T>): Promise<T> {
  const home = await Deno.makeTempDir({ prefix: "larkit-gen-" });
  try {
    return await f(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

async function* modulesUnder(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) yield* modulesUnder(path);
    else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) yield path;
  }
}

/** `shortcuts/modules.json`: services and names in list order, paths relative to `shortcuts/`. */
export async function shortcutModules(): Promise<string> {
  const declaredIn = new Map<unknown, string>();
  const files: string[] = [];
  for await (const file of modulesUnder(SHORTCUTS_DIR)) files.push(file);
  for (const file of files.sort()) {
    for (const value of Object.values(await import(file))) {
      const path = relative(SHORTCUTS_DIR, file).replaceAll("\\", "/");
      const earlier = declaredIn.get(value);
      if (earlier === undefined) declaredIn.set(value, path);
      else if (typeof value === "object" && value !== null && "run" in value) {
        throw new Error(`a shortcut is exported by both ${earlier} and ${path}: export it from one module`);
      }
    }
  }
  const map: ShortcutModules = {};
  for (const [service, entry] of Object.entries(SHORTCUT_SERVICES)) {
    const names: Record<string, string> = {};
    for (const shortcut of await entry.load()) {
      const path = declaredIn.get(shortcut);
      if (!path) throw new Error(`${service} ${shortcut.command} is exported by no module under shortcuts/`);
      // The first shortcut a name reaches is the one the list lookup finds.
      for (const name of [shortcut.command, ...(shortcut.aliases ?? [])]) names[name] ??= path;
    }
    map[service] = names;
  }
  return JSON.stringify(map, null, 2) + "\n";
}

/** The root's line of `help_static.ndjson`, from the nodes (strict mode off, the baseline registry). */
function rootLine(): Promise<string> {
  return withHome(async (home) => {
    const p = quietProvider(home);
    const ctx = createRunContext(p, prescanGlobals([], p.env));
    const root = await liveRoot(ctx);
    const listed: StaticRoot = {
      registry: (await registryOf(ctx)).version,
      commands: root.commands.map((c) => ({
        name: c.name,
        aliases: c.aliases,
        ...(c.hidden ? { hidden: true } : {}),
        term: subcommandTerm(c),
        about: c.summary || c.description,
        ...(c.identities && c.layer !== "builtin" ? { identities: [...c.identities] } : {}),
      })),
    };
    return JSON.stringify({ root: listed });
  });
}

/** `help_static.ndjson`: the root's line, then a line per service with shortcuts. */
export async function helpStatic(): Promise<string> {
  const lines = [await rootLine()];
  for (const service of Object.keys(SHORTCUT_SERVICES)) {
    if (FIXED_NAMES.has(service)) continue;
    lines.push(JSON.stringify({ service, shortcuts: (await loadShortcuts(service)).map(staticShortcut) }));
  }
  return lines.join("\n") + "\n";
}

/** `catalogue_static.ndjson`: a header, then every leaf's entry in tree order (strict mode off). */
export function catalogueStatic(): Promise<string> {
  return withHome(async (home) => {
    const p = quietProvider(home);
    const ctx = createRunContext(p, prescanGlobals([], p.env));
    const entries = await nodeCatalogue(ctx) as CatalogueEntry[];
    const registry = await openRegistry();
    const generated = new Set<string>();
    for (const s of registry.listServices()) {
      for (const m of await registry.methods(s.name)) generated.add(`${s.name} ${m.resource} ${m.name}`);
    }
    const header: StaticHeader = { registry: registry.version, fixed: 0, services: {} };
    for (const e of entries) {
      const word = e.path.split(" ")[0];
      if (FIXED_NAMES.has(word)) header.fixed++;
      else {
        const counts = header.services[word] ??= [0, 0];
        if (generated.has(e.path)) {
          // The file relies on a service's generated methods coming before its other leaves.
          if (counts[1] !== 0) throw new Error(`${e.path} comes after a leaf that is not generated`);
          counts[0]++;
        } else counts[1]++;
      }
    }
    return [header, ...entries].map((e) => JSON.stringify(e)).join("\n") + "\n";
  });
}

const LAZY_FILE = new URL("../lazy.ts", import.meta.url);
const DENO_JSON = new URL("../../deno.json", import.meta.url);

/** The keys of `cli/lazy.ts`'s table (`LazyModules`) with the type each names, in table order. */
export async function lazyTable(): Promise<{ path: string; type: string }[]> {
  const text = await Deno.readTextFile(LAZY_FILE);
  const body = text.split("export interface LazyModules {")[1]?.split("\n}")[0];
  if (body === undefined) throw new Error("cli/lazy.ts has no `export interface LazyModules { ... }`");
  return [...body.matchAll(/^\s*"([^"]+)": typeof (\w+);$/gm)].map((m) => ({ path: m[1], type: m[2] }));
}

/** The `compile` task: an `--include` for every lazily loaded module and every path read by a computed name. */
export async function compileTask(): Promise<string> {
  const includes = [...LAZY_DATA, ...(await lazyTable()).map((e) => e.path)];
  return `deno compile -A --frozen ${
    includes.map((i) => `--include ${i}`).join(" ")
  } --output dist/larkit main.ts`;
}

/** `deno.json` with its `compile` task rewritten from the table, everything else as it is. */
export async function denoJson(): Promise<string> {
  const text = await Deno.readTextFile(DENO_JSON);
  const task = /^(\s*"compile": )"[^"\n]*"(,?)$/m;
  if (!task.test(text)) throw new Error('deno.json has no one-line "compile" task');
  const compile = await compileTask();
  return text.replace(task, (_, head, comma) => `${head}${JSON.stringify(compile)}${comma}`);
}

/** Every file of the manifest, as a URL, with the generator that writes it. */
export const MANIFEST: [URL, () => Promise<string>][] = [
  [SHORTCUT_MODULES_FILE, shortcutModules],
  [HELP_STATIC_FILE, helpStatic],
  [STATIC_FILE, catalogueStatic],
  [DENO_JSON, denoJson],
];

/** The command that rewrites the manifest, for a stale file's message. */
export const REGENERATE = "deno task gen";

if (import.meta.main) {
  for (const [file, make] of MANIFEST) await Deno.writeTextFile(file, await make());
}
