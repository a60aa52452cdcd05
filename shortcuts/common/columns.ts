/**
 * Table columns several shortcuts share: values computed from an item where the suite's raw shape reads badly
 * in a cell (a time object, a message body).
 */
import type { Column } from "../../cli/output/formats/rows.ts";

type Time = { datetime?: string; date?: string; timestamp?: string } | undefined;

/**
 * A suite time as one cell: the shaped RFC 3339 `datetime` or all-day `date` when present, else the raw
 * `timestamp` (Unix seconds) shown in UTC -- a column has no access to the user's zone.
 */
export function timeCell(t: unknown): string {
  const time = t as Time;
  if (time?.datetime) return time.datetime;
  if (time?.date) return time.date;
  if (time?.timestamp && /^\d+$/.test(time.timestamp)) {
    return new Date(Number(time.timestamp) * 1000).toISOString().replace(/:00\.000Z$/, "Z");
  }
  return "";
}

/** A named column showing the time object at `key` of an item. */
export const timeColumn = (name: string, key: string): Column => ({
  name,
  value: (item) => timeCell((item as Record<string, unknown>)[key]),
});

/** The readable part of a message's parsed content: its text, else the content as JSON. */
function messageText(item: unknown): string {
  const content = (item as { content?: unknown }).content;
  const text = (content as { text?: unknown } | undefined)?.text;
  if (typeof text === "string") return text;
  return content === undefined ? "" : JSON.stringify(content);
}

/** The columns of a list of shaped IM messages (`shapeMessage`). */
export const MESSAGE_COLUMNS: Column[] = [
  "create_time",
  "sender_id",
  "msg_type",
  { name: "text", value: messageText },
  "message_id",
];
