/**
 * `--jq` (and, where a command's result reads as rows, `--format`) on fixed commands that print an envelope:
 * `config show`, `profile list`, `auth status`, `schema`, `event status`, `remote-control status` ... take the
 * same output flags as the suite commands, and their result leaves through `emitResult`, so `--jq '.data.x'`
 * works on them as it does on a shortcut. Both flags are checked before the command acts (a typo in the
 * filter never costs a done action its result).
 */
import { flag, type FlagSpec } from "../../shortcuts/declare.ts";
import type { RunContext } from "../context.ts";
import { emitResult } from "../output/emit.ts";
import type { Meta } from "../output/envelope.ts";
import { errors } from "../output/errors.ts";
import { checkJq } from "../output/formats/jq.ts";
import type { Column } from "../output/formats/rows.ts";
import { type OutputFormat, parseFormat } from "../output/formats/names.ts";

/** `-q, --jq` of a declared fixed command. */
export const jqFlag = (): FlagSpec<string | undefined> =>
  flag.string("jq filter over the result envelope, e.g. '.data'", { placeholder: "expr", short: "q" });

/** What a fixed command whose result reads as rows (a list) prints it as: `--format`'s choices. */
export const LIST_FORMATS = ["json", "table", "csv", "ndjson"] as const;

/** `-q, --jq` and `--format` of a declared fixed command that lists rows. */
export const listFlags = (): { jq: FlagSpec<string | undefined>; format: FlagSpec<string | undefined> } => ({
  jq: jqFlag(),
  format: Object.assign(flag.string(`output format: ${LIST_FORMATS.join(", ")}`, { placeholder: "format" }), {
    defaultText: "json",
  }),
});

/**
 * The command's result as a success envelope, in its `--format` (checked against `formats`) or filtered by its
 * `--jq` (checked first). `wrote`: the command already changed something, so a filter failing at run time
 * prints the unfiltered result instead of an error whose fix would be a re-run. `columns`: a list's table/csv
 * columns, most important first.
 */
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
