/**
 * What the task shortcuts share: the tasks path, the suite's task object parsed, and a compact view of it
 * with times as RFC 3339 in the user's zone (the suite writes millisecond strings).
 */
import type { Column } from "../../cli/output/formats/rows.ts";
import * as z from "zod";
import { renderTable } from "../../cli/output/formats/table.ts";
import { formatRfc3339 } from "../common/time.ts";

export const TASKS = "/open-apis/task/v2/tasks";
export const taskPath = (guid: string) => `${TASKS}/${encodeURIComponent(guid)}`;

export const SuiteTask = z.looseObject({
  guid: z.string(),
  summary: z.string(),
  description: z.optional(z.string()),
  due: z.optional(z.looseObject({ timestamp: z.string(), is_all_day: z.optional(z.boolean()) })),
  completed_at: z.optional(z.string()),
  status: z.optional(z.string()),
  members: z.optional(z.array(z.looseObject({ id: z.string(), role: z.string() }))),
  url: z.optional(z.string()),
});
export type SuiteTask = z.infer<typeof SuiteTask>;

const msTime = (ms: string | undefined, zone: string) =>
  ms && ms !== "0" ? formatRfc3339(Number(ms), zone) : undefined;

/** The task as shortcuts print it: the suite's fields, with `due` and `completed_at` made readable. */
export function shapeTask(t: SuiteTask, zone: string): Record<string, unknown> {
  const { due, completed_at, ...rest } = t;
  return {
    ...rest,
    ...(due ? { due: { ...due, datetime: msTime(due.timestamp, zone) } } : {}),
    completed_at: msTime(completed_at, zone) ?? null,
  };
}

/** A task list's table, as the pretty view shows it. */
export const TASK_COLUMNS: Column[] = [
  { name: "status", value: (t) => (t as { completed_at?: string }).completed_at ? "done" : "todo" },
  "summary",
  { name: "due", value: (t) => (t as { due?: { datetime?: string } }).due?.datetime },
  "guid",
];

/** `--format pretty`: one line per task. */
export function tasksText(data: unknown): string {
  const tasks = (Array.isArray(data) ? data : [data]) as Record<string, unknown>[];
  if (tasks.length === 0) return "No tasks.\n";
  return renderTable(tasks.map((t) => ({
    status: t.completed_at ? "done" : "todo",
    summary: t.summary,
    due: (t.due as { datetime?: string } | undefined)?.datetime ?? "",
    guid: t.guid,
  })));
}
