/**
 * `larkit commands`: the whole command surface in one call, built from the same declarations and registry
 * that build the tree (after strict-mode pruning), so an agent never has to scrape `--help`.
 */
import type { Command, Option } from "commander";
import {
  type CommandMeta,
  commandPath,
  type FlagMeta,
  isHidden,
  metaOf,
  readOnlyInTurns,
  type TurnPolicy,
  turnPolicyOf,
} from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { errors } from "../output/errors.ts";
import { checkJq } from "../output/formats/jq.ts";
import { parseFormat } from "../output/formats/names.ts";
import { emitResult } from "../output/emit.ts";
import { flag } from "../../shortcuts/declare.ts";
import { type CommandModule, defineCommand } from "../resolve/declare.ts";

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
  layer: CommandMeta["layer"];
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
export function leaves(root: Command): Command[] {
  const out: Command[] = [];
  for (const child of root.commands as Command[]) {
    if (isHidden(child)) continue;
    if (child.commands.length === 0) out.push(child);
    else out.push(...leaves(child));
  }
  return out;
}

function flagOf(opt: Option, meta: CommandMeta | undefined): CatalogueFlag {
  const name = (opt.long ?? opt.short ?? "").replace(/^--?/, "");
  const declared = meta?.flags?.[name];
  const flag: CatalogueFlag = {
    name: opt.long ?? opt.short ?? name,
    type: declared?.type ?? (opt.isBoolean() ? "boolean" : "string"),
    required: Boolean(opt.mandatory) || declared?.required === true,
    input: declared?.input ?? [],
    description: opt.description,
  };
  const fallback = opt.defaultValue ?? declared?.default;
  if (fallback !== undefined) flag.default = fallback;
  if (opt.argChoices) flag.enum = [...opt.argChoices];
  return flag;
}

export function catalogueEntry(cmd: Command): CatalogueEntry {
  const meta = metaOf(cmd);
  return {
    path: commandPath(cmd).join(" "),
    layer: meta?.layer ?? "builtin",
    summary: cmd.description(),
    flags: (cmd.options as Option[]).filter((o) => !o.hidden).map((o) => flagOf(o, meta)),
    identities: meta?.identities ?? [],
    scopes: meta?.scopes ?? {},
    risk: meta?.risk ?? "read",
    dry_run: meta?.dryRun ?? false,
    pagination: meta?.pagination ?? false,
    turn: turnPolicyOf(cmd) ?? null,
  };
}

export interface CatalogueOptions {
  service?: string;
  format: string;
  jq?: string;
}

/**
 * Checks the output options before anything is built, then prints the entries `list` gives (undefined for a
 * service that does not exist).
 */
export async function showCatalogue(
  ctx: RunContext,
  opts: CatalogueOptions,
  list: () => Promise<CatalogueEntry[] | undefined>,
): Promise<void> {
  const format = parseFormat(opts.format);
  if (opts.jq !== undefined) await checkJq(opts.jq);
  if (format === "csv" || format === "pretty") {
    throw errors.validation(`--format ${format} is not supported by commands`, {
      hint: "use json, ndjson or table",
    });
  }
  const entries = await list();
  if (!entries) {
    throw errors.validation(`unknown service "${opts.service}"`, {
      hint: "run `larkit commands` to list all",
    });
  }
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

/** The catalogue as the tree gives it: every visible leaf of the built tree (or of one service). */
export async function treeCatalogue(
  ctx: RunContext,
  service?: string,
): Promise<CatalogueEntry[] | undefined> {
  const tree = await ctx.hooks.tree([], ctx, { services: service ? [service] : "all" });
  let scope: Command = tree;
  if (service) {
    const found = tree.commands.find((c) => c.name() === service) as Command | undefined;
    if (!found) return undefined;
    scope = found;
  }
  return leaves(scope).filter((c) => c.name() !== "help").map(catalogueEntry);
}

/**
 * `larkit commands`. `cli/fast/catalogue.ts` parses the same declaration (the resolver's parse) and answers
 * from the manifest when it can; this action answers from the tree.
 */
export const catalogueCommand = defineCommand({
  words: ["commands"],
  description:
    "list every command: path, layer, flags, identities, scopes, risk, dry-run, pagination, turn policy",
  flags: {
    service: flag.string("only the commands of this service", { placeholder: "name" }),
    format: flag.defaulted("json (envelope), ndjson (one command per line) or table", "json", {
      placeholder: "format",
    }),
    jq: flag.string("jq filter over the result envelope, e.g. '.data[].path'", { placeholder: "expr" }),
  },
  shorts: { jq: "q" },
  turn: readOnlyInTurns("lists the command surface"),
  action: (ctx, { flags }) => showCatalogue(ctx, flags, () => treeCatalogue(ctx, flags.service)),
});

export const catalogueCommands: CommandModule = { groups: [], commands: [catalogueCommand] };
