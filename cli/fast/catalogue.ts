/**
 * `larkit commands` without the tree (issue 17: building 1,715 commander commands and loading every command
 * and shortcut module cost 35× a hello-world; reading every registry service, 7 MB of JSON, another 6×). The
 * catalogue of the tree with strict mode off is kept in `catalogue_static.ndjson`, one entry per line in tree
 * order, so `--format ndjson` prints its lines as they are and other formats parse only the lines they show.
 * The file is written from the tree by `deno task gen` (`cli/gen/manifest.ts`; `tests/manifest_test.ts` checks
 * it is fresh). The generated methods' lines serve only while the registry is the version
 * they were written from; with an overlay in force those entries are worked out from the registry as this run
 * sees it, with the flags `addApiFlags` declares. Strict mode and anything unusual go to the tree.
 */
import type { Command } from "commander";
import { apiFlagSetOf } from "../api_commands/call.ts";
import { addApiFlags } from "../api_commands/flags.ts";
import { registryOf } from "../api_commands/registry_of.ts";
import {
  catalogueCommand,
  type CatalogueEntry,
  type CatalogueFlag,
  showCatalogue,
} from "../commands/catalogue.ts";
import { FIXED_NAMES } from "../commands/index.ts";
import type { RunContext } from "../context.ts";
import { urlPath } from "../files.ts";
import { emitRendered } from "../output/emit.ts";
import type { ApiMethod } from "../../registry/index.ts";
import { lazy } from "../lazy.ts";
import { strictModeOff } from "./method.ts";

/** The first line of `catalogue_static.ndjson`: what the entry lines after it are. */
export interface StaticHeader {
  /** The registry version the generated methods' lines were written from. */
  registry: string;
  /** How many lines the fixed commands' leaves take (they come first). */
  fixed: number;
  /** Per service in tree order: its generated methods' lines, then its other leaves' (event, shortcuts). */
  services: Record<string, [generated: number, other: number]>;
}

/** The catalogue's data file, read rather than imported: printed as it is, it is never parsed whole. */
export const STATIC_FILE = new URL("./catalogue_static.ndjson", import.meta.url);

const SUITE_TURN = {
  allowed: true,
  reason: "acts on the suite through the HTTP client; writes ask the client for approval",
};

/** A generated method's entry, as `catalogueEntry` reads it off the command `methodCommand` builds. */
export function methodEntry(service: string, m: ApiMethod): CatalogueEntry {
  const flags: CatalogueFlag[] = [];
  const recorder = {
    option(spec: string, description: string, fallback?: string) {
      const long = /--([a-z][a-z0-9-]*)/.exec(spec)?.[1] as string;
      flags.push({
        name: `--${long}`,
        type: spec.includes("<") ? "string" : "boolean",
        required: false,
        input: [],
        description,
        ...(fallback === undefined ? {} : { default: fallback }),
      });
      return recorder;
    },
  };
  const declared = addApiFlags(recorder as unknown as Command, apiFlagSetOf(m));
  for (const f of flags) {
    const meta = declared[f.name.slice(2)];
    if (!meta) continue;
    Object.assign(f, { type: meta.type, input: meta.input ?? [] });
    if (meta.required) f.required = true;
    if (f.default === undefined && meta.default !== undefined) f.default = meta.default;
  }
  return {
    path: `${service} ${m.resource} ${m.name}`,
    layer: "api",
    summary: `${m.description}\n\nView parameter definitions before calling:\n  larkit schema ${m.id}`,
    flags,
    identities: m.identities,
    scopes: Object.fromEntries(m.identities.map((i) => [i, m.scopes])),
    risk: m.risk,
    dry_run: true,
    pagination: Object.hasOwn(m.parameters, "page_token"),
    turn: SUITE_TURN,
  };
}

/** The registry's entries for one service, grouped by resource in first-seen order as the tree groups them. */
export function registryEntries(service: string, methods: ApiMethod[]): CatalogueEntry[] {
  const byResource = new Map<string, ApiMethod[]>();
  for (const m of methods) byResource.set(m.resource, [...byResource.get(m.resource) ?? [], m]);
  return [...byResource.values()].flat().map((m) => methodEntry(service, m));
}

