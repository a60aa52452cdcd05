/**
 * The lean resolver's shortcut line (`larkit <service> +name [flags]`): the shortcut is loaded alone from the
 * module that declares it and run through the same invocation and pipeline as its command. Kept apart from
 * `method.ts` so that a generated method's run loads none of the shortcut registry (start-up, issue 17).
 */
import { admit, type CommandGate, suiteCommand } from "../command_meta.ts";
import { FIXED_NAMES } from "../commands/index.ts";
import type { RunContext } from "../context.ts";
import { urlPath } from "../files.ts";
import { type CommandFlag, invocationOf, shortcutFlags } from "../../shortcuts/command_flags.ts";
import { loadShortcuts, SHORTCUT_SERVICES } from "../../shortcuts/index.ts";
import type { FlagSpecs, Shortcut } from "../../shortcuts/declare.ts";
import { lazy, lazyNamed } from "../lazy.ts";
import { allDeclared, asksHelpOrVersion, leafKept, parseFlags, unknownOption } from "./method.ts";

/**
 * Which module declares each shortcut, per service and name (aliases included), as paths under `shortcuts/`.
 * Written from the service lists by `deno task gen` (`tests/manifest_test.ts` checks it is fresh);
 * read rather than imported, and each module it names is one its service's `index.ts` imports, so a compiled
 * binary embeds it.
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

/** `<service> +name [flags]`, through the same invocation and pipeline as the shortcut's command. */
export async function runShortcutLine(
  argv: string[],
  ctx: RunContext,
  gate?: CommandGate,
): Promise<number | undefined> {
  const [service, name] = argv;
  if (!Object.hasOwn(SHORTCUT_SERVICES, service) || FIXED_NAMES.has(service) || !name?.startsWith("+")) {
    return undefined;
  }
  if (argv.includes("--") || asksHelpOrVersion(argv)) return undefined;
  const shortcut = await shortcutNamed(ctx, service, name);
  if (!shortcut) return undefined;
  const commandFlags = shortcutFlags(shortcut);
  const flags = allDeclared(commandFlags);
  const parsed = flags && parseFlags(flags, argv.slice(2));
  const shown = flags?.filter((_, i) => !commandFlags[i].hidden);
  const usage = flags && shown && !parsed
    ? await unknownOption(flags, shown, argv.slice(2), [service, shortcut.command])
    : undefined;
  if (!flags || (!parsed && !usage) || !await leafKept(ctx, shortcut.authTypes)) return undefined;
  if (!parsed) throw usage;
  admit(gate, suiteCommand([service, shortcut.command], "shortcut", service));
  const attributes = new Map(commandFlags.map((f, i) => [f.spec, flags[i].attribute]));
  const attribute = (f: CommandFlag) => attributes.get(f.spec) as string;
  const { runShortcut } = await lazy("shortcuts/pipeline.ts");
  await runShortcut(ctx, shortcut, invocationOf(shortcut, parsed.opts, attribute));
  return ctx.state.exitCode ?? 0;
}
