/**
 * The lean resolver for the commands agents call most: a generated method (`larkit <service> <resource>
 * <method> [flags]`), a shortcut (`larkit <service> +name [flags]`), raw `api <METHOD> <path> [flags]` and
 * `schema [path]` (and `commands`, in `catalogue.ts`). It answers without commander (whose Node-compat modules cost a run more than the
 * command itself, issue 17), from the same declarations the tree is built from: the registry's method, the
 * flag set `addApiFlags` declares, the global flags of `cli/globals.ts`, and the same executor with the same
 * options object commander would hand it. It takes only command lines it understands completely; for anything
 * else -- help, an unknown or malformed flag, `--`, strict mode, a word that is not a method -- it answers
 * `undefined` and the run goes through the tree, so every message and exit code stays commander's.
 */
import type { Command } from "commander";
import { apiCallOf, apiFlagSetOf } from "../api_commands/call.ts";
import type { ApiFlagSet } from "../api_commands/flags.ts";
import { lazy } from "../lazy.ts";
import { addApiFlags } from "../api_commands/flags.ts";
import { registryOf } from "../api_commands/registry_of.ts";
import { FIXED_NAMES } from "../commands/index.ts";
import type { RunContext } from "../context.ts";
import { admit, apiOperand, type CommandGate, suiteCommand } from "../command_meta.ts";
import { GLOBAL_FLAGS } from "../globals.ts";
import type { LarkitError } from "../output/errors.ts";

export interface DeclaredFlag {
  long: string;
  short?: string;
  takesValue: boolean;
  /** commander's attribute name: `--page-all` -> `pageAll`. */
  attribute: string;
  default?: string;
}

const FLAG_SPEC = /^(?:-([A-Za-z]), )?--([a-z][a-z0-9-]*)(?: <[^>]+>)?$/;

/** A flag as commander declares it; undefined for a spelling this parser does not know (optional values, negations). */
function declared(spec: string, fallback?: string): DeclaredFlag | undefined {
  const match = FLAG_SPEC.exec(spec);
  if (!match || match[2].startsWith("no-")) return undefined;
  return {
    long: match[2],
    short: match[1],
    takesValue: spec.includes("<"),
    attribute: match[2].replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
    default: fallback,
  };
}

/** Every flag, or undefined when one of them is not understood (the whole command is then ineligible). */
export function allDeclared(specs: { spec: string; default?: string }[]): DeclaredFlag[] | undefined {
  const flags = specs.map((s) => declared(s.spec, s.default));
  return flags.every((f) => f !== undefined) ? flags as DeclaredFlag[] : undefined;
}

/**
 * The flags `addApiFlags` declares for a method, read by handing it a recorder in place of a command: the
 * declaration stays the one in flags.ts.
 */
function declaredFlags(set: ApiFlagSet): DeclaredFlag[] | undefined {
  const specs: { spec: string; default?: string }[] = [];
  const recorder = {
    option(spec: string, _description: string, fallback?: string) {
      specs.push({ spec, default: fallback });
      return recorder;
    },
  };
  addApiFlags(recorder as unknown as Command, set);
  return allDeclared(specs);
}

const GLOBAL_VALUE = new Set(GLOBAL_FLAGS.filter((f) => f.value).map((f) => f.flag));
const GLOBAL_SWITCH = new Set(GLOBAL_FLAGS.filter((f) => !f.value).map((f) => f.flag));

/**
 * commander's options object for the flags after a command's words, and the operands among them (at most
 * `maxWords`); undefined when not understood.
 */
export function parseFlags(
  flags: DeclaredFlag[],
  args: string[],
  maxWords = 0,
): { opts: Record<string, string | boolean>; words: string[] } | undefined {
  const opts: Record<string, string | boolean> = {};
  const words: string[] = [];
  for (const f of flags) if (f.default !== undefined) opts[f.attribute] = f.default;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (GLOBAL_SWITCH.has(arg)) continue;
    if (!arg.startsWith("-")) {
      if (words.push(arg) > maxWords) return undefined;
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (GLOBAL_VALUE.has(name)) {
      // The root's option, read by the prescan: the leaf's options object never holds it.
      if (eq === -1 && (i + 1 >= args.length || args[i + 1].startsWith("-"))) return undefined;
      if (eq === -1) i++;
      continue;
    }
    const flag = flags.find((f) => name === `--${f.long}` || (f.short && name === `-${f.short}`));
    if (!flag) return undefined;
    if (!flag.takesValue) {
      if (eq !== -1) return undefined;
      opts[flag.attribute] = true;
      continue;
    }
    if (eq !== -1) opts[flag.attribute] = arg.slice(eq + 1);
    else {
      const value = args[i + 1];
      if (value === undefined || value.startsWith("-")) return undefined;
      opts[flag.attribute] = value;
      i++;
    }
  }
  return { opts, words };
}

