/**
 * The `--format` names and their parsing, apart from the renderers (`render.ts`, which loads table, csv, rows
 * and cells): declaring a command's flags and completing `--format` need the names only, and a Tab or a
 * usage error then loads none of the renderers (issue 17).
 */
import { errors } from "../errors.ts";

export const OUTPUT_FORMATS = ["json", "pretty", "table", "csv", "ndjson"] as const;
export type OutputFormat = typeof OUTPUT_FORMATS[number];
export type ItemFormat = Extract<OutputFormat, "table" | "csv" | "ndjson">;

/** The `--format` value, case-insensitive; absent means json. */
export function parseFormat(raw: string | undefined): OutputFormat {
  const value = (raw ?? "json").toLowerCase();
  const found = OUTPUT_FORMATS.find((f) => f === value);
  if (!found) {
    throw errors.validation(`invalid value "${raw}" for --format`, {
      hint: `use one of: ${OUTPUT_FORMATS.join(", ")}`,
    });
  }
  return found;
}
