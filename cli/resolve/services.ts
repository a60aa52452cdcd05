/**
 * A suite service as a command node: the registry's resources and methods, the `event` commands for the
 * `event` service, then the shortcuts. A run finds the one method (`findRunnable`) or the one shortcut (from the
 * module `shortcuts/modules.json` names) its words name; help, completion and the catalogue list them all,
 * the shortcuts from `help_static.ndjson` rather than by loading every shortcut module (start-up, issue 17).
 */
import { apiCallOf, apiFlagSetOf } from "../api_commands/call.ts";
import { apiOptions } from "../api_commands/flags.ts";
import { registryOf } from "../api_commands/registry_of.ts";
import { FIXED_NAMES } from "./fixed_commands.ts";
import { SUITE_TURN } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { urlPath } from "../files.ts";
import { lazy, lazyNamed } from "../lazy.ts";
import type { ApiMethod, RunnableMethod } from "../../registry/index.ts";
import { invocationOf, shortcutFlags, shortcutHelpText } from "../../shortcuts/command_flags.ts";
import type { FlagSpecs, Shortcut } from "../../shortcuts/declare.ts";
import { loadShortcuts, SHORTCUT_SERVICES } from "../../shortcuts/index.ts";
import { attributes, type CommandNode, type OptionDecl } from "./node.ts";
import { addDeclared } from "./declare.ts";
import { suggest, usageError } from "./usage.ts";
import type { FlagMeta, FlagValue } from "../command_meta.ts";

/** A method's description as help shows it. */
const methodDescription = (m: Pick<ApiMethod, "description" | "id">) =>
  `${m.description}\n\nView parameter definitions before calling:\n  larkit schema ${m.id}`;

/**
 * A generated method as a node. From a runnable method (a run) its help text is read when help asks for it
 * (`describe`); from a full method (a listing) it is there already.
 */
export function methodNode(ctx: RunContext, m: RunnableMethod | ApiMethod, parent: CommandNode): CommandNode {
  let options: OptionDecl[] | undefined;
  const full = "description" in m ? m : undefined;
  const node: CommandNode = {
    name: m.name,
    aliases: [],
    summary: full?.summary,
    description: full ? methodDescription(full) : "",
    // Worked out when read: a listing of the service shows the names of its methods, not their flags.
    get options() {
      return options ??= apiOptions(apiFlagSetOf(m));
    },
    commands: [],
    parent,
    leaf: true,
    layer: "api",
    turn: SUITE_TURN,
    identities: m.identities,
    risk: m.risk,
    scopes: Object.fromEntries(m.identities.map((i) => [i, m.scopes])),
    dryRun: true,
    pagination: Object.hasOwn(m.parameters, "page_token"),
    async values(flag) {
      if (flag !== "params") return [];
      // The parameters' descriptions are not in the runnable method: read the full one.
      const described = full ?? await (await registryOf(ctx)).findMethod(m.service, m.resource, m.name) ?? m;
      return (await lazy("cli/api_commands/param_values.ts")).enumParamValues(described);
    },
    async describe() {
      const described = full ?? await (await registryOf(ctx)).findMethod(m.service, m.resource, m.name);
      if (!described) return;
      node.summary = described.summary;
      node.description = methodDescription(described);
      node.after = (await lazy("cli/api_commands/method_help.ts")).methodHelp(described);
    },
    async run(ctx, line) {
      const registry = await registryOf(ctx);
      // The siblings a lost write's verify hint looks at: the same resource's get and list (`verifyCommand`).
      const siblings = (await Promise.all(
        ["get", "list"].map((n) => registry.findRunnable(m.service, m.resource, n)),
      )).filter((s) => s !== undefined);
      const { runApiCall } = await lazy("cli/api_commands/execute.ts");
      await runApiCall(ctx, apiCallOf(ctx, m, siblings), attributes(line.values));
    },
  };
  return node;
}

/** A resource (`calendar events`): the group of its methods. */
function resourceNode(
  ctx: RunContext,
  service: string,
  resource: string,
  parent: CommandNode,
  methods?: ApiMethod[],
): CommandNode {
  const node: CommandNode = {
    name: resource,
    aliases: [],
    description: `${resource} operations`,
    options: [],
    commands: [],
    parent,
    leaf: false,
    layer: "api",
    async find(word) {
      const m = await (await registryOf(ctx)).findRunnable(service, resource, word);
      return m && methodNode(ctx, m, node);
    },
  };
  if (methods) {
    node.commands = methods.map((m) => methodNode(ctx, m, node));
    node.identities = [...new Set(methods.flatMap((m) => m.identities))].sort();
    node.find = undefined;
  } else {
    node.expand = async () => {
      const methods = await (await registryOf(ctx)).methods(service);
      const all = methods.filter((m) => m.resource === resource);
      // Found by name before it was listed: a word that names no resource is told at the service.
      if (all.length === 0) {
        throw usageError(`unknown command '${resource}'`, "unknownCommand", {
          path: [service],
          unknown: resource,
          suggestions: suggest(resource, [...new Set(methods.map((m) => m.resource))]),
        });
      }
      node.commands = all.map((m) => methodNode(ctx, m, node));
    };
  }
  return node;
}

