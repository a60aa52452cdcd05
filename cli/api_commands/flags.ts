/**
 * The flags of generated API commands and raw `api` (lark-cli §2.2 names), attached in one place so both
 * layers spell and document them the same way, and described in the command metadata for the catalogue.
 */
import type { Command } from "commander";
import type { FlagMeta } from "../command_meta.ts";

export interface ApiFlagSet {
  /** `--data` (methods with a body). */
  body: boolean;
  /** `--file` (methods with a file field, and raw `api`). */
  file: boolean;
  /** `--yes` (high-risk writes). */
  yes: boolean;
  /** `--idempotency-key` (writes the suite de-duplicates). */
  idempotency?: boolean;
  /** `--page-all/--page-size/--page-limit`; false for a method that returns no pages (hidden from help). */
  pages?: boolean;
}

const INPUT = "(supports @file, - for stdin)";

export function addApiFlags(cmd: Command, set: ApiFlagSet): Record<string, FlagMeta> {
  const flags: Record<string, FlagMeta> = {
    params: { type: "json", input: ["file", "stdin"] },
    as: { type: "string" },
    "page-all": { type: "boolean" },
    "page-size": { type: "integer" },
    "page-limit": { type: "integer" },
    output: { type: "string" },
    overwrite: { type: "boolean" },
    "dry-run": { type: "boolean" },
    format: { type: "string", default: "json" },
    columns: { type: "string" },
    jq: { type: "string" },
  };
  cmd.option("--params <json>", `query and path parameters as a JSON object ${INPUT}`);
  if (set.body) {
    cmd.option("--data <json>", `request body as JSON ${INPUT}`);
    flags.data = { type: "json", input: ["file", "stdin"] };
  }
  if (set.file) {
    cmd.option(
      "--file <field=path>",
      "upload a file as multipart/form-data (- for stdin); --data gives the other fields",
    );
    flags.file = { type: "string", input: ["stdin"] };
  }
  cmd.option("--as <identity>", "identity: user, bot or auto");
  if (set.pages === false) {
    for (const name of ["page-all", "page-size", "page-limit"]) delete flags[name];
  } else {
    cmd
      .option("--page-all", "follow page_token through every page (stream with --format ndjson)")
      .option("--page-size <n>", "page_size for each page")
      .option("--page-limit <n>", "most pages with --page-all; 0 = no limit", "10");
  }
  cmd
    .option("-o, --output <path>", "save the response body (binary downloads) to a file")
    .option("--overwrite", "replace the --output file if it exists")
    .option("--dry-run", "print the request that would be sent, send nothing")
    .option("--format <fmt>", "output format: json, pretty, table, csv or ndjson (default: json)")
    .option(
      "--columns <paths>",
      "table/csv columns: comma-separated dotted paths into each item (e.g. id,owner.name)",
    )
    .option("-q, --jq <expr>", "jq filter over the result envelope");
  if (set.idempotency) {
    cmd.option(
      "--idempotency-key <key>",
      "de-duplication key: the suite applies a write with the same key once (one generated per run when absent)",
    );
    flags["idempotency-key"] = { type: "string" };
  }
  if (set.yes) {
    cmd.option("--yes", "confirm a high-risk write");
    flags.yes = { type: "boolean" };
  }
  return flags;
}
