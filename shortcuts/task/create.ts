/**
 * `task +create`: a task with an optional description, assignee and due time. The request carries
 * `client_token` (`--idempotency-key`, else this invocation's id), so a retried create makes one task.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { parseTime } from "../common/time.ts";
import { defineShortcut, flag, type ShortcutContext } from "../declare.ts";
import { shapeTask, SuiteTask, TASKS, tasksText } from "./tasks.ts";

const flags = {
  summary: flag.requiredString("task title"),
  description: flag.string("task description", { input: ["file", "stdin"] }),
  assignee: flag.string("assignee open_id (ou_\u2026); default: none for bots, the creator for users"),
  due: flag.string("due time: ISO 8601, a date (all-day), or Unix seconds"),
};
type Flags = typeof flags;

/** The suite's due object: a date alone is an all-day due date. */
export function dueOf(text: string, zone: string): { timestamp: string; is_all_day: boolean } {
  return { timestamp: String(parseTime("due", text, zone)), is_all_day: /^\d{4}-\d{2}-\d{2}$/.test(text) };
}

function bodyOf(ctx: ShortcutContext<Flags>) {
  const f = ctx.flags;
  if (f.assignee !== undefined && !f.assignee.startsWith("ou_")) {
    throw errors.validation(`--assignee must be an open_id (ou_\u2026), got "${f.assignee}"`);
  }
  return {
    summary: f.summary,
    ...(f.description !== undefined ? { description: f.description } : {}),
    ...(f.due !== undefined ? { due: dueOf(f.due, ctx.timeZone) } : {}),
    ...(f.assignee !== undefined ? { members: [{ id: f.assignee, type: "user", role: "assignee" }] } : {}),
  };
}

export const create = defineShortcut({
  service: "task",
  command: "+create",
  description: "Create a task (with assignee and due time)",
  examples: [
    'larkit task +create --summary "Send the report" --due 2026-03-06',
    'larkit task +create --summary "Review PR" --assignee ou_123 --due 2026-03-02T17:00 --as bot',
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["task:task:write"], bot: ["task:task:write"] },
  hasFormat: true,
  flags,
  idempotencyKey: true,
  async run(ctx) {
    const { task } = await ctx.api({
      method: "POST",
      path: TASKS,
      params: { user_id_type: "open_id" },
      body: bodyOf(ctx),
      dedup: { field: "client_token", in: "body" },
      response: z.object({ task: SuiteTask }),
      planned: { task: { guid: "<guid>", summary: ctx.flags.summary } },
    });
    await ctx.outFormat(shapeTask(task, ctx.timeZone), undefined, tasksText);
  },
});
