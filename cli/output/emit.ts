/**
 * The single exit for results and errors: every byte larkit writes to stdout, and every error envelope and
 * prompt it writes to stderr, leaves through this module. Commands hand a value here; this module decides the
 * bytes (format, `--jq`, the dry-run document). Every run loads this module, and most write only text or an
 * error envelope: the formats (render, table, csv, rows, cells) and jq load lazily, for a result document only
 * -- seven modules, about 2.5 ms of each other run's start-up (issue 17).
 */
import type { RunContext } from "../context.ts";
import type { DryRunDocument } from "./dry_run.ts";
import { lazy } from "../lazy.ts";
import {
  errorEnvelope,
  type Identity,
  type Meta,
  type SuccessEnvelope,
  successEnvelope,
  toJsonDocument,
} from "./envelope.ts";
import { LarkitError } from "./errors.ts";
import type { Column } from "./formats/rows.ts";
import type { ItemFormat, OutputFormat } from "./formats/names.ts";
import type { ItemWriter } from "./formats/render.ts";

type Ctx = Pick<RunContext, "p" | "state" | "diag">;

/** Writes the success envelope as the run's one result document. */
export async function emitSuccess(ctx: RunContext, parts: { data?: unknown; meta?: Meta }): Promise<void> {
  const envelope = successEnvelope({ identity: ctx.state.identity, ...parts });
  await ctx.p.stdout.write(toJsonDocument(envelope));
  ctx.p.documents?.result(envelope);
}

/** Writes a non-envelope result document (help text, `--version`, rendered formats). */
export async function emitText(ctx: Pick<RunContext, "p">, text: string): Promise<void> {
  await ctx.p.stdout.write(text.endsWith("\n") ? text : text + "\n");
}

/** Writes one JSON value as a line of its own (NDJSON: an event as it arrives); a host receives the value. */
export async function emitLine(ctx: Pick<RunContext, "p">, value: unknown): Promise<void> {
  await ctx.p.stdout.write(JSON.stringify(value) + "\n");
  ctx.p.documents?.result(value);
}

/**
 * Writes a result already rendered (help text, a report in the chosen format, one NDJSON line), as is; bytes
 * for a document read from a file and printed unchanged (the catalogue), which then is never decoded.
 */
export async function emitRendered(ctx: Pick<RunContext, "p">, text: string | Uint8Array): Promise<void> {
  await ctx.p.stdout.write(text);
}

/**
 * The error envelope goes to stderr, so a pipe never receives an error as data. A closed stdout is the one
 * error said by the exit code alone: its reader has gone, as after SIGPIPE.
 */
export async function emitError(ctx: Pick<RunContext, "p" | "state">, err: LarkitError): Promise<void> {
  if (err.subtype === "broken_pipe") return;
  const envelope = errorEnvelope(err, { identity: ctx.state.identity });
  await ctx.p.stderr.write(toJsonDocument(envelope));
  ctx.p.documents?.error(envelope);
}

/** A question to whoever sits at the terminal (stderr, no newline: the answer is typed after it). */
export async function emitPrompt(ctx: Pick<RunContext, "p">, question: string): Promise<void> {
  await ctx.p.stderr.write(question);
}

export interface ResultSettings {
  identity?: Identity;
  format: OutputFormat;
  jq?: string;
  /**
   * The command changed something in the suite before its result was shown. A `--jq` that then fails at run
   * time must not turn a done write into an error (whose fix would be a re-run, sending it twice): the
   * unfiltered envelope is written instead, with a warning.
   */
  wrote?: boolean;
  /** The response field holding the items (a generated list method's, from its response shape). */
  listField?: string;
  /** The rows for table, csv and ndjson when the items are not records (see `RenderOptions.rows`). */
  rows?: (data: unknown) => unknown[];
  /** The table/csv columns (`--columns`, else the command's declared defaults). */
  fields?: Column[];
}

/**
 * The success envelope, rendered in the chosen format or filtered by `--jq`; once written, an in-process host
 * receives the envelope itself (not what the format or filter made of it).
 */
export async function emitResult(
  ctx: Ctx,
  settings: ResultSettings,
  data: unknown,
  meta?: Meta,
  pretty?: (data: unknown, columns?: number) => string,
): Promise<void> {
  const envelope = successEnvelope({ identity: settings.identity, data, meta });
  await writeResult(ctx, settings, envelope, pretty);
  ctx.p.documents?.result(envelope);
}

async function writeResult(
  ctx: Ctx,
  settings: ResultSettings,
  envelope: SuccessEnvelope,
  pretty?: (data: unknown, columns?: number) => string,
): Promise<void> {
  // The JSON document needs none of the renderers (start-up: most runs, every dry run, print this).
  if (settings.format === "json" && settings.jq === undefined) {
    await ctx.p.stdout.write(toJsonDocument(envelope));
    return;
  }
  const { prepareFormat, renderDocument } = await lazy("cli/output/formats/render.ts");
  await prepareFormat(settings.format);
  if (settings.jq === undefined) {
    await ctx.p.stdout.write(
      renderDocument(envelope, settings.format, {
        columns: ctx.p.stdout.columns,
        pretty,
        listField: settings.listField,
        rows: settings.rows,
        fields: settings.fields,
      }),
    );
    return;
  }
  if (settings.format === "table" || settings.format === "csv" || settings.format === "ndjson") {
    // Filter first, then render: the filter's results are the rows (callers pass only --columns here, since
    // a command's declared columns describe its unfiltered items).
    const { applyJqItems } = await lazy("cli/output/formats/jq.ts");
    const items = await applyJqItems(envelope, settings.jq, ctx.p.signal);
    await ctx.p.stdout.write(
      renderDocument(successEnvelope({ data: items }), settings.format, {
        columns: ctx.p.stdout.columns,
        fields: settings.fields,
      }),
    );
    return;
  }
  const { applyJq } = await lazy("cli/output/formats/jq.ts");
  let text: string;
  try {
    text = await applyJq(envelope, settings.jq, ctx.p.signal);
  } catch (e) {
    if (!settings.wrote || !(e instanceof LarkitError) || e.type === "interrupted") throw e;
    await ctx.diag.warn(
      `the write succeeded, but --jq failed on its result (${e.body.message}); the unfiltered result follows \u2014 do not re-run the command`,
    );
    text = toJsonDocument(envelope);
  }
  await ctx.p.stdout.write(text);
}

/** `--dry-run`: a banner on stderr, the dry-run document as the result (`meta.dry_run`); `--jq` applies. */
export async function emitDryRun(
  ctx: Ctx,
  doc: DryRunDocument,
  settings: { format: OutputFormat; jq?: string },
): Promise<void> {
  await ctx.diag.info("=== Dry Run === (nothing was sent)");
  const format = settings.format === "pretty" ? "pretty" : "json";
  const pretty = format === "pretty" ? (await lazy("cli/output/dry_run.ts")).dryRunText : undefined;
  await emitResult(ctx, { format, jq: settings.jq }, doc, { dry_run: true }, pretty && (() => pretty(doc)));
}

/** Items streamed to stdout page by page (`--page-all` with ndjson, table or csv). */
export async function emitItems(
  ctx: Pick<RunContext, "p">,
  format: ItemFormat,
  fields?: Column[],
): Promise<ItemWriter> {
  const { createItemWriter } = await lazy("cli/output/formats/render.ts");
  return createItemWriter(format, (t) => ctx.p.stdout.write(t), { columns: ctx.p.stdout.columns, fields });
}
