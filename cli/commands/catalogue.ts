/**
 * `larkit commands`: the whole command surface in one call, from the same command nodes a run resolves (after
 * strict-mode pruning), so an agent never has to scrape `--help`. With strict mode off the catalogue is read
 * from `catalogue_static.ndjson` (written by `deno task gen` from the nodes; `tests/manifest_test.ts` checks
 * it is fresh): building every node and reading every registry service (7 MB of JSON) cost a run many times a
 * hello-world. `--format ndjson` prints its lines as they are; other formats parse only the lines they show.
 * The generated methods' lines serve only while the registry is the version they were written from; with an
 * overlay in force those entries are worked out from the registry as this run sees it.
 */
import { registryOf } from "../api_commands/registry_of.ts";
import type { FlagMeta, Layer, TurnPolicy } from "../command_meta.ts";
import { readOnlyInTurns } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { urlPath } from "../files.ts";
import { emitRendered, emitResult } from "../output/emit.ts";
import { errors } from "../output/errors.ts";
import { checkJq } from "../output/formats/jq.ts";
import { parseFormat } from "../output/formats/names.ts";
import type { ApiMethod } from "../../registry/index.ts";
import { flag } from "../../shortcuts/declare.ts";
import { type CommandModule, defineCommand } from "../resolve/declare.ts";
import { type CommandNode, expanded, flagsOf, groupNode, nodePath } from "../resolve/node.ts";
import { liveRoot } from "../resolve/root.ts";
import { byResource, methodNode } from "../resolve/services.ts";
import { prune, strictModeOf } from "../resolve/strict.ts";
import { FIXED_NAMES } from "../resolve/fixed_commands.ts";

export interface CatalogueFlag {
  name: string;
  type: FlagMeta["type"];
  required: boolean;
  default?: unknown;
  enum?: string[];
  input: ("file" | "stdin")[];
  description: string;
}

export interface CatalogueEntry {
  path: string;
  layer: Layer;
  summary: string;
  flags: CatalogueFlag[];
  identities: string[];
  scopes: Record<string, string[]>;
  risk: string;
  dry_run: boolean;
  pagination: boolean;
  /** Whether an agent-server turn may run it, and why; null = unclassified (refused in turns). */
  turn: TurnPolicy | null;
}

/** Every visible leaf under `root`, depth first, in tree order. */
export function leaves(root: CommandNode): CommandNode[] {
  const out: CommandNode[] = [];
  for (const child of root.commands) {
    if (child.hidden) continue;
    if (child.leaf) out.push(child);
    else out.push(...leaves(child));
  }
  return out;
}

/** A leaf's entry, from its node. */
export function catalogueEntry(node: CommandNode): CatalogueEntry {
  const layer = node.layer ?? "builtin";
  return {
    path: nodePath(node).join(" "),
    layer,
    summary: node.description,
    flags: node.options.filter((o) => !o.hidden).map((o) => {
      const { long, short, takesValue } = flagsOf(o);
      const entry: CatalogueFlag = {
        name: long ?? short ?? "",
        type: o.meta?.type ?? (takesValue ? "string" : "boolean"),
        required: o.meta?.required === true,
        input: o.meta?.input ?? [],
        description: o.description,
      };
      const fallback = o.default ?? o.meta?.default;
      if (fallback !== undefined) entry.default = fallback;
      if (o.choices) entry.enum = [...o.choices];
      return entry;
    }),
    identities: [...node.identities ?? []],
    scopes: (node.scopes ?? {}) as Record<string, string[]>,
    risk: node.risk ?? "read",
    dry_run: node.dryRun ?? false,
    pagination: node.pagination ?? false,
    turn: node.turn ?? null,
  };
}

/** The entries of one service's generated methods, grouped by resource in first-seen order. */
function registryEntries(ctx: RunContext, service: string, methods: ApiMethod[]): CatalogueEntry[] {
  const parent = groupNode(service, groupNode("larkit"));
  return [...byResource(methods).entries()].flatMap(([resource, ms]) => {
    const group = groupNode(resource, parent);
    return ms.map((m) => catalogueEntry(methodNode(ctx, m, group)));
  });
}

/** The catalogue from the nodes (all, or one service's), pruned for the run's strict mode. */
export async function nodeCatalogue(
  ctx: RunContext,
  service?: string,
): Promise<CatalogueEntry[] | undefined> {
  const mode = await strictModeOf(ctx);
  const root = await liveRoot(ctx);
  for (const child of root.commands) {
    if (service === undefined || child.name === service) await expanded(child);
  }
  prune(root, mode);
  if (service === undefined) return leaves(root).map(catalogueEntry);
  const scope = root.commands.find((c) => c.name === service && !c.hidden);
  return scope && leaves(scope).map(catalogueEntry);
}