/** A shortcut as help, completion and a run see it: one entry of `help_static.ndjson`. */
export interface StaticShortcut {
  name: string;
  /** The identities it runs as (`authTypes`), for strict-mode pruning. */
  identities: string[];
  aliases: string[];
  description: string;
  options: OptionDecl[];
  after: string;
  risk: string;
  scopes: Partial<Record<string, string[]>>;
  /** The values completion offers for each of its flags that declares choices. */
  values: Record<string, FlagValue[]>;
}

/** What the catalogue says of each shortcut flag, from its declaration. */
function shortcutFlagMeta(
  shortcut: Shortcut<FlagSpecs>,
  spec: string,
  required?: boolean,
  shown?: string,
): FlagMeta {
  const name = /--([a-z0-9-]+)/.exec(spec)?.[1] as string;
  const own = Object.hasOwn(shortcut.flags, name) ? shortcut.flags[name] : undefined;
  const type: FlagMeta["type"] = own
    ? own.kind === "json" ? "json" : own.kind
    : spec.includes("<")
    ? "string"
    : "boolean";
  return {
    type,
    ...(own?.input ? { input: own.input } : {}),
    ...(required ? { required: true } : {}),
    ...(shown !== undefined ? { default: shown } : {}),
  };
}

/** A shortcut's entry, from its declaration. */
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
      ...(f.own && shortcut.flags[f.own].choices ? { choices: shortcut.flags[f.own].choices } : {}),
      meta: shortcutFlagMeta(shortcut, f.spec, f.required, f.shownDefault),
    })),
    after: shortcutHelpText(shortcut),
    risk: shortcut.risk,
    scopes: shortcut.scopes,
    values: Object.fromEntries(
      Object.entries(shortcut.flags).filter(([, spec]) => spec.choices?.length).map(([name, spec]) => [
        name,
        (spec.choices ?? []).map((value) => ({ value, description: spec.description })),
      ]),
    ),
  };
}

/**
 * Which module declares each shortcut, per service and name (aliases included), as paths under `shortcuts/`.
 * Written by `deno task gen` (`tests/manifest_test.ts` checks it is fresh); every module it names is one its
 * service's `index.ts` imports, so a compiled binary embeds it.
 */
export const SHORTCUT_MODULES_FILE = new URL("../../shortcuts/modules.json", import.meta.url);

export type ShortcutModules = Record<string, Record<string, string>>;

const answersTo = (s: Shortcut<FlagSpecs>, name: string) =>
  s.command === name || (s.aliases ?? []).includes(name as `+${string}`);

/**
 * The shortcut `<service> +name` names: loaded alone from the module that declares it (a shortcut's run then
 * loads neither its service's other shortcuts nor what they import), else -- a name the map does not know --
 * from the service's whole list, which is what decides.
 */
async function shortcutNamed(ctx: RunContext, service: string, name: string) {
  const modules = JSON.parse(
    await ctx.p.files.readTextFile(urlPath(SHORTCUT_MODULES_FILE)),
  ) as ShortcutModules;
  const module = Object.hasOwn(modules, service) && Object.hasOwn(modules[service], name)
    ? modules[service][name]
    : undefined;
  if (typeof module === "string") {
    const exports = await lazyNamed(`shortcuts/${module}`);
    const found = Object.values(exports).find((v) =>
      typeof v === "object" && v !== null && "run" in v && answersTo(v as Shortcut<FlagSpecs>, name)
    );
    if (found) return found as Shortcut<FlagSpecs>;
  }
  return (await loadShortcuts(service)).find((s) => answersTo(s, name));
}

/** A shortcut as a node; its declaration is loaded when it runs, if the listing did not load it. */
function shortcutNode(
  service: string,
  s: StaticShortcut,
  parent: CommandNode,
  loaded?: Shortcut<FlagSpecs>,
): CommandNode {
  return {
    name: s.name,
    aliases: s.aliases,
    description: s.description,
    options: s.options,
    commands: [],
    parent,
    leaf: true,
    after: s.after,
    layer: "shortcut",
    turn: SUITE_TURN,
    identities: s.identities as ("user" | "bot")[],
    risk: s.risk as CommandNode["risk"],
    scopes: s.scopes,
    dryRun: true,
    values: (flag) => Object.hasOwn(s.values, flag) ? s.values[flag] : [],
    async run(ctx, line) {
      const shortcut = loaded ?? await shortcutNamed(ctx, service, s.name);
      if (!shortcut) throw new Error(`${service} ${s.name} is listed but declared nowhere`);
      const invocation = invocationOf(shortcut, line.values);
      // The pipeline (and zod, the HTTP client behind it) loads only when a shortcut runs, not to build help.
      const { runShortcut } = await lazy("shortcuts/pipeline.ts");
      await runShortcut(ctx, shortcut, invocation);
    },
  };
}