const byName = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0;

/** The static file's entry lines, by where they sit in the tree. */
interface StaticLines {
  header: StaticHeader;
  fixed: string[];
  generated: Map<string, string[]>;
  other: Map<string, string[]>;
}

function splitStatic(text: string): StaticLines {
  const lines = text.split("\n");
  const header = JSON.parse(lines[0]) as StaticHeader;
  let at = 1;
  const take = (n: number) => lines.slice(at, at += n);
  const fixed = take(header.fixed);
  const generated = new Map<string, string[]>();
  const other = new Map<string, string[]>();
  for (const [name, [g, o]] of Object.entries(header.services)) {
    generated.set(name, take(g));
    other.set(name, take(o));
  }
  return { header, fixed, generated, other };
}

/**
 * The catalogue the tree would give with strict mode off (all, or one service's): the file's lines, and the
 * entries worked out here where an overlay is in force; undefined for an unknown service.
 */
async function catalogueLines(
  ctx: RunContext,
  text: string,
  service: string | undefined,
): Promise<(string | CatalogueEntry)[] | undefined> {
  const data = splitStatic(text);
  const registry = await registryOf(ctx);
  const inRegistry = new Set(registry.listServices().map((s) => s.name));
  const names = [...new Set([...inRegistry, ...data.other.keys()])].filter((n) => !FIXED_NAMES.has(n));
  const wanted = names.sort(byName).filter((n) => service === undefined || n === service);
  if (service !== undefined && wanted.length === 0) return undefined;
  const out: (string | CatalogueEntry)[] = service === undefined ? [...data.fixed] : [];
  // Reading every service of the registry costs more than the rest of the run: the lines written at
  // generation time serve while the registry is that version (no overlay in force).
  const current = registry.version === data.header.registry;
  for (const name of wanted) {
    if (current) out.push(...data.generated.get(name) ?? []);
    else if (inRegistry.has(name)) out.push(...registryEntries(name, await registry.methods(name)));
    out.push(...data.other.get(name) ?? []);
  }
  return out;
}

/** `commands [--service <name>] [--format <fmt>] [--jq <expr>]`; undefined when the tree must answer. */
export async function runCatalogue(argv: string[], ctx: RunContext): Promise<number | undefined> {
  if (argv.includes("--")) return undefined;
  if (argv.some((a) => a === "--help" || a === "-h" || a === "--version" || a === "-V")) return undefined;
  const { flags: opts } = await (await lazy("cli/resolve/run.ts")).resolveDeclared(
    ctx,
    catalogueCommand,
    argv.slice(1),
  );
  if (!await strictModeOff(ctx)) return undefined;
  // `--service config` lists a fixed command's leaves in the tree: its answer to give.
  if (opts.service !== undefined && FIXED_NAMES.has(opts.service)) return undefined;
  const bytes = await ctx.p.files.readFile(urlPath(STATIC_FILE));
  const body = bytes.indexOf(0x0a) + 1;
  const ndjson = opts.jq === undefined && opts.format.toLowerCase() === "ndjson";
  if (ndjson && opts.service === undefined) {
    // The whole catalogue for the registry the file was written from is the file after its header, printed
    // as read: decoding 3 MB only to encode them again cost about 20 ms.
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, body))) as StaticHeader;
    if ((await registryOf(ctx)).version === header.registry) {
      await emitRendered(ctx, bytes.subarray(body));
      return ctx.state.exitCode ?? 0;
    }
  }
  const text = new TextDecoder().decode(bytes);
  const lines = ndjson ? await catalogueLines(ctx, text, opts.service) : undefined;
  if (lines?.every((l) => typeof l === "string")) {
    // ndjson is one compact JSON entry per line: the file's lines already are.
    await emitRendered(ctx, lines.map((l) => `${l}\n`).join(""));
    return ctx.state.exitCode ?? 0;
  }
  await showCatalogue(ctx, opts, async () => {
    const all = lines ?? await catalogueLines(ctx, text, opts.service);
    return all?.map((l) => typeof l === "string" ? JSON.parse(l) as CatalogueEntry : l);
  });
  return ctx.state.exitCode ?? 0;
}
