/**
 * One service's subtree as the tree builds it (`cli/tree.ts` with strict mode off: the registry's resources
 * and methods, then the shortcuts), described without commander from the same declarations — the registry
 * method, `addApiFlags`, `methodHelp`, `shortcuts/command_flags.ts`, `cli/globals.ts` — for the lean `--help`
 * (`help.ts`) and completion (`complete.ts`). Services the tree builds from other sources (`event`) and the
 * fixed commands are not described here: those runs go to the tree.
 */
import type { Command } from "commander";
import { apiFlagSetOf, enumParamValues } from "../api_commands/call.ts";
import { addApiFlags } from "../api_commands/flags.ts";
import { methodHelp } from "../api_commands/method_help.ts";
import { registryOf } from "../api_commands/registry_of.ts";
import { FIXED_NAMES } from "../commands/index.ts";
import type { RunContext } from "../context.ts";
import { GLOBAL_FLAGS } from "../globals.ts";
import type { ApiMethod } from "../../registry/index.ts";
import { shortcutFlags, shortcutHelpText } from "../../shortcuts/command_flags.ts";
import type { FlagSpecs, Shortcut } from "../../shortcuts/declare.ts";
import { loadShortcuts, SHORTCUT_SERVICES } from "../../shortcuts/index.ts";
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

function methodModel(m: ApiMethod, parent: ModelCommand): ModelCommand {
  return {
    name: m.name,
    aliases: [],
    summary: m.summary,
    description: `${m.description}\n\nView parameter definitions before calling:\n  larkit schema ${m.id}`,
    options: methodOptions(m),
    commands: [],
    parent,
    leaf: true,
    after: methodHelp(m),
    values: (flag) => flag === "params" ? enumParamValues(m) : [],
  };
}

function shortcutModel(shortcut: Shortcut<FlagSpecs>, parent: ModelCommand): ModelCommand {
  return {
    name: shortcut.command,
    aliases: shortcut.aliases ?? [],
    description: shortcut.description,
    options: shortcutFlags(shortcut).map((f) => ({
      flags: f.spec,
      description: f.description,
      ...(f.default === undefined ? {} : { default: f.default }),
      ...(f.hidden ? { hidden: true } : {}),
    })),
    commands: [],
    parent,
    leaf: true,
    after: shortcutHelpText(shortcut),
    values: (flag) =>
      (shortcut.flags[flag]?.choices ?? []).map((value) => ({
        value,
        description: shortcut.flags[flag].description,
      })),
  };
}

/**
 * The service's subtree under `root`, or undefined when the tree builds it from elsewhere (a fixed command of
 * that name, `event`) or has no such service. Strict mode is the caller's to check: this is the tree with it off.
 */
export async function serviceModel(
  ctx: RunContext,
  service: string,
  root: ModelCommand,
): Promise<ModelCommand | undefined> {
  if (FIXED_NAMES.has(service) || service === "event") return undefined;
  const registry = await registryOf(ctx);
  const listed = registry.listServices().find((s) => s.name === service);
  const shortcuts = Object.hasOwn(SHORTCUT_SERVICES, service) ? SHORTCUT_SERVICES[service] : undefined;
  if (!listed && !shortcuts) return undefined;
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
  for (const m of await registry.methods(service)) {
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
  for (const shortcut of await loadShortcuts(service)) {
    serviceCmd.commands.push(shortcutModel(shortcut, serviceCmd));
  }
  root.commands.push(serviceCmd);
  return serviceCmd;
}

/** The child a word names (its name or an alias), as commander finds subcommands. */
export function childNamed(cmd: ModelCommand, word: string): ModelCommand | undefined {
  return cmd.commands.find((c) => c.name === word || c.aliases.includes(word));
}
