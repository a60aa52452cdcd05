/**
 * One service's subtree as the tree builds it (`cli/tree.ts` with strict mode off: the registry's resources
 * and methods, then the shortcuts), described without commander from the same declarations -- the registry
 * method, `addApiFlags`, `methodHelp`, `cli/globals.ts`, and the shortcut declarations through
 * `help_static.ndjson` (written from `shortcuts/command_flags.ts`) -- for the lean `--help`
 * (`help.ts`) and completion (`complete.ts`). Services the tree builds from other sources (`event`) and the
 * fixed commands are not described here: those runs go to the tree.
 */
import type { Command } from "commander";
import { apiFlagSetOf } from "../api_commands/call.ts";
import { enumParamValues } from "../api_commands/param_values.ts";
import { addApiFlags } from "../api_commands/flags.ts";
import { methodHelp } from "../api_commands/method_help.ts";
import { registryOf } from "../api_commands/registry_of.ts";
import { FIXED_NAMES } from "../commands/index.ts";
import type { RunContext } from "../context.ts";
import { urlPath } from "../files.ts";
import { GLOBAL_FLAGS } from "../globals.ts";
import type { ApiMethod } from "../../registry/index.ts";
import { shortcutFlags, shortcutHelpText } from "../../shortcuts/command_flags.ts";
import type { FlagSpecs, Shortcut } from "../../shortcuts/declare.ts";
import { SHORTCUT_SERVICES } from "../../shortcuts/index.ts";
import type { Candidate } from "../commands/completion.ts";
import type { ModelCommand, ModelOption } from "./help_format.ts";

/** The root as a service's help sees it: the global flags and `-V, --version` (its Global Options). */
export function rootModel(): ModelCommand {
  return {
    name: "larkit",
    aliases: [],
    description: "",
    options: [
      ...GLOBAL_FLAGS.map((f) => ({
        flags: f.value ? `${f.flag} ${f.value}` : f.flag,
        description: f.description,
      })),
      { flags: "-V, --version", description: "print the version" },
    ],
    commands: [],
    leaf: false,
  };
}

/** The options `addApiFlags` declares for a method, read by handing it a recorder in place of a command. */
function methodOptions(m: ApiMethod): ModelOption[] {
  const options: ModelOption[] = [];
  const recorder = {
    option(flags: string, description: string, fallback?: string) {
      options.push({ flags, description, ...(fallback === undefined ? {} : { default: fallback }) });
      return recorder;
    },
  };
  addApiFlags(recorder as unknown as Command, apiFlagSetOf(m));
  return options;
}

/**
 * A method as help and completion see it. Its options and help text are worked out when first read: a Tab
 * or a help page shows one method's at most, and working them out for every method of the service was most
 * of such a run's own time (issue 17).
 */
function methodModel(m: ApiMethod, parent: ModelCommand): ModelCommand {
  let options: ModelOption[] | undefined;
  let after: string | undefined;
  return {
    name: m.name,
    aliases: [],
    summary: m.summary,
    description: `${m.description}\n\nView parameter definitions before calling:\n  larkit schema ${m.id}`,
    get options() {
      return options ??= methodOptions(m);
    },
    commands: [],
    parent,
    leaf: true,
    identities: m.identities,
    get after() {
      return after ??= methodHelp(m);
    },
    values: (flag) => flag === "params" ? enumParamValues(m) : [],
  };
}

/** A shortcut as its help and completion show it: one entry of `help_static.ndjson`. */
export interface StaticShortcut {
  name: string;
  /** The identities it runs as (`authTypes`), for strict-mode pruning. */
  identities: string[];
  aliases: string[];
  description: string;
  options: ModelOption[];
  after: string;
  /** The values completion offers for each of its flags that declares choices. */
  values: Record<string, Candidate[]>;
}

