/**
 * Turning a result into rows: which list in a response holds the items (lark-cli's rule, so the same
 * `--format table` shows the same rows), and how one item becomes a flat row of cells.
 */

/** Array fields tried in this order before falling back to the first array-valued key by name. */
const ARRAY_FIELDS = [
  "items",
  "files",
  "events",
  "rooms",
  "records",
  "nodes",
  "members",
  "departments",
  "calendar_list",
  "acl_list",
  "freebusy_list",
];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function arrayIn(obj: Record<string, unknown>): unknown[] | undefined {
  for (const field of ARRAY_FIELDS) {
    if (Array.isArray(obj[field])) return obj[field] as unknown[];
  }
  const key = Object.keys(obj).filter((k) => Array.isArray(obj[k])).sort()[0];
  return key === undefined ? undefined : obj[key] as unknown[];
}

/**
 * The list of items in a value: the value itself when it is an array; else the list in `data`, else a list
 * at the top level; undefined when the value holds no list (it is then rendered as one record).
 */
export function extractItems(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isRecord(value)) return undefined;
  if (isRecord(value.data)) {
    const inData = arrayIn(value.data);
    if (inData) return inData;
  }
  if (Array.isArray(value.data)) return value.data;
  return arrayIn(value);
}

const MAX_DEPTH = 3;

/** Text of a scalar cell: strings as they are, null/undefined empty, anything else as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return String(value);
  }
  return JSON.stringify(value);
}

/**
 * One item as a flat row: nested objects become dotted keys down to depth 3 (deeper objects and all arrays
 * become JSON text), keys sorted within each object; a non-object item is a single `value` cell.
 */
export function flattenRow(item: unknown): Map<string, string> {
  const row = new Map<string, string>();
  if (!isRecord(item)) {
    row.set("value", cellText(item));
    return row;
  }
  const walk = (obj: Record<string, unknown>, prefix: string, depth: number) => {
    for (const key of Object.keys(obj).sort()) {
      const value = obj[key];
      const name = prefix ? `${prefix}.${key}` : key;
      if (isRecord(value) && depth < MAX_DEPTH) walk(value, name, depth + 1);
      else row.set(name, cellText(value));
    }
  };
  walk(item, "", 1);
  return row;
}

/** Column names: the union of the rows' keys, in the order they are first seen. */
export function columnsOf(rows: Map<string, string>[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of row.keys()) seen.add(key);
  return [...seen];
}

/**
 * A column a command declares or `--columns` picks: a dotted path into the item ("start_time.datetime",
 * "attendees.0.display_name", any depth, array indexes as numbers), or a named value computed from the item.
 */
export type Column = string | { name: string; value: (item: unknown) => unknown };

export function columnName(column: Column): string {
  return typeof column === "string" ? column : column.name;
}

/** The value at a dotted path; undefined where the path leaves the item. */
export function valueAt(item: unknown, path: string): unknown {
  let at: unknown = item;
  for (const key of path.split(".")) {
    if (Array.isArray(at) && /^\d+$/.test(key)) at = at[Number(key)];
    else if (isRecord(at)) at = at[key];
    else return undefined;
  }
  return at;
}

/** One item as a row of exactly these columns. */
export function pickRow(item: unknown, columns: Column[]): Map<string, string> {
  return new Map(
    columns.map((c) => [columnName(c), cellText(typeof c === "string" ? valueAt(item, c) : c.value(item))]),
  );
}

/** `--columns a,b.c`: the comma-separated paths, blanks dropped; undefined when absent or empty. */
export function parseColumns(raw: string | undefined): string[] | undefined {
  const paths = (raw ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  return paths.length ? paths : undefined;
}
