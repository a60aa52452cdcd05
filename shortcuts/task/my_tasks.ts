/**
 * `task +get-my-tasks` (alias `+my-tasks`): the tasks assigned to the logged-in user, a page or every page; `--complete true`
 * or `false` narrows to done or open tasks. A user-only view: a bot has no "my tasks".
 */
import * as z from "zod";
import { defineShortcut, type FlagSpec, type FlagValues } from "../declare.ts";
import { itemsPage, listPages, pageFlags } from "../im/paging.ts";
import { shapeTask, SuiteTask, TASK_COLUMNS, TASKS, tasksText } from "./tasks.ts";

const completeFlag: FlagSpec<"true" | "false" | undefined> = {
  kind: "string",
  description: "true: only completed tasks; false: only open ones (default: both)",
  schema: z.optional(z.enum(["true", "false"], { error: "must be true or false" })),
  choices: ["true", "false"],
};

const flags = {
  complete: completeFlag,
  ...pageFlags({ default: 50, max: 100, noun: "tasks" }),
};

function query(f: FlagValues<typeof flags>) {
  return {
    type: "my_tasks",
    completed: f.complete,
    user_id_type: "open_id",
  };
}

const Page = itemsPage(SuiteTask);

export const myTasks = defineShortcut({
  service: "task",
  command: "+get-my-tasks",
  aliases: ["+my-tasks"],
  description: "List tasks assigned to me (user identity only; --page-all for every page)",
  examples: [
    "larkit task +get-my-tasks --complete false --format table",
    "larkit task +get-my-tasks --jq '.data[] | .summary'",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["task:task:read"] },
  hasFormat: true,
  columns: TASK_COLUMNS,
  flags,
  async run(ctx) {
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: TASKS,
      params: query(ctx.flags),
      response: Page,
      planned: { items: [], has_more: false },
    });
    const tasks = pages.flatMap((p) => p.items ?? []).map((t) => shapeTask(t, ctx.timeZone));
    await ctx.outFormat(tasks, meta(tasks.length), tasksText);
  },
});
