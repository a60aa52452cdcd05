/**
 * Shortcuts as a source of service subtrees for the command tree: which services have shortcuts (and as
 * which identities), and the `+name` commands under a service, each with its own flags plus the automatic
 * ones (`--as`, `--dry-run`, `--jq`/`-q`, `--format` when it has formats, `--yes` when high-risk).
 */
import { type Command, Option } from "commander";
import { type FlagMeta, setMeta } from "../cli/command_meta.ts";
import type { RunContext } from "../cli/context.ts";
import { OUTPUT_FORMATS } from "../cli/output/formats/render.ts";
import { columnName } from "../cli/output/formats/rows.ts";
import type { ServiceSource } from "../cli/service_source.ts";
import type { FlagSpec, FlagSpecs, Shortcut } from "./declare.ts";
import { loadShortcuts, SHORTCUT_SERVICES } from "./index.ts";
import type { RawFlagValue } from "./inputs.ts";
import type * as Pipeline from "./pipeline.ts";

/**
 * Imports through a specifier Deno cannot resolve ahead of time, so the module stays out of every run's
 * start-up graph (a literal specifier is loaded up front); the type import keeps it type-checked and
 * `deno task compile` lists it for `--include`.
 */
const later = <T>(path: string): Promise<T> => import(path);

function optionOf(name: string, spec: FlagSpec<unknown>): Option {
  const notes = [
    spec.choices ? `(${spec.choices.join("|")})` : "",
    spec.required ? "(required)" : "",
    spec.defaultText !== undefined ? `(default: ${spec.defaultText})` : "",
  ].filter(Boolean);
  const description = [spec.description, ...notes].join(" ");
  const flags = spec.kind === "boolean" ? `--${name}` : `--${name} <${spec.placeholder ?? "value"}>`;
  return new Option(flags, description);
}

function helpText(shortcut: Shortcut<FlagSpecs>): string {
  const scopes = Object.entries(shortcut.scopes).map(([id, list]) => `  ${id}: ${(list ?? []).join(", ")}`);
  const required = Object.entries(shortcut.flags).filter(([, spec]) => spec.required).map(([n]) => `--${n}`);
  return [
    "",
    "Examples:",
    ...shortcut.examples.map((e) => `  ${e}`),
    "",
    ...(required.length ? [`Required: ${required.join(", ")}`] : []),
    `Identities: ${shortcut.authTypes.join(", ")}    Risk: ${shortcut.risk}`,
    "Scopes:",
    ...scopes,
  ].join("\n");
}

/** Every read shortcut takes `--format` (and `--columns`), as do writes that declare `hasFormat`. */
export function takesFormat(shortcut: Pick<Shortcut<FlagSpecs>, "hasFormat" | "risk">): boolean {
  return shortcut.hasFormat || shortcut.risk === "read";
}

/** One `+name` command wired to the pipeline. */
export function shortcutCommand(
  serviceCmd: Command,
  shortcut: Shortcut<FlagSpecs>,
  ctx: RunContext,
): Command {
  const cmd = serviceCmd.command(shortcut.command).description(shortcut.description);
  if (shortcut.aliases?.length) cmd.aliases(shortcut.aliases);
  const own = Object.entries(shortcut.flags).map(([name, spec]) => {
    const option = optionOf(name, spec);
    cmd.addOption(option);
    return [name, option] as const;
  });
  cmd.option(
    "--as <identity>",
    `identity to run as: user, bot or auto (supports: ${shortcut.authTypes.join(", ")})`,
  );
  cmd.option("--dry-run", "print the requests that would be sent, send nothing");
  cmd.option("-q, --jq <expr>", "jq filter over the result envelope, e.g. '.data'");
  if (takesFormat(shortcut)) {
    cmd.addOption(
      new Option("--format <format>", `output format (${OUTPUT_FORMATS.join("|")})`).default("json"),
    );
    cmd.option(
      "--columns <paths>",
      `table/csv columns, comma-separated dotted paths${
        shortcut.columns ? ` (default: ${shortcut.columns.map(columnName).join(",")})` : ""
      }`,
    );
  }
  if (shortcut.idempotencyKey) {
    cmd.option(
      "--idempotency-key <key>",
      "de-duplication key: the suite applies the write with the same key once (default: generated per run)",
    );
  }
  if (shortcut.risk === "high-risk-write") cmd.option("--yes", "confirm this high-risk write");
  cmd.addHelpText("after", helpText(shortcut));

  const flagMeta: Record<string, FlagMeta> = Object.fromEntries(
    Object.entries(shortcut.flags).map(([name, spec]) => [
      name,
      { type: spec.kind === "json" ? "json" : spec.kind, ...(spec.input ? { input: spec.input } : {}) },
    ]),
  );
  if (shortcut.idempotencyKey) flagMeta["idempotency-key"] = { type: "string" };
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
    const opts = cmd.opts<Record<string, string | boolean | undefined>>();
    const flags: Record<string, RawFlagValue> = Object.fromEntries(
      own.map(([name, option]) => [name, opts[option.attributeName()]]),
    );
    // The pipeline (and zod, the HTTP client behind it) loads only when a shortcut runs, not to build help.
    const { runShortcut } = await later<typeof Pipeline>("./pipeline.ts");
    await runShortcut(ctx, shortcut, {
      as: opts.as as string | undefined,
      dryRun: opts.dryRun === true,
      yes: opts.yes === true,
      format: opts.format as string | undefined,
      columns: opts.columns as string | undefined,
      jq: opts.jq as string | undefined,
      idempotencyKey: opts.idempotencyKey as string | undefined,
      flags,
    });
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
