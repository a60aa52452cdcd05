/**
 * Rendering a result document in the format the user chose. Shared by shortcuts and API commands:
 * `renderDocument` for one finished result, `createItemWriter` for lists that arrive page by page.
 *
 * json    the success envelope (default);
 * pretty  the command's own human summary when it has one, else the envelope;
 * table   aligned columns of the listed items (or a key/value listing of a single record);
 * csv     RFC 4180, same rows as table;
 * ndjson  one compact JSON item per line.
 * table/csv/ndjson render `data` only (the items), not the envelope around them.
 */
import { type SuccessEnvelope, toJsonDocument } from "../envelope.ts";
import type { ItemFormat, OutputFormat } from "./names.ts";
import { escapeControls, loadCellWidths } from "./cells.ts";
import { csvLine, csvRows, renderCsv, renderRecordCsv } from "./csv.ts";
import { type Column, columnName, columnsOf, extractItems, flattenRow, pickRow } from "./rows.ts";
import {
  layoutTable,
  renderRecordTable,
  renderTable,
  tableHeader,
  type TableLayout,
  tableRows,
} from "./table.ts";

export interface RenderOptions {
  /** Terminal width (`p.stdout.columns`), for the table format. */
  columns?: number;
  /** The command's human summary of `data` (given the terminal width), for the pretty format. */
  pretty?: (data: unknown, columns?: number) => string;
  /** Where `data` keeps its items, when the command knows (table, csv and ndjson show those). */
  listField?: string;
  /**
   * The rows table, csv and ndjson show, when `data`'s items are not records (a sheet's grid: rows of cells,
   * which would otherwise show as one JSON cell per row).
   */
  rows?: (data: unknown) => unknown[];
  /** The table/csv columns: `--columns`, else the command's declared defaults; else every flattened key. */
  fields?: Column[];
}

function ndjsonOf(items: unknown[]): string {
  return items.map((item) => JSON.stringify(item) + "\n").join("");
}

/**
 * Readies what `format` needs before `renderDocument` runs (the width measure for tables and pretty summaries,
 * which draw tables); kept apart so that rendering stays synchronous and json runs load nothing more.
 */
export async function prepareFormat(format: OutputFormat): Promise<void> {
  if (format === "table" || format === "pretty") await loadCellWidths();
}

/** The whole result document, as text, in the given format (after `prepareFormat`). */
export function renderDocument(
  envelope: SuccessEnvelope,
  format: OutputFormat,
  opts: RenderOptions = {},
): string {
  switch (format) {
    case "json":
      return toJsonDocument(envelope);
    case "pretty": {
      if (!opts.pretty) return toJsonDocument(envelope);
      const text = escapeControls(opts.pretty(envelope.data, opts.columns));
      return text.endsWith("\n") ? text : text + "\n";
    }
    case "table":
    case "csv":
    case "ndjson": {
      const declared = opts.listField
        ? (envelope.data as Record<string, unknown> | null)?.[opts.listField]
        : undefined;
      const items = opts.rows
        ? opts.rows(envelope.data)
        : Array.isArray(declared)
        ? declared
        : extractItems(envelope.data);
      if (format === "ndjson") return ndjsonOf(items ?? [envelope.data ?? null]);
      // A command's own rows are in its column order (a grid's A...Z, AA...), not sorted by name.
      const first = opts.rows ? items?.[0] : undefined;
      const fields = opts.fields ?? (first && typeof first === "object" ? Object.keys(first) : undefined);
      if (format === "table") {
        return items
          ? renderTable(items, opts.columns, fields)
          : renderRecordTable(envelope.data, opts.columns);
      }
      return items ? renderCsv(items, fields) : renderRecordCsv(envelope.data);
    }
  }
}

export interface ItemWriter {
  /** Writes one page of items; the first page fixes the columns (table, csv) and widths (table). */
  page(items: unknown[]): Promise<void>;
  /** Finishes the list: `(empty)` when no page held an item (table), the header alone or nothing (csv). */
  end(): Promise<void>;
  /** Items written so far. */
  readonly count: number;
}

/** A streaming writer for paginated lists: each page is written as soon as it arrives. */
export function createItemWriter(
  format: ItemFormat,
  write: (text: string) => Promise<void>,
  opts: { columns?: number; fields?: Column[] } = {},
): ItemWriter {
  let count = 0;
  let table: TableLayout | undefined;
  let csvColumns: string[] | undefined;
  return {
    get count() {
      return count;
    },
    async page(items) {
      if (items.length === 0) return;
      count += items.length;
      if (format === "ndjson") return await write(ndjsonOf(items));
      const { fields } = opts;
      const rows = items.map((item) => fields ? pickRow(item, fields) : flattenRow(item));
      if (format === "table") {
        await loadCellWidths();
        const header = table
          ? ""
          : tableHeader(table = layoutTable(rows, opts.columns, true, fields?.map(columnName)));
        return await write(header + tableRows(table, rows));
      }
      const header = csvColumns ? "" : csvLine(csvColumns = fields?.map(columnName) ?? columnsOf(rows));
      await write(header + csvRows(csvColumns, rows));
    },
    async end() {
      if (count > 0 || format === "ndjson") return;
      if (format === "table") return await write("(empty)\n");
      if (opts.fields) await write(csvLine(opts.fields.map(columnName)));
    },
  };
}
