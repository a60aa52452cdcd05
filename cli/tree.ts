/**
 * Assembles the command tree in the seed's order: fixed commands -> generated API commands -> shortcuts ->
 * strict-mode pruning. Only the service named on the command line is built in full; every other service is a
 * described stub, so help and completion list all services while start-up cost stays flat as the registry grows.
 * Likewise only the fixed command the first word names is loaded (see `fixedFor`).
 */
import { Command } from "commander";
import { type CommandMeta, hide, isHidden, metaOf, setMeta } from "./command_meta.ts";
import { FIXED_COMMANDS, FIXED_NAMES, type FixedCommand, registerFixed } from "./commands/index.ts";
import type { BuildOptions, RunContext } from "./context.ts";
import { addGlobalOptions, positionalWords, versionText } from "./globals.ts";
import type { StrictMode } from "./auth/types.ts";
import { errors } from "./output/errors.ts";
import type { ServiceSummary } from "./service_source.ts";
import { SERVICE_SOURCES } from "./sources.ts";

/**
 * Every command, at every depth, reports errors through the run instead of printing and exiting, and lays
 * its help out for the run's stdout (`helpWidth`: its columns on a terminal), not for the process's own:
 * an agent-server turn or an in-process test writes elsewhere, and the lean help (`cli/fast/help.ts`) reads
 * the same width.
 */
export function configureAll(cmd: Command, sink: (text: string) => void, helpWidth?: number): void {
  cmd.exitOverride()
    .configureOutput({
      writeOut: sink,
      writeErr: sink,
      outputError: () => {},
      // commander's own default when the width is unknown (not a terminal).
      getOutHelpWidth: () => helpWidth ?? 80,
    })
    .showSuggestionAfterError(true);
  for (const sub of cmd.commands) configureAll(sub as Command, sink, helpWidth);
}

async function strictModeOf(ctx: RunContext): Promise<StrictMode> {
  try {
    return (await ctx.credentials().account()).strictMode;
  } catch {
    // Not configured: nothing to restrict yet; the command itself reports the missing config.
    return "off";
  }
}

function strictStub(name: string, mode: StrictMode): Command {
  return new Command(name)
    .allowUnknownOption()
    .allowExcessArguments()
    .helpOption(false)
    .action(() => {
      throw errors.strictMode(`strict mode is "${mode}": only the ${mode} identity is allowed`, {
        hint:
          "this setting is managed by the administrator (larkit config strict-mode); do not change it as an agent",
      });
    });
}

function allows(meta: CommandMeta | undefined, mode: StrictMode): boolean {
  return mode === "off" || !meta?.identities || meta.identities.includes(mode);
}

/** Removes what strict mode forbids; a forbidden leaf stays as a hidden stub that explains the refusal. */
export function pruneForStrictMode(cmd: Command, mode: StrictMode): void {
  if (mode === "off") return;
  const children = cmd.commands as Command[];
  for (let i = children.length - 1; i >= 0; i--) {
    const child = children[i];
    if (child.commands.length > 0) {
      pruneForStrictMode(child, mode);
      if (child.commands.every((c) => isHidden(c as Command))) hide(child);
    } else if (!allows(metaOf(child), mode)) {
      // Its aliases too (`task +my-tasks`): a direct call by any of its names gets the refusal, not "unknown".
      const stub = hide(strictStub(child.name(), mode).aliases(child.aliases()));
      stub.parent = cmd;
      children[i] = stub;
    }
  }
}

/**
 * The fixed command modules this run needs: the one its first word names; none for a service; all of them
 * where the run may list them (root help, an unknown first word and its suggestion, the catalogue's full
 * build).
 */
function fixedFor(target: string | undefined, services: Map<string, unknown>, opts: BuildOptions) {
  if (opts.services !== undefined || target === undefined) return FIXED_COMMANDS;
  if (FIXED_NAMES.has(target)) return FIXED_COMMANDS.filter((f: FixedCommand) => f.names.includes(target));
  return services.has(target) ? [] : FIXED_COMMANDS;
}

/** Service names in code-unit order: the same order as a collator for these ASCII names, without its cost. */
function byName(a: ServiceSummary, b: ServiceSummary): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export async function buildTree(argv: string[], ctx: RunContext, opts: BuildOptions = {}): Promise<Command> {
  const program = addGlobalOptions(new Command("larkit"))
    .description("One command line to the Lark/Feishu suite for humans, scripts and AI agents")
    .version(versionText(ctx.p.version), "-V, --version", "print the version")
    .helpCommand(true);
  setMeta(program, { layer: "builtin" });

  const words = positionalWords(argv);
  // A bare `--version` is answered by the root alone: no config, registry or command module is looked at.
  const versionOnly = words.length === 0 && argv.some((a) => a === "-V" || a === "--version") &&
    !argv.some((a) => a === "-h" || a === "--help");
  if (versionOnly && opts.services === undefined) return program;
  const mode = await strictModeOf(ctx);
  const target = words[0] === "help" ? words[1] : words[0];
  const summaries = new Map<string, ServiceSummary>();
  for (const source of SERVICE_SOURCES) {
    for (const s of await source.list(ctx)) {
      const prev = summaries.get(s.name);
      summaries.set(s.name, {
        name: s.name,
        description: prev?.description || s.description,
        identities: [...new Set([...(prev?.identities ?? []), ...s.identities])],
      });
    }
  }
  await registerFixed(program, ctx, fixedFor(target, summaries, opts));
  for (const s of [...summaries.values()].sort(byName)) {
    if (FIXED_NAMES.has(s.name)) continue;
    if (mode !== "off" && !s.identities.includes(mode)) continue;
    const serviceCmd = program.command(s.name).description(s.description);
    setMeta(serviceCmd, { layer: "api", identities: s.identities });
    const build = opts.services === "all" ||
      (opts.services ? opts.services.includes(s.name) : s.name === target);
    if (build) {
      for (const source of SERVICE_SOURCES) await source.register(serviceCmd, s.name, ctx);
    }
  }
  pruneForStrictMode(program, mode);
  return program;
}
