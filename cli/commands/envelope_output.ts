/**
 * `--jq` (and, where a command's result reads as rows, `--format`) on fixed commands that print an envelope:
 * `config show`, `profile list`, `auth status`, `schema`, `event status`, `remote-control status` ... take the
 * same output flags as the suite commands, and their result leaves through `emitResult`, so `--jq '.data.x'`
 * works on them as it does on a shortcut. Both flags are checked before the command acts (a typo in the
 * filter never costs a done action its result).
 */
import type { Command } from "commander";
import { flag, type FlagSpec } from "../../shortcuts/declare.ts";
import type { RunContext } from "../context.ts";
import { emitResult } from "../output/emit.ts";
import type { Meta } from "../output/envelope.ts";
import { errors } from "../output/errors.ts";
import { checkJq } from "../output/formats/jq.ts";
import type { Column } from "../output/formats/rows.ts";
import { type OutputFormat, parseFormat } from "../output/formats/names.ts";

interface Settings {
  format: OutputFormat;
  jq?: string;
}

const FORMATS = new WeakMap<Command, readonly OutputFormat[]>();

/**
 * Adds `-q, --jq <expr>` to a fixed command, and `--format` when `formats` names more than JSON (a list the
 * table format shows as rows). Returns the command, for chaining before `.action`.
 */
export function envelopeOutput(cmd: Command, formats: readonly OutputFormat[] = ["json"]): Command {
  FORMATS.set(cmd, formats);
  cmd.option("-q, --jq <expr>", "jq filter over the result envelope, e.g. '.data'");
  if (formats.length > 1) cmd.option("--format <format>", `output format: ${formats.join(", ")}`, "json");
  cmd.hook("preAction", async () => {
    const { jq } = settingsOf(cmd);
    if (jq !== undefined) await checkJq(jq);
  });
  return cmd;
}

function settingsOf(cmd: Command): Settings {
  const formats = FORMATS.get(cmd) ?? ["json"];
  const opts = cmd.opts() as { jq?: unknown; format?: unknown };
  const jq = typeof opts.jq === "string" ? opts.jq : undefined;
  const format = parseFormat(typeof opts.format === "string" ? opts.format : "json");
  if (!formats.includes(format)) {
    throw errors.validation(`--format ${format} is not supported by larkit ${cmd.name()}`, {
      hint: `use one of: ${formats.join(", ")}`,
    });
  }
  return { format, jq };
}

/**
 * The command's result as a success envelope, in its `--format` or filtered by its `--jq`. `wrote`: the
 * command already changed something, so a filter failing at run time prints the unfiltered result instead
 * of an error whose fix would be a re-run. `columns`: a list's table/csv columns, most important first.
 */
export async function emitEnvelope(
  ctx: RunContext,
  cmd: Command,
  parts: { data?: unknown; meta?: Meta; wrote?: boolean; columns?: Column[] },
): Promise<void> {
  const { format, jq } = settingsOf(cmd);
  // Declared columns describe the unfiltered items: a --jq reshapes them, so its rows show every key.
  const fields = jq === undefined ? parts.columns : undefined;
  await emitResult(
    ctx,
    { identity: ctx.state.identity, format, jq, wrote: parts.wrote, fields },
    parts.data,
    parts.meta,
  );
}

/** `-q, --jq` of a declared fixed command (with `shorts: { jq: "q" }`). */
export const jqFlag = (): FlagSpec<string | undefined> =>
  flag.string("jq filter over the result envelope, e.g. '.data'", { placeholder: "expr" });

/** `--format` of a declared fixed command whose result reads as rows. */
export const formatFlag = (formats: readonly OutputFormat[]): FlagSpec<string | undefined> =>
  Object.assign(flag.string(`output format: ${formats.join(", ")}`, { placeholder: "format" }), {
    defaultText: "json",
  });

/** `emitEnvelope` for a declared command: its `--format` checked against `formats`, its `--jq` checked first. */
export async function emitOutput(
  ctx: RunContext,
  words: string[],
  formats: readonly OutputFormat[],
  flags: { jq?: string; format?: string },
  parts: { data?: unknown; meta?: Meta; wrote?: boolean; columns?: Column[] },
): Promise<void> {
  const format = parseFormat(flags.format ?? "json");
  if (!formats.includes(format)) {
    throw errors.validation(`--format ${format} is not supported by larkit ${words.at(-1)}`, {
      hint: `use one of: ${formats.join(", ")}`,
    });
  }
  if (flags.jq !== undefined) await checkJq(flags.jq);
  const fields = flags.jq === undefined ? parts.columns : undefined;
  await emitResult(
    ctx,
    { identity: ctx.state.identity, format, jq: flags.jq, wrote: parts.wrote, fields },
    parts.data,
    parts.meta,
  );
}
