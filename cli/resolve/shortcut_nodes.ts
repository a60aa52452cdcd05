/**
 * Shortcuts as command nodes. A run finds the one shortcut its words name in the module
 * `shortcuts/modules.json` names (its service's other shortcuts are not loaded); help, completion and the
 * catalogue list a service's shortcuts from `help_static.ndjson`, not by loading every shortcut module
 * (start-up, issue 17). Loaded only for a `+name` word or a listing.
 */
import { type FlagMeta, type FlagValue, SUITE_TURN } from "../command_meta.ts";
import type { RunContext } from "../context.ts";
import { urlPath } from "../files.ts";
import { lazy, lazyNamed } from "../lazy.ts";
import { invocationOf, shortcutFlags, shortcutHelpText } from "../../shortcuts/command_flags.ts";
import type { FlagSpecs, Shortcut } from "../../shortcuts/declare.ts";
import { loadShortcuts } from "../../shortcuts/index.ts";
import type { CommandNode, OptionDecl } from "./node.ts";
import { staticLine } from "./services.ts";

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

/** The service's shortcuts: from the file, or from the declarations when it has no line for them. */
async function staticShortcuts(ctx: RunContext, service: string): Promise<StaticShortcut[]> {
  const line = await staticLine(ctx, `{"service":${JSON.stringify(service)},`);
  // The program's own file, checked against the declarations by its test: not input from outside.
  if (line !== undefined) return (JSON.parse(line) as { shortcuts: StaticShortcut[] }).shortcuts;
  return (await loadShortcuts(service)).map(staticShortcut);
}

/** The node of the shortcut `<service> +name` names, or undefined. */
export async function shortcutNamedNode(
  ctx: RunContext,
  service: string,
  name: string,
  parent: CommandNode,
): Promise<CommandNode | undefined> {
  const shortcut = await shortcutNamed(ctx, service, name);
  return shortcut && shortcutNode(service, staticShortcut(shortcut), parent, shortcut);
}

/** Every shortcut of the service as a node, as listed in the manifest. */
export async function listedShortcuts(
  ctx: RunContext,
  service: string,
  parent: CommandNode,
): Promise<CommandNode[]> {
  return (await staticShortcuts(ctx, service)).map((s) => shortcutNode(service, s, parent));
}
