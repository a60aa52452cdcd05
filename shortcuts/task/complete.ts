/**
 * `task +complete`: marks a task done by setting its `completed_at` to now. Completing an already completed
 * task only moves that time, so a retry is harmless.
 */
import * as z from "zod";
import { defineShortcut, flag } from "../declare.ts";
import { shapeTask, SuiteTask, taskPath, tasksText } from "./tasks.ts";

const flags = { "task-id": flag.requiredString("task guid") };

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
  async run(ctx) {
    const { task } = await ctx.api({
      method: "PATCH",
      path: taskPath(ctx.flags["task-id"]),
      params: { user_id_type: "open_id" },
      body: { task: { completed_at: String(ctx.now()) }, update_fields: ["completed_at"] },
      response: z.object({ task: SuiteTask }),
      planned: { task: { guid: ctx.flags["task-id"], summary: "" } },
    });
    await ctx.outFormat(shapeTask(task, ctx.timeZone), undefined, tasksText);
  },
});
