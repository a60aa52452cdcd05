/**
 * The `csv` format (RFC 4180): CRLF line breaks; a field holding a comma, a double quote or a line break is
 * quoted, with inner quotes doubled. Rows are the same flattened rows as the table format.
 */
import { escapeControls } from "./cells.ts";
import { type Column, columnName, columnsOf, flattenRow, pickRow } from "./rows.ts";

/** One field: controls and bidi overrides escaped (suite data reaches terminals through csv too), then quoted. */
export function csvField(raw: string): string {
  const text = escapeControls(raw, true);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(fields: string[]): string {
  return fields.map(csvField).join(",") + "\r\n";
}

export function csvRows(columns: string[], rows: Map<string, string>[]): string {
  return rows.map((row) => csvLine(columns.map((c) => row.get(c) ?? ""))).join("");
}

/**
 * A list of items as CSV with a header row; an empty list is the header alone when the columns are known, else
 * nothing (a CSV reader sees no rows, never a row saying "(empty)"). `order` as for the table.
 */
export function renderCsv(items: unknown[], order?: Column[]): string {
  if (items.length === 0) return order ? csvLine(order.map(columnName)) : "";
  const rows = items.map((item) => order ? pickRow(item, order) : flattenRow(item));
  const columns = order ? order.map(columnName) : columnsOf(rows);
  return csvLine(columns) + csvRows(columns, rows);
}

/** One record as `key,value` rows under a `key,value` header. */
export function renderRecordCsv(value: unknown): string {
  return csvLine(["key", "value"]) + [...flattenRow(value)].map(([k, v]) => csvLine([k, v])).join("");
}
