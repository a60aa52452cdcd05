/**
 * `task +my-tasks`: one page of the tasks assigned to (or created by) the logged-in user; `--complete true`
 * or `false` narrows to done or open tasks. A user-only view: a bot has no "my tasks".
 */
import { z } from "zod";
import { defineShortcut, flag, type FlagSpec, type FlagValues } from "../declare.ts";
import { shapeTask, SuiteTask, TASKS, tasksText } from "./tasks.ts";

const completeFlag: FlagSpec<"true" | "false" | undefined> = {
  kind: "string",
  description: "true: only completed tasks; false: only open ones (default: both)",
  schema: z.enum(["true", "false"], { error: "must be true or false" }).optional(),
  choices: ["true", "false"],
};

const flags = {
  complete: completeFlag,
  "page-size": flag.integer("tasks per page (1-100)", { default: 50, min: 1, max: 100 }),
  "page-token": flag.string("page token from the previous page's meta.page_token"),
};

function query(f: FlagValues<typeof flags>) {
  return {
    type: "my_tasks",
    completed: f.complete,
    page_size: f["page-size"],
    page_token: f["page-token"],
    user_id_type: "open_id",
  };
}

const Page = z.object({
  items: z.array(SuiteTask).nullish(),
  has_more: z.boolean().default(false),
  page_token: z.string().optional(),
});

export const myTasks = defineShortcut({
  service: "task",
  command: "+my-tasks",
  description: "List my tasks (one page)",
  examples: [
    "larkit task +my-tasks --complete false --format table",
    "larkit task +my-tasks --jq '.data[] | .summary'",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["task:task:read"] },
  hasFormat: true,
  flags,
  async run(ctx) {
    const page = await ctx.api({
      method: "GET",
      path: TASKS,
      params: query(ctx.flags),
      response: Page,
      planned: { items: [], has_more: false },
    });
    const tasks = (page.items ?? []).map((t) => shapeTask(t, ctx.timeZone));
    await ctx.outFormat(tasks, {
      count: tasks.length,
      has_more: page.has_more,
      ...(page.has_more && page.page_token ? { page_token: page.page_token } : {}),
    }, tasksText);
  },
});