/** A shortcut's entry, from its declaration as `shortcuts/source.ts` builds its command. */
export function staticShortcut(shortcut: Shortcut<FlagSpecs>): StaticShortcut {
  return {
    name: shortcut.command,
    identities: [...shortcut.authTypes],
    aliases: shortcut.aliases ?? [],
    description: shortcut.description,
    options: shortcutFlags(shortcut).map((f) => ({
      flags: f.spec,
      description: f.description,
      ...(f.default === undefined ? {} : { default: f.default }),
      ...(f.hidden ? { hidden: true } : {}),
    })),
    after: shortcutHelpText(shortcut),
    values: Object.fromEntries(
      Object.entries(shortcut.flags).filter(([, spec]) => spec.choices?.length).map(([name, spec]) => [
        name,
        (spec.choices ?? []).map((value) => ({ value, description: spec.description })),
      ]),
    ),
  };
}

/**
 * What lean help and completion cannot read off the registry, read rather than imported: the root's list
 * (`{"root":...}`, the first line, see `StaticRoot`), then the shortcuts, one line per service with shortcuts
 * (`{"service":...,"shortcuts":[...]}`). Loading a service's shortcut modules to describe them cost a help run
 * about 55 ms, the fixed commands' modules and commander far more (issue 17). The file is written from the
 * tree and the declarations by `deno task gen` (`tests/manifest_test.ts` checks it is fresh).
 */
export const HELP_STATIC_FILE = new URL("./help_static.ndjson", import.meta.url);

/**
 * The file's line that starts with `prefix`, decoded alone (decoding the whole file cost about 2 ms); undefined
 * when it has none.
 */
async function staticLine(ctx: RunContext, prefix: string): Promise<string | undefined> {
  const bytes = await ctx.p.files.readFile(urlPath(HELP_STATIC_FILE));
  const want = new TextEncoder().encode(prefix);
  for (let at = 0; at < bytes.length;) {
    const newline = bytes.indexOf(0x0a, at);
    const end = newline === -1 ? bytes.length : newline;
    if (want.every((b, i) => bytes[at + i] === b)) return new TextDecoder().decode(bytes.subarray(at, end));
    at = end + 1;
  }
  return undefined;
}

/** The service's line of the file; undefined when it has none (the tree answers then). */
async function staticShortcuts(ctx: RunContext, service: string): Promise<StaticShortcut[] | undefined> {
  const line = await staticLine(ctx, `{"service":${JSON.stringify(service)},`);
  // The program's own file, checked against the declarations by its test: not input from outside.
  return line === undefined ? undefined : (JSON.parse(line) as { shortcuts: StaticShortcut[] }).shortcuts;
}

/** A command the root lists, as its help and completion show it. */
export interface StaticEntry {
  name: string;
  aliases: string[];
  hidden?: boolean;
  /** commander's term for it in the root's list: `completion [options] <shell>`. */
  term: string;
  /** Its summary, else its description. */
  about: string;
}

/**
 * The first line of the file: the root's description and its commands in tree order (the fixed commands,
 * then every service), as the tree with strict mode off lists them for the registry `registry`. Written from
 * the tree: the fixed commands are described only by their modules, which load commander.
 */
export interface StaticRoot {
  registry: string;
  description: string;
  commands: StaticEntry[];
}

/**
 * The root with every command it lists, for its own help and completion; undefined when the registry this
 * run sees is not the one the file was written from (an overlay adds or renames services).
 */
export async function fullRootModel(ctx: RunContext): Promise<ModelCommand | undefined> {
  const line = await staticLine(ctx, `{"root":`);
  if (line === undefined) return undefined;
  const { root } = JSON.parse(line) as { root: StaticRoot };
  if ((await registryOf(ctx)).version !== root.registry) return undefined;
  const model = { ...rootModel(), description: root.description };
  // Listed only: what they hold is the tree's to show.
  model.commands = root.commands.map((c) => ({
    name: c.name,
    aliases: c.aliases,
    ...(c.hidden ? { hidden: true } : {}),
    term: c.term,
    description: c.about,
    options: [],
    commands: [],
    parent: model,
    leaf: true,
  }));
  return model;
}

function shortcutModel(s: StaticShortcut, parent: ModelCommand): ModelCommand {
  return {
    ...s,
    commands: [],
    parent,
    leaf: true,
    values: (flag) => Object.hasOwn(s.values, flag) ? s.values[flag] : [],
  };
}

