/**
 * The root of the command tree: the global flags, then the fixed commands (`fixed_commands.ts`) and every
 * suite service (`services.ts`). A run finds only the child its first word names: the fixed command's module
 * alone, or the one service. The root's own list (help, completion, suggestions) comes from the first line of
 * `help_static.ndjson` while the registry is the one it was written from, else from every source (`liveRoot`).
 */
import { registryOf } from "../api_commands/registry_of.ts";
import { FIXED_COMMANDS, FIXED_NAMES } from "./fixed_commands.ts";
import type { RunContext } from "../context.ts";
import { GLOBAL_FLAGS } from "../globals.ts";
import type { Identity } from "../output/envelope.ts";
import { type CommandNode, groupNode, type OptionDecl } from "./node.ts";
import { lazy } from "../lazy.ts";

export const ROOT_DESCRIPTION = "One command line to the Lark/Feishu suite for humans, scripts and AI agents";

/** The root's options: the global flags and `-V, --version` (every help's Global Options). */
export const ROOT_OPTIONS: OptionDecl[] = [
  ...GLOBAL_FLAGS.map((f) => ({
    flags: f.value ? `${f.flag} ${f.value}` : f.flag,
    description: f.description,
  })),
  { flags: "-V, --version", description: "print the version" },
];

/** A command the root lists, as the manifest keeps it. */
export interface StaticEntry {
  name: string;
  aliases: string[];
  hidden?: boolean;
  /** How the root's help lists it: `completion [options] <shell>`. */
  term: string;
  /** Its summary, else its description. */
  about: string;
  identities?: Identity[];
}

/** The first line of `help_static.ndjson`: the root's list for the registry `registry`. */
export interface StaticRoot {
  registry: string;
  commands: StaticEntry[];
}

/** Puts a built child in the place of the listed entry of its name (or at the end). */
function adopt(root: CommandNode, node: CommandNode): void {
  const at = root.commands.findIndex((c) => c.name === node.name);
  if (at === -1) root.commands.push(node);
  else root.commands[at] = node;
}

/** The fixed commands' modules, loaded at once, their commands hung under the root in the list's order. */
async function addFixed(root: CommandNode, which: typeof FIXED_COMMANDS): Promise<void> {
  const [modules, { addDeclared }] = await Promise.all([
    Promise.all(which.map((f) => f.load())),
    lazy("cli/resolve/declare.ts"),
  ]);
  for (const [i, module] of modules.entries()) {
    // Entries listed from the manifest give way to the commands themselves.
    root.commands = root.commands.filter((c) => !(c.listed && which[i].names.includes(c.name)));
    addDeclared(root, module);
  }
}

/** The root with every child built (not listed from the manifest): the manifest's source, the catalogue's. */
export async function liveRoot(ctx: RunContext): Promise<CommandNode> {
  const root = rootNode(ctx);
  root.expand = undefined;
  await addFixed(root, FIXED_COMMANDS);
  const { serviceNames, serviceNode } = await lazy("cli/resolve/services.ts");
  for (const name of await serviceNames(ctx)) {
    const node = await serviceNode(ctx, name, root);
    if (node) root.commands.push(node);
  }
  return root;
}

export function rootNode(ctx: RunContext): CommandNode {
  const built = new Set<string>();
  const root: CommandNode = {
    ...groupNode("larkit", undefined, ROOT_DESCRIPTION),
    options: ROOT_OPTIONS,
    layer: "builtin",
    async find(word) {
      if (!built.has(word)) {
        built.add(word);
        const fixed = FIXED_COMMANDS.find((f) => f.names.includes(word));
        if (fixed) await addFixed(root, [fixed]);
        else if (!FIXED_NAMES.has(word)) {
          // The services' module loads only for a run that names one (a fixed command's run needs none of it).
          const service = await (await lazy("cli/resolve/services.ts")).serviceNode(ctx, word, root);
          if (service) adopt(root, service);
        }
      }
      return root.commands.find((c) => !c.listed && (c.name === word || c.aliases.includes(word)));
    },
    async expand() {
      const line = await (await lazy("cli/resolve/services.ts")).staticLine(ctx, `{"root":`);
      const listed = line === undefined ? undefined : (JSON.parse(line) as { root: StaticRoot }).root;
      if (!listed || (await registryOf(ctx)).version !== listed.registry) {
        const live = await liveRoot(ctx);
        root.commands = live.commands.map((c) => Object.assign(c, { parent: root }));
        return;
      }
      // Children a run already found stay as they are; the others are listed, not built.
      const found = root.commands;
      root.commands = listed.commands.map((c) =>
        found.find((b) => b.name === c.name) ?? {
          name: c.name,
          aliases: c.aliases,
          ...(c.hidden ? { hidden: true } : {}),
          listed: true,
          term: c.term,
          description: c.about,
          ...(c.identities ? { identities: c.identities } : {}),
          options: [],
          commands: [],
          parent: root,
          leaf: true,
        }
      );
    },
  };
  return root;
}
