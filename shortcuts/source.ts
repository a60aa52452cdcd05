/**
 * Shortcuts as a source of service subtrees for the command tree: which services have shortcuts (and as
 * which identities), and the `+name` commands under a service, each with its own flags plus the automatic
 * ones (`--as`, `--dry-run`, `--jq`/`-q`, `--format` when it has formats, `--yes` when high-risk).
 */
import { type Command, Option } from "commander";
import { type FlagMeta, setMeta } from "../cli/command_meta.ts";
import type { RunContext } from "../cli/context.ts";
import type { ServiceSource } from "../cli/service_source.ts";
import { invocationOf, shortcutFlags, shortcutHelpText } from "./command_flags.ts";
import type { FlagSpecs, Shortcut } from "./declare.ts";
import { loadShortcuts, SHORTCUT_SERVICES } from "./index.ts";
import { lazy } from "../cli/lazy.ts";

/** One `+name` command wired to the pipeline. */
export function shortcutCommand(
  serviceCmd: Command,
  shortcut: Shortcut<FlagSpecs>,
  ctx: RunContext,
): Command {
  const cmd = serviceCmd.command(shortcut.command).description(shortcut.description);
  if (shortcut.aliases?.length) cmd.aliases(shortcut.aliases);
  // Where commander keeps each flag's value in its options object, for the pipeline's invocation.
  const attributes = new Map<string, string>();
  for (const f of shortcutFlags(shortcut)) {
    const option = new Option(f.spec, f.description);
    if (f.hidden) option.hideHelp();
    attributes.set(f.spec, option.attributeName());
    cmd.addOption(f.default === undefined ? option : option.default(f.default));
  }
  cmd.addHelpText("after", shortcutHelpText(shortcut));

  const flagMeta: Record<string, FlagMeta> = Object.fromEntries(
    Object.entries(shortcut.flags).map(([name, spec]) => [
      name,
      { type: spec.kind === "json" ? "json" : spec.kind, ...(spec.input ? { input: spec.input } : {}) },
    ]),
  );
  if (shortcut.idempotencyKey) flagMeta["idempotency-key"] = { type: "string" };
  // What help says of a flag -- "(required)", "(default: X)" -- the catalogue says too, from the same flags.
  for (const f of shortcutFlags(shortcut)) {
    if (!f.required && f.shownDefault === undefined) continue;
    const name = /--([a-z0-9-]+)/.exec(f.spec)?.[1] as string;
    flagMeta[name] = {
      ...(flagMeta[name] ?? { type: "string" }),
      ...(f.required ? { required: true } : {}),
      ...(f.shownDefault !== undefined ? { default: f.shownDefault } : {}),
    };
  }
  setMeta(cmd, {
    layer: "shortcut",
    identities: shortcut.authTypes,
    risk: shortcut.risk,
    scopes: shortcut.scopes,
    dryRun: true,
    flags: flagMeta,
    values: (flag) =>
      (shortcut.flags[flag]?.choices ?? []).map((value) => ({
        value,
        description: shortcut.flags[flag].description,
      })),
  });

  cmd.action(async () => {
    const invocation = invocationOf(shortcut, cmd.opts(), (f) => attributes.get(f.spec) as string);
    // The pipeline (and zod, the HTTP client behind it) loads only when a shortcut runs, not to build help.
    const { runShortcut } = await lazy("shortcuts/pipeline.ts");
    await runShortcut(ctx, shortcut, invocation);
  });
  return cmd;
}

export const shortcutSource: ServiceSource = {
  // Declared in the list, so listing services loads no shortcut module.
  list: () =>
    Object.entries(SHORTCUT_SERVICES).map(([name, s]) => ({
      name,
      description: s.description,
      identities: [...s.identities],
    })),
  async register(serviceCmd, service, ctx) {
    for (const shortcut of await loadShortcuts(service)) shortcutCommand(serviceCmd, shortcut, ctx);
  },
};
