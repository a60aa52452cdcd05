/**
 * The command-line flags of one shortcut command -- its own and the automatic ones (`--as`, `--dry-run`,
 * `--jq`/`-q`, `--format`/`--columns` when it has formats, `--idempotency-key`, `--yes` when high-risk) --
 * declared once for the resolver (`cli/resolve/services.ts`), and how the parsed values become the pipeline's
 * invocation.
 */
import { OUTPUT_FORMATS } from "../cli/output/formats/names.ts";
import { columnName } from "../cli/output/formats/rows.ts";
import { flagHelp, type FlagSpec, type FlagSpecs, flagUsage, type Shortcut } from "./declare.ts";
import type { RawFlagValue } from "./inputs.ts";
import type { Invocation } from "./pipeline.ts";

export interface CommandFlag {
  /** As the resolver reads it: `--start <time>`, `-q, --jq <expr>`, `--dry-run`. */
  spec: string;
  description: string;
  default?: string;
  /** The shortcut's own flag this is (its key in `shortcut.flags`); absent for the automatic ones. */
  own?: string;
  /** A deprecated alias: still parsed, left out of help. */
  hidden?: boolean;
  /** Help says "(required)"; the catalogue says `required`. */
  required?: boolean;
  /** The default help shows in the description ("(default: X)"), when the parse is not given one. */
  shownDefault?: string;
}

function ownFlag(name: string, spec: FlagSpec<unknown>): CommandFlag {
  return {
    spec: flagUsage(name, spec),
    description: flagHelp(spec),
    own: name,
    ...(spec.deprecated ? { hidden: true } : {}),
    ...(spec.required ? { required: true } : {}),
    ...(spec.defaultText !== undefined ? { shownDefault: spec.defaultText } : {}),
  };
}

/** Every read shortcut takes `--format` (and `--columns`), as do writes that declare `hasFormat`. */
export function takesFormat(shortcut: Pick<Shortcut<FlagSpecs>, "hasFormat" | "risk">): boolean {
  return shortcut.hasFormat || shortcut.risk === "read";
}

/** The flags of the shortcut's command, in the order help lists them. */
export function shortcutFlags(shortcut: Shortcut<FlagSpecs>): CommandFlag[] {
  const flags = Object.entries(shortcut.flags).map(([name, spec]) => ownFlag(name, spec));
  flags.push(
    {
      spec: "--as <identity>",
      description: `identity to run as: user, bot or auto (supports: ${shortcut.authTypes.join(", ")})`,
    },
    { spec: "--dry-run", description: "print the requests that would be sent, send nothing" },
    { spec: "-q, --jq <expr>", description: "jq filter over the result envelope, e.g. '.data'" },
  );
  if (takesFormat(shortcut)) {
    flags.push(
      {
        spec: "--format <format>",
        description: `output format (${OUTPUT_FORMATS.join("|")})`,
        default: "json",
      },
      {
        spec: "--columns <paths>",
        description: `table/csv columns, comma-separated dotted paths${
          shortcut.columns ? ` (default: ${shortcut.columns.map(columnName).join(",")})` : ""
        }`,
        ...(shortcut.columns ? { shownDefault: shortcut.columns.map(columnName).join(",") } : {}),
      },
    );
  }
  if (shortcut.idempotencyKey) {
    flags.push({
      spec: "--idempotency-key <key>",
      description:
        "de-duplication key: the suite applies the write with the same key once (generated per run when absent)",
    });
  }
  if (shortcut.risk === "high-risk-write") {
    flags.push({ spec: "--yes", description: "confirm this high-risk write" });
  }
  return flags;
}

/** The text after a shortcut's help: examples, required flags, identities, risk and scopes. */
export function shortcutHelpText(shortcut: Shortcut<FlagSpecs>): string {
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

/** The long name a flag is spelt with: `-q, --jq <expr>` -> `jq`. */
const longName = (f: CommandFlag) => /--([a-z0-9-]+)/.exec(f.spec)?.[1] as string;

/** The pipeline's invocation from the parsed flag values, keyed by long name (`dry-run`, `page-size`). */
export function invocationOf(
  shortcut: Shortcut<FlagSpecs>,
  values: Record<string, RawFlagValue>,
): Invocation {
  const flags: Record<string, RawFlagValue> = {};
  for (const f of shortcutFlags(shortcut)) {
    if (f.own !== undefined) flags[f.own] = values[longName(f)];
  }
  return {
    as: values.as as string | undefined,
    dryRun: values["dry-run"] === true,
    yes: values.yes === true,
    format: values.format as string | undefined,
    columns: values.columns as string | undefined,
    jq: values.jq as string | undefined,
    idempotencyKey: values["idempotency-key"] as string | undefined,
    flags,
  };
}
