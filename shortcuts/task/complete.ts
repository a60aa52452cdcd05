/**
 * `task +complete`: marks a task done by setting its `completed_at` to now. Completing an already completed
 * task only moves that time, so a retry is harmless.
 */
import { z } from "zod";
import { parseResponse } from "../common/response.ts";
import { defineShortcut, flag, type ShortcutContext } from "../declare.ts";
import { shapeTask, SuiteTask, taskPath, tasksText } from "./tasks.ts";

const flags = { "task-id": flag.requiredString("task guid") };

function request(ctx: ShortcutContext<typeof flags>) {
  return {
    method: "PATCH" as const,
    path: taskPath(ctx.flags["task-id"]),
    query: { user_id_type: "open_id" },
    body: { task: { completed_at: String(ctx.p.clock.now()) }, update_fields: ["completed_at"] },
  };
}

export const complete = defineShortcut({
  service: "task",
  command: "+complete",
  description: "Mark a task as complete",
  examples: ["larkit task +complete --task-id 7d2c1a9e-0b1f-4c3d-8e5f-6a7b8c9d0e1f"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["task:task:write"], bot: ["task:task:write"] },
  hasFormat: true,
  flags,
  async dryRun(ctx) {
    return { api: [await ctx.plan(request(ctx))] };
  },
  async execute(ctx) {
    const data = await ctx.api(request(ctx));
    const { task } = parseResponse(z.object({ task: SuiteTask }), data, "task update");
    await ctx.outFormat(shapeTask(task, ctx.timeZone), undefined, tasksText);
  },
});