/** The first line of `catalogue_static.ndjson`: what the entry lines after it are. */
export interface StaticHeader {
  /** The registry version the generated methods' lines were written from. */
  registry: string;
  /** How many lines the fixed commands' leaves take (they come first). */
  fixed: number;
  /** Per service in order: its generated methods' lines, then its other leaves' (event, shortcuts). */
  services: Record<string, [generated: number, other: number]>;
}

/** The catalogue's data file, read rather than imported: printed as it is, it is never parsed whole. */
export const STATIC_FILE = new URL("../resolve/catalogue_static.ndjson", import.meta.url);

function splitStatic(text: string) {
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

const byName = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0;

/**
 * The catalogue with strict mode off (all, or one service's): the file's lines, and entries worked out here
 * where an overlay is in force; undefined for an unknown service.
 */
async function staticCatalogue(
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
  const current = registry.version === data.header.registry;
  for (const name of wanted) {
    if (current) out.push(...data.generated.get(name) ?? []);
    else if (inRegistry.has(name)) out.push(...registryEntries(ctx, name, await registry.methods(name)));
    out.push(...data.other.get(name) ?? []);
  }
  return out;
}

interface CatalogueOptions {
  service?: string;
  format: string;
  jq?: string;
}

async function showCatalogue(ctx: RunContext, opts: CatalogueOptions): Promise<void> {
  const format = parseFormat(opts.format);
  if (opts.jq !== undefined) await checkJq(opts.jq);
  if (format === "csv" || format === "pretty") {
    throw errors.validation(`--format ${format} is not supported by commands`, {
      hint: "use json, ndjson or table",
    });
  }
  // Strict mode prunes, and a fixed command's leaves are listed from its module: the nodes answer those.
  const fromFile = await strictModeOf(ctx) === "off" &&
    (opts.service === undefined || !FIXED_NAMES.has(opts.service));
  const bytes = fromFile ? await ctx.p.files.readFile(urlPath(STATIC_FILE)) : undefined;
  const ndjson = opts.jq === undefined && format === "ndjson";
  if (bytes && ndjson && opts.service === undefined) {
    // The whole catalogue for the registry the file was written from is the file after its header, printed
    // as read: decoding 3 MB only to encode them again cost about 20 ms.
    const body = bytes.indexOf(0x0a) + 1;
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, body))) as StaticHeader;
    if ((await registryOf(ctx)).version === header.registry) {
      return await emitRendered(ctx, bytes.subarray(body));
    }
  }
  const lines = bytes
    ? await staticCatalogue(ctx, new TextDecoder().decode(bytes), opts.service)
    : await nodeCatalogue(ctx, opts.service);
  if (!lines) {
    throw errors.validation(`unknown service "${opts.service}"`, {
      hint: "run `larkit commands` to list all",
    });
  }
  if (ndjson && lines.every((l) => typeof l === "string")) {
    // ndjson is one compact JSON entry per line: the file's lines already are.
    return await emitRendered(ctx, lines.map((l) => `${l}\n`).join(""));
  }
  const entries = lines.map((l) => typeof l === "string" ? JSON.parse(l) as CatalogueEntry : l);
  const data = format === "table"
    ? entries.map((e) => ({
      path: e.path,
      layer: e.layer,
      risk: e.risk,
      identities: e.identities.join(","),
      turn: e.turn === null ? "unclassified" : e.turn.allowed ? "allowed" : "refused",
      summary: e.summary,
    }))
    : entries;
  await emitResult(ctx, { format, jq: opts.jq }, data, { count: entries.length });
}

const catalogueCommand = defineCommand({
  words: ["commands"],
  description:
    "list every command: path, layer, flags, identities, scopes, risk, dry-run, pagination, turn policy",
  flags: {
    service: flag.string("only the commands of this service", { placeholder: "name" }),
    format: flag.defaulted("json (envelope), ndjson (one command per line) or table", "json", {
      placeholder: "format",
    }),
    jq: flag.string("jq filter over the result envelope, e.g. '.data[].path'", {
      placeholder: "expr",
      short: "q",
    }),
  },
  turn: readOnlyInTurns("lists the command surface"),
  action: (ctx, { flags }) => showCatalogue(ctx, flags),
});

export const catalogueCommands: CommandModule = { groups: [], commands: [catalogueCommand] };
