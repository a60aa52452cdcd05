/**
 * A suite service as a command node: the registry's resources and methods, the `event` commands for the
 * `event` service, then the shortcuts (`shortcut_nodes.ts`, loaded only for a `+name` or a listing). A run finds
 * the one method (`findRunnable`) or the one shortcut its words name; help, completion and the catalogue list
 * them all.
 */
import { apiFlagSetOf, apiOptions } from "../api_commands/flags.ts";
import { registryOf } from "../api_commands/registry_of.ts";
import { FIXED_NAMES } from "./fixed_commands.ts";
import { SUITE_TURN } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { urlPath } from "../files.ts";
import { lazy } from "../lazy.ts";
import type { ApiMethod, RunnableMethod } from "../../registry/index.ts";
import { SHORTCUT_SERVICES } from "../../shortcuts/index.ts";
import { attributes, type CommandNode, groupNode, type OptionDecl } from "./node.ts";
import { unknownCommandError } from "./usage.ts";

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
  // The method with its texts (descriptions of it and its parameters), which a runnable method leaves out.
  const described = async () =>
    full ?? await (await registryOf(ctx)).findMethod(m.service, m.resource, m.name);
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
      return (await lazy("cli/api_commands/param_values.ts")).enumParamValues(await described() ?? m);
    },
    async describe() {
      const method = await described();
      if (!method) return;
      node.summary = method.summary;
      node.description = methodDescription(method);
      node.after = (await lazy("cli/api_commands/method_help.ts")).methodHelp(method);
    },
    async run(ctx, line) {
      const registry = await registryOf(ctx);
      // The siblings a lost write's verify hint looks at: the same resource's get and list (`verifyCommand`).
      const siblings = (await Promise.all(
        ["get", "list"].map((n) => registry.findRunnable(m.service, m.resource, n)),
      )).filter((s) => s !== undefined);
      const [{ apiCallOf }, { runApiCall }] = await Promise.all([
        lazy("cli/api_commands/call.ts"),
        lazy("cli/api_commands/execute.ts"),
      ]);
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
    ...groupNode(resource, parent, `${resource} operations`),
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
        throw unknownCommandError(resource, [...new Set(methods.map((m) => m.resource))], [service]);
      }
      node.commands = all.map((m) => methodNode(ctx, m, node));
    };
  }
  return node;
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

/** A service's methods by resource, resources in the order their first method comes. */
export function byResource(methods: ApiMethod[]): Map<string, ApiMethod[]> {
  const out = new Map<string, ApiMethod[]>();
  for (const m of methods) out.set(m.resource, [...out.get(m.resource) ?? [], m]);
  return out;
}

/** The service's description and identities, from the registry and the shortcut list; undefined if none has it. */
export async function serviceSummary(ctx: RunContext, service: string) {
  const listed = (await registryOf(ctx)).listServices().find((s) => s.name === service);
  const shortcuts = Object.hasOwn(SHORTCUT_SERVICES, service) ? SHORTCUT_SERVICES[service] : undefined;
  if (!listed && !shortcuts && service !== "event") return undefined;
  return {
    name: service,
    /** Whether the registry has it (its resources and methods), not only the event commands or shortcuts. */
    inRegistry: listed !== undefined,
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
    ...groupNode(service, root, summary.description),
    layer: "api",
    identities: summary.identities,
    async find(word) {
      if (word.startsWith("+")) {
        return hasShortcuts
          ? await (await lazy("cli/resolve/shortcut_nodes.ts")).shortcutNamedNode(ctx, service, word, node)
          : undefined;
      }
      if (service === "event") {
        await eventCommands(node);
        const own = node.commands.find((c) => c.name === word);
        if (own) return own;
      }
      // `help` is the implicit help command, never a resource (no resource has that name).
      if (word === "help" || !summary.inRegistry) return undefined;
      // A resource of the service: its methods are found one by one; an unknown one is told by its listing.
      return resourceNode(ctx, service, word, node);
    },
    async expand() {
      node.commands = [];
      const methods = await (await registryOf(ctx)).methods(service);
      for (const [resource, ofResource] of byResource(methods)) {
        node.commands.push(resourceNode(ctx, service, resource, node, ofResource));
      }
      if (service === "event") await eventCommands(node);
      if (hasShortcuts) {
        const { listedShortcuts } = await lazy("cli/resolve/shortcut_nodes.ts");
        node.commands.push(...await listedShortcuts(ctx, service, node));
      }
    },
  };
  return node;
}

/** The event commands (`event list|schema|consume|...`) under the `event` service node, once. */
async function eventCommands(node: CommandNode): Promise<void> {
  if (node.commands.some((c) => c.layer === "builtin")) return;
  const [{ addDeclared }, { eventCommands }] = await Promise.all([
    lazy("cli/resolve/declare.ts"),
    lazy("cli/commands/event.ts"),
  ]);
  addDeclared(node, eventCommands, 1);
}
