/**
 * `--format pretty` renderers several list shortcuts share.
 */
import type { Column } from "../../cli/output/formats/rows.ts";
import { renderTable } from "../../cli/output/formats/table.ts";

/**
 * A list as a table with the columns in `order`, or the sentence `empty` when it holds nothing: a table of
 * no rows would say only "(empty)", where a sentence can say what was looked for.
 */
export function tableOr(empty: string, order?: Column[]): (data: unknown, columns?: number) => string {
  return (data, columns) => {
    const rows = data as Record<string, unknown>[];
    return rows.length ? renderTable(rows, columns, order) : empty;
  };
}
