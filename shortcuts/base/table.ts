/** What the base shortcuts share: the table a command addresses and its records path. */
import { flag } from "../declare.ts";

export const tableFlags = {
  "base-token": flag.requiredString("base (bitable app) token, e.g. bascn\u2026"),
  "table-id": flag.requiredString("table ID (tbl\u2026)"),
};

export function recordsPath(baseToken: string, tableId: string, recordId?: string): string {
  const base = `/open-apis/bitable/v1/apps/${encodeURIComponent(baseToken)}/tables/${
    encodeURIComponent(tableId)
  }/records`;
  return recordId === undefined ? base : `${base}/${encodeURIComponent(recordId)}`;
}