/** The long flags commander's did-you-mean looks through: the leaf's shown flags, then its parents' down to the root. */
const PARENT_FLAGS = ["--help", ...GLOBAL_FLAGS.map((f) => f.flag), "--version"];

/**
 * The first unknown `--` option of a command line that is otherwise plain (what comes before and after it
 * parses), as the usage error the tree gives for it; undefined when the tree must say what is wrong
 * (a global flag misspelt with a value, a short flag, an operand, a missing value, ...). The did-you-mean
 * module loads only for such an error.
 */
export async function unknownOption(
  flags: DeclaredFlag[],
  shown: DeclaredFlag[],
  args: string[],
  path: string[],
): Promise<LarkitError | undefined> {
  for (let k = 0; k < args.length; k++) {
    const arg = args[k];
    if (!arg.startsWith("--") || arg === "--") continue;
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (GLOBAL_VALUE.has(name) || GLOBAL_SWITCH.has(name)) continue;
    const flag = flags.find((f) => name === `--${f.long}`);
    // commander takes `--flag=value` for a flag with a value; for a switch the whole word is unknown.
    if (flag && (eq === -1 || flag.takesValue)) continue;
    if (!parseFlags(flags, args.slice(0, k)) || !parseFlags(flags, args.slice(k + 1))) return undefined;
    const longs = [...shown.map((f) => `--${f.long}`), ...PARENT_FLAGS];
    const { optionSuggestion, usageError } = await lazy("cli/resolve/usage.ts");
    return usageError(`unknown option '${arg}'${optionSuggestion(arg, longs)}`, "unknownOption", {
      path,
      suggestions: [],
    });
  }
  return undefined;
}

export async function strictModeOff(ctx: RunContext): Promise<boolean> {
  try {
    return (await ctx.credentials().account()).strictMode === "off";
  } catch {
    // Not configured: the tree does not prune either; the command itself reports the missing config.
    return true;
  }
}

/**
 * Whether the tree keeps this leaf as it is: strict mode prunes only a leaf whose identities leave out the
 * one it allows (`cli/tree.ts`), so for a leaf that supports both the account is not even read here -- an
 * unknown option's envelope then loads no credential chain, config or token store (start-up). Under
 * `--debug` it is read all the same: the tree's read prints where the credentials came from.
 */
export async function leafKept(ctx: RunContext, identities: readonly string[]): Promise<boolean> {
  const both = identities.includes("user") && identities.includes("bot");
  return (both && !ctx.globals.debug) || await strictModeOff(ctx) || both;
}

/**
 * Runs argv when it is a generated method with flags this resolver understands; the exit code, or undefined
 * when the tree must answer.
 */
export async function runMethod(
  argv: string[],
  ctx: RunContext,
  gate?: CommandGate,
): Promise<number | undefined> {
  const [service, resource, name] = argv;
  if (argv.length < 3 || [service, resource, name].some((w) => w.startsWith("-") || w.startsWith("+"))) {
    return undefined;
  }
  // A fixed command of that name wins over a service; `event` mixes registry and its own commands.
  if (FIXED_NAMES.has(service) || service === "event" || argv.includes("--")) return undefined;
  if (asksHelpOrVersion(argv)) return undefined;
  const registry = await registryOf(ctx);
  // The one method, not the service's every method converted (start-up); undefined for an unknown service too.
  const m = await registry.findRunnable(service, resource, name);
  if (!m) return undefined;
  const flags = declaredFlags(apiFlagSetOf(m));
  const parsed = flags && parseFlags(flags, argv.slice(3));
  const usage = flags && !parsed
    ? await unknownOption(flags, flags, argv.slice(3), [service, resource, name])
    : undefined;
  if ((!parsed && !usage) || !await leafKept(ctx, m.identities)) return undefined;
  if (!parsed) throw usage;
  admit(gate, suiteCommand([service, resource, name], "api", service));
  // The siblings a lost write's verify hint looks at: the same resource's get and list (`verifyCommand`).
  const siblings =
    (await Promise.all(["get", "list"].map((n) => registry.findRunnable(service, resource, n))))
      .filter((s) => s !== undefined);
  const { runApiCall } = await lazy("cli/api_commands/execute.ts");
  await runApiCall(ctx, apiCallOf(ctx, m, siblings), parsed.opts);
  return ctx.state.exitCode ?? 0;
}

