/**
 * The flags of generated API commands and raw `api` (lark-cli §2.2 names), declared in one place so both
 * layers spell and document them the same way; each carries what the catalogue says of it.
 */
import type { FlagMeta } from "../command_meta.ts";
import type { OptionDecl } from "../resolve/node.ts";
import type { RunnableMethod } from "../../registry/index.ts";

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

const option = (flags: string, description: string, meta: FlagMeta, fallback?: string): OptionDecl => ({
  flags,
  description,
  meta,
  ...(fallback === undefined ? {} : { default: fallback }),
});

/** The options of a generated method (or raw `api`) with this flag set, in the order help lists them. */
export function apiOptions(set: ApiFlagSet): OptionDecl[] {
  const json: FlagMeta = { type: "json", input: ["file", "stdin"] };
  const options = [option("--params <json>", `query and path parameters as a JSON object ${INPUT}`, json)];
  if (set.body) options.push(option("--data <json>", `request body as JSON ${INPUT}`, json));
  if (set.file) {
    options.push(
      option(
        "--file <field=path>",
        "upload a file as multipart/form-data (- for stdin); --data gives the other fields",
        { type: "string", input: ["stdin"] },
      ),
    );
  }
  options.push(option("--as <identity>", "identity: user, bot or auto", { type: "string" }));
  if (set.pages !== false) {
    options.push(
      option("--page-all", "follow page_token through every page (stream with --format ndjson)", {
        type: "boolean",
      }),
      option("--page-size <n>", "page_size for each page", { type: "integer" }),
      option("--page-limit <n>", "most pages with --page-all; 0 = no limit", { type: "integer" }, "10"),
    );
  }
  options.push(
    option("-o, --output <path>", "save the response body (binary downloads) to a file", { type: "string" }),
    option("--overwrite", "replace the --output file if it exists", { type: "boolean" }),
    option("--dry-run", "print the request that would be sent, send nothing", { type: "boolean" }),
    option("--format <fmt>", "output format: json, pretty, table, csv or ndjson (default: json)", {
      type: "string",
      default: "json",
    }),
    option(
      "--columns <paths>",
      "table/csv columns: comma-separated dotted paths into each item (e.g. id,owner.name)",
      { type: "string" },
    ),
    option("-q, --jq <expr>", "jq filter over the result envelope", { type: "string" }),
  );
  if (set.idempotency) {
    options.push(
      option(
        "--idempotency-key <key>",
        "de-duplication key: the suite applies a write with the same key once (one generated per run when absent)",
        { type: "string" },
      ),
    );
  }
  if (set.yes) options.push(option("--yes", "confirm a high-risk write", { type: "boolean" }));
  return options;
}

/** The flags a generated command takes (`apiOptions`), from its method. */
export function apiFlagSetOf(m: RunnableMethod): ApiFlagSet {
  return {
    body: m.httpMethod !== "GET",
    file: m.fileFields.length > 0,
    yes: m.risk === "high-risk-write",
    idempotency: m.idempotency !== undefined,
    pages: m.listField !== undefined || "page_token" in m.parameters,
  };
}
