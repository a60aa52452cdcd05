/**
 * The `table` format: aligned columns for people. Cells are one line with controls and bidi overrides escaped
 * (`sanitizeCell`), measured in display columns, capped at 100 columns and, when the terminal width is known,
 * narrowed until the table fits (widest first, the first column last); cut cells end in `...`.
 */
import { type Column, columnName, columnsOf, flattenRow, pickRow } from "./rows.ts";
import { displayWidth, padCell, sanitizeCell, truncateCell } from "./cells.ts";

const MAX_CELL = 100;
const MIN_CELL = 6;
const GAP = "  ";

export interface TableLayout {
  columns: string[];
  widths: number[];
}

/** Column widths for these rows (and the header), shrunk widest first to fit `terminalWidth` when given. */
export function layoutTable(
  rows: Map<string, string>[],
  terminalWidth?: number,
  header = true,
  order?: string[],
): TableLayout {
  const columns = order ?? columnsOf(rows);
  const widths = columns.map((c) => {
    const cells = rows.map((r) => displayWidth(sanitizeCell(r.get(c) ?? "")));
    return Math.min(MAX_CELL, Math.max(header ? displayWidth(sanitizeCell(c)) : 0, ...cells));
  });
  if (terminalWidth !== undefined) {
    const total = () => widths.reduce((a, b) => a + b, 0) + GAP.length * Math.max(0, widths.length - 1);
    // Widest first, but the first column (a list's key: the time of an event, a name) gives way last.
    const widestOf = (from: number) => {
      const rest = widths.slice(from);
      return from + rest.indexOf(Math.max(...rest));
    };
    while (total() > terminalWidth) {
      let widest = widths.length > 1 ? widestOf(1) : 0;
      if (widths[widest] <= MIN_CELL) widest = widestOf(0);
      if (widths[widest] <= MIN_CELL) break;
      widths[widest]--;
    }
  }
  return { columns, widths };
}

function line(cells: string[], widths: number[]): string {
  return cells.map((cell, i) => padCell(truncateCell(sanitizeCell(cell), widths[i]), widths[i])).join(GAP)
    .trimEnd() +
    "\n";
}

export function tableHeader(layout: TableLayout): string {
  return line(layout.columns, layout.widths) + layout.widths.map((w) => "\u2500".repeat(w)).join(GAP) + "\n";
}

export function tableRows(layout: TableLayout, rows: Map<string, string>[]): string {
  return rows.map((row) => line(layout.columns.map((c) => row.get(c) ?? ""), layout.widths)).join("");
}

/**
 * A list of items as a table; `(empty)` for an empty list. Columns are the items' flattened keys in
 * first-seen order, or `order` when the command (or `--columns`) picks them: paths at any depth or values
 * computed from each item, in that order.
 */
export function renderTable(items: unknown[], terminalWidth?: number, order?: Column[]): string {
  if (items.length === 0) return "(empty)\n";
  const rows = items.map((item) => order ? pickRow(item, order) : flattenRow(item));
  const layout = layoutTable(rows, terminalWidth, true, order?.map(columnName));
  return tableHeader(layout) + tableRows(layout, rows);
}

/** One record (a result that holds no list) as an aligned `key  value` listing. */
export function renderRecordTable(value: unknown, terminalWidth?: number): string {
  const row = flattenRow(value);
  const pairs = [...row].map(([key, text]) => new Map([["key", key], ["value", text]]));
  if (pairs.length === 0) return "(no data)\n";
  const layout = layoutTable(pairs, terminalWidth, false);
  return tableRows(layout, pairs);
}