export const asksHelpOrVersion = (argv: string[]) =>
  argv.some((a) => a === "--help" || a === "-h" || a === "--version" || a === "-V");

/** `api <METHOD> <path> [flags]`, through the function the `api` command runs; undefined when not understood. */
export async function runRaw(
  argv: string[],
  ctx: RunContext,
  gate?: CommandGate,
): Promise<number | undefined> {
  const [, methodArg, pathArg] = argv;
  if (argv.length < 3 || methodArg.startsWith("-") || pathArg.startsWith("-")) return undefined;
  if (argv.includes("--") || asksHelpOrVersion(argv)) return undefined;
  const api = await lazy("cli/commands/api.ts");
  const flags = declaredFlags(api.RAW_API_FLAGS);
  const parsed = flags && parseFlags(flags, argv.slice(3));
  if (!parsed) return undefined;
  const target = apiOperand(pathArg);
  admit(gate, suiteCommand(["api"], "api", target.service, target.host));
  await api.runRawApi(ctx, methodArg, pathArg, parsed.opts);
  return ctx.state.exitCode ?? 0;
}

/** `schema [path] [--format <fmt>] [--jq <expr>]`, through its declaration and the resolver's parse. */
export async function runSchema(argv: string[], ctx: RunContext): Promise<number | undefined> {
  if (argv.includes("--") || asksHelpOrVersion(argv)) return undefined;
  const [{ schemaCommand }, { runDeclared }] = await Promise.all([
    lazy("cli/commands/schema.ts"),
    lazy("cli/resolve/run.ts"),
  ]);
  await runDeclared(ctx, schemaCommand, argv.slice(1));
  return ctx.state.exitCode ?? 0;
}

/**
 * `app-server [flags]`, through its declaration and the resolver's parse (`cli/resolve/run.ts`): an agent host
 * spawns it and waits for the `initialize` answer, which then does not wait for commander and the tree.
 */
export async function runAppServerLine(argv: string[], ctx: RunContext): Promise<number | undefined> {
  if (argv.includes("--") || asksHelpOrVersion(argv)) return undefined;
  const [{ appServer }, { runDeclared }] = await Promise.all([
    lazy("cli/commands/app_server.ts"),
    lazy("cli/resolve/run.ts"),
  ]);
  await runDeclared(ctx, appServer, argv.slice(1));
  return ctx.state.exitCode ?? 0;
}

/** `<service> +name [flags]`: its module loads only for a shortcut's line (a method's run needs none of it). */
async function runShortcutLine(argv: string[], ctx: RunContext, gate?: CommandGate) {
  return (await lazy("cli/fast/shortcut_line.ts")).runShortcutLine(argv, ctx, gate);
}

/**
 * The lean answer to argv, or undefined when the tree must answer. With a host's gate (a turn) only the suite
 * commands are resolved here, each put to the gate as the tree would put it; `--record`/`--replay` (refused in
 * turns) leave the verdict to the tree.
 */
export async function runLean(
  argv: string[],
  ctx: RunContext,
  gate?: CommandGate,
): Promise<number | undefined> {
  if (gate) {
    if (argv.some((a) => /^--(record|replay)(=|$)/.test(a))) return undefined;
    if (argv[0] === "api") return runRaw(argv, ctx, gate);
    if (argv[0] === "schema" || argv[0] === "commands") return undefined;
    return argv[1]?.startsWith("+") ? runShortcutLine(argv, ctx, gate) : runMethod(argv, ctx, gate);
  }
  if (argv[0] === "commands") {
    return (await lazy("cli/fast/catalogue.ts")).runCatalogue(argv, ctx);
  }
  if (argv[0] === "api") return runRaw(argv, ctx);
  if (argv[0] === "schema") return runSchema(argv, ctx);
  if (argv[0] === "app-server") return runAppServerLine(argv, ctx);
  if (argv[1]?.startsWith("+")) return runShortcutLine(argv, ctx);
  return runMethod(argv, ctx);
}