/** The run's strict mode (`strictModeOf` of `cli/tree.ts`): "off" when nothing is configured yet. */
export type StrictMode = Awaited<ReturnType<ReturnType<RunContext["credentials"]>["account"]>>["strictMode"];

export async function strictModeOf(ctx: RunContext): Promise<StrictMode> {
  try {
    return (await ctx.credentials().account()).strictMode;
  } catch {
    // Not configured: nothing to restrict yet; the command itself reports the missing config.
    return "off";
  }
}

/**
 * `pruneForStrictMode` of `cli/tree.ts`: a leaf the mode forbids becomes a hidden stub, a command whose
 * subcommands are all hidden is hidden.
 */
function prune(cmd: ModelCommand, mode: StrictMode): void {
  if (mode === "off") return;
  cmd.commands = cmd.commands.map((child) => {
    if (child.commands.length > 0) {
      prune(child, mode);
      if (child.commands.every((c) => c.hidden)) child.hidden = true;
      return child;
    }
    if (!child.identities || child.identities.includes(mode)) return child;
    const stub: ModelCommand = {
      name: child.name,
      aliases: [],
      description: "",
      options: [],
      commands: [],
      parent: cmd,
      leaf: true,
      hidden: true,
      forbidden: true,
    };
    return stub;
  });
}

/**
 * The service's subtree under `root` as the tree builds it in strict mode `mode`, or undefined when the tree
 * builds it from elsewhere (a fixed command of that name, `event`) or has no such service (in that mode).
 * `shortcutsOnly` leaves the registry's resources out, for a command line that goes on to a `+shortcut` (no
 * resource name starts with `+`): reading the service's registry file is most of what is left of such a run.
 */
export async function serviceModel(
  ctx: RunContext,
  service: string,
  root: ModelCommand,
  mode: StrictMode,
  shortcutsOnly = false,
): Promise<ModelCommand | undefined> {
  if (FIXED_NAMES.has(service) || service === "event") return undefined;
  const registry = await registryOf(ctx);
  const listed = registry.listServices().find((s) => s.name === service);
  const shortcuts = Object.hasOwn(SHORTCUT_SERVICES, service) ? SHORTCUT_SERVICES[service] : undefined;
  if (!listed && !shortcuts) return undefined;
  // The tree lists a service only where one of its commands runs as the strict mode's identity.
  const identities: string[] = [...listed?.identities ?? [], ...shortcuts?.identities ?? []];
  if (mode !== "off" && !identities.includes(mode)) return undefined;
  // The tree keeps the first non-empty description in source order: the registry's, then the shortcuts'.
  const serviceCmd: ModelCommand = {
    name: service,
    aliases: [],
    description: listed?.description || (shortcuts?.description ?? listed?.description ?? ""),
    options: [],
    commands: [],
    parent: root,
    leaf: false,
  };
  const resources = new Map<string, ModelCommand>();
  for (const m of shortcutsOnly ? [] : await registry.methods(service)) {
    let resource = resources.get(m.resource);
    if (!resource) {
      resource = {
        name: m.resource,
        aliases: [],
        description: `${m.resource} operations`,
        options: [],
        commands: [],
        parent: serviceCmd,
        leaf: false,
      };
      resources.set(m.resource, resource);
      serviceCmd.commands.push(resource);
    }
    resource.commands.push(methodModel(m, resource));
  }
  const described = shortcuts ? await staticShortcuts(ctx, service) : [];
  if (!described) return undefined;
  for (const shortcut of described) serviceCmd.commands.push(shortcutModel(shortcut, serviceCmd));
  root.commands.push(serviceCmd);
  // The tree prunes from the root: the service is a child like any other.
  prune(root, mode);
  return serviceCmd;
}

/** The child a word names (its name or an alias), as commander finds subcommands. */
export function childNamed(cmd: ModelCommand, word: string): ModelCommand | undefined {
  return cmd.commands.find((c) => c.name === word || c.aliases.includes(word));
}