/**
 * What help and completion cannot read off the registry, read rather than imported: the root's list
 * (`{"root":...}`, the first line), then the shortcuts, one line per service with shortcuts
 * (`{"service":...,"shortcuts":[...]}`). Written by `deno task gen` (`tests/manifest_test.ts` checks it is fresh).
 */
export const HELP_STATIC_FILE = new URL("./help_static.ndjson", import.meta.url);

/** The file's line that starts with `prefix`, decoded alone (decoding the whole file cost about 2 ms). */
export async function staticLine(ctx: RunContext, prefix: string): Promise<string | undefined> {
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

/** The service's shortcuts: from the file, or from the declarations when it has no line for them. */
async function staticShortcuts(ctx: RunContext, service: string): Promise<StaticShortcut[]> {
  const line = await staticLine(ctx, `{"service":${JSON.stringify(service)},`);
  // The program's own file, checked against the declarations by its test: not input from outside.
  if (line !== undefined) return (JSON.parse(line) as { shortcuts: StaticShortcut[] }).shortcuts;
  return (await loadShortcuts(service)).map(staticShortcut);
}

/** The service's description and identities, from the registry and the shortcut list; undefined if none has it. */
export async function serviceSummary(ctx: RunContext, service: string) {
  const listed = (await registryOf(ctx)).listServices().find((s) => s.name === service);
  const shortcuts = Object.hasOwn(SHORTCUT_SERVICES, service) ? SHORTCUT_SERVICES[service] : undefined;
  if (!listed && !shortcuts && service !== "event") return undefined;
  return {
    name: service,
    // The registry's description first, then the event commands', then the shortcuts'.
    description: listed?.description ||
      (service === "event" ? "Events: receive the suite's events over the app's long connection" : "") ||
      (shortcuts?.description ?? ""),
    identities: [
      ...new Set([
        ...listed?.identities ?? [],
        ...(service === "event" ? ["bot" as const] : []),
        ...shortcuts?.identities ?? [],
      ]),
    ],
  };
}

/** Every service a run can name, by name: the registry's, `event` and those with shortcuts. */
export async function serviceNames(ctx: RunContext): Promise<string[]> {
  const names = new Set([
    ...(await registryOf(ctx)).listServices().map((s) => s.name),
    "event",
    ...Object.keys(SHORTCUT_SERVICES),
  ]);
  return [...names].filter((n) => !FIXED_NAMES.has(n)).sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
}

/** The service as a node under `root`; undefined when no source has it (or a fixed command has its name). */
export async function serviceNode(
  ctx: RunContext,
  service: string,
  root: CommandNode,
): Promise<CommandNode | undefined> {
  if (FIXED_NAMES.has(service)) return undefined;
  const summary = await serviceSummary(ctx, service);
  if (!summary) return undefined;
  const hasShortcuts = Object.hasOwn(SHORTCUT_SERVICES, service);
  const node: CommandNode = {
    name: service,
    aliases: [],
    description: summary.description,
    options: [],
    commands: [],
    parent: root,
    leaf: false,
    layer: "api",
    identities: summary.identities,
    async find(word) {
      if (word.startsWith("+")) {
        if (!hasShortcuts) return undefined;
        const shortcut = await shortcutNamed(ctx, service, word);
        return shortcut && shortcutNode(service, staticShortcut(shortcut), node, shortcut);
      }
      if (service === "event") {
        await eventCommands(node);
        const own = node.commands.find((c) => c.name === word);
        if (own) return own;
      }
      const registry = await registryOf(ctx);
      if (!registry.listServices().some((s) => s.name === service)) return undefined;
      // A resource of the service: its methods are found one by one; an unknown one is told by its listing.
      return resourceNode(ctx, service, word, node);
    },
    async expand() {
      node.commands = [];
      const registry = await registryOf(ctx);
      const byResource = new Map<string, ApiMethod[]>();
      for (const m of await registry.methods(service)) {
        byResource.set(m.resource, [...byResource.get(m.resource) ?? [], m]);
      }
      for (const [resource, methods] of byResource) {
        node.commands.push(resourceNode(ctx, service, resource, node, methods));
      }
      if (service === "event") await eventCommands(node);
      if (hasShortcuts) {
        for (const s of await staticShortcuts(ctx, service)) {
          node.commands.push(shortcutNode(service, s, node));
        }
      }
    },
  };
  return node;
}

/** The event commands (`event list|schema|consume|...`) under the `event` service node, once. */
async function eventCommands(node: CommandNode): Promise<void> {
  if (node.commands.some((c) => c.layer === "builtin")) return;
  addDeclared(node, (await lazy("cli/commands/event.ts")).eventCommands, 1);
}
