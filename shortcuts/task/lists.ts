/**
 * Tasklists (create, add a task, members, search) and the task searches (full-text search, tasks related to
 * me). The searches and the related-task list are user views: a bot has no "my" tasks or tasklists.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { itemsPage, listPages, pageFlags } from "../im/paging.ts";
import { openIds } from "./members.ts";
import { shapeTask, SuiteTask, TASK_COLUMNS, taskPath, tasksText } from "./tasks.ts";

const TASKLISTS = "/open-apis/task/v2/tasklists";
const tasklistPath = (guid: string) => `${TASKLISTS}/${encodeURIComponent(guid)}`;
const Tasklist = z.looseObject({ guid: z.string(), name: z.optional(z.string()) });
const LIST_WRITE = { user: ["task:tasklist:write"], bot: ["task:tasklist:write"] };

export const tasklistCreate = defineShortcut({
  service: "task",
  command: "+tasklist-create",
  description: "Create a tasklist, optionally shared with members (editors)",
  examples: ['larkit task +tasklist-create --name "Q4 launch" --member ou_1a2b3c,ou_4d5e6f'],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: LIST_WRITE,
  hasFormat: true,
  flags: {
    name: flag.requiredString("tasklist name"),
    member: flag.string("open_ids to add as editors, comma-separated"),
  },
  async run(ctx) {
    const members = openIds("member", ctx.flags.member).map((id) => ({ id, type: "user", role: "editor" }));
    const { tasklist } = await ctx.api({
      method: "POST",
      path: TASKLISTS,
      params: { user_id_type: "open_id" },
      body: { name: ctx.flags.name, ...(members.length ? { members } : {}) },
      response: z.object({ tasklist: Tasklist }),
      planned: { tasklist: { guid: "<tasklist_guid>", name: ctx.flags.name } },
    });
    await ctx.outFormat(tasklist);
  },
});

export const tasklistTaskAdd = defineShortcut({
  service: "task",
  command: "+tasklist-task-add",
  description: "Add tasks to a tasklist (one call per task)",
  examples: [
    "larkit task +tasklist-task-add --tasklist-id 5f1a2b3c-0001-4e5f-8a9b-0c1d2e3f4a5b --task-id 7d2c1a9e-0b1f-4c3d-8e5f-6a7b8c9d0e1f",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["task:task:write"], bot: ["task:task:write"] },
  hasFormat: false,
  flags: {
    "tasklist-id": flag.requiredString("tasklist guid"),
    "task-id": flag.requiredString("task guids, comma-separated"),
    "section-guid": flag.string("section of the tasklist (default: its default section)"),
  },
  async run(ctx) {
    const ids = ctx.flags["task-id"].split(",").map((s) => s.trim()).filter(Boolean);
    if (ids.length > 50) throw errors.validation("at most 50 tasks per run");
    const added: string[] = [];
    for (const id of ids) {
      await ctx.api({
        method: "POST",
        path: `${taskPath(id)}/add_tasklist`,
        params: { user_id_type: "open_id" },
        body: {
          tasklist_guid: ctx.flags["tasklist-id"],
          ...(ctx.flags["section-guid"] ? { section_guid: ctx.flags["section-guid"] } : {}),
        },
        response: z.unknown(),
        planned: {},
      });
      added.push(id);
    }
    await ctx.out({ tasklist_id: ctx.flags["tasklist-id"], added });
  },
});

export const tasklistMembers = defineShortcut({
  service: "task",
  command: "+tasklist-members",
  description: "Add or remove tasklist members (editors or viewers)",
  examples: [
    "larkit task +tasklist-members --tasklist-id 5f1a2b3c-0001-4e5f-8a9b-0c1d2e3f4a5b --add ou_1a2b3c",
    "larkit task +tasklist-members --tasklist-id 5f1a2b3c-0001-4e5f-8a9b-0c1d2e3f4a5b --remove ou_1a2b3c --role viewer",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: LIST_WRITE,
  hasFormat: false,
  flags: {
    "tasklist-id": flag.requiredString("tasklist guid"),
    add: flag.string("open_ids to add, comma-separated"),
    remove: flag.string("open_ids to remove, comma-separated"),
    role: flag.choice(["editor", "viewer"] as const, "role of the members added", { default: "editor" }),
  },
  async run(ctx) {
    const add = openIds("add", ctx.flags.add);
    const remove = openIds("remove", ctx.flags.remove);
    if (add.length + remove.length === 0) throw errors.validation("give --add or --remove");
    const path = tasklistPath(ctx.flags["tasklist-id"]);
    const members = (ids: string[]) => ids.map((id) => ({ id, type: "user", role: ctx.flags.role }));
    for (const [ids, action] of [[add, "add_members"], [remove, "remove_members"]] as const) {
      if (!ids.length) continue;
      await ctx.api({
        method: "POST",
        path: `${path}/${action}`,
        params: { user_id_type: "open_id" },
        body: { members: members(ids) },
        response: z.unknown(),
        planned: {},
      });
    }
    await ctx.out({
      tasklist_id: ctx.flags["tasklist-id"],
      role: ctx.flags.role,
      added: add,
      removed: remove,
    });
  },
});

const TasklistPage = itemsPage(Tasklist);

export const tasklistSearch = defineShortcut({
  service: "task",
  command: "+tasklist-search",
  description: "Search my tasklists by name (user identity only)",
  examples: ["larkit task +tasklist-search --query launch --format table"],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["task:tasklist:read"] },
  hasFormat: true,
  columns: ["name", "guid"],
  flags: {
    query: flag.requiredString("words in the tasklist name"),
    creator: flag.string("only tasklists created by these open_ids, comma-separated"),
    ...pageFlags({ default: 20, max: 100, noun: "tasklists" }),
  },
  async run(ctx) {
    const creators = openIds("creator", ctx.flags.creator);
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "POST",
      path: `${TASKLISTS}/search`,
      body: { query: ctx.flags.query, ...(creators.length ? { filter: { creator_ids: creators } } : {}) },
      response: TasklistPage,
      planned: { items: [], has_more: false },
    });
    const items = pages.flatMap((p) => p.items ?? []);
    await ctx.outFormat(items, meta(items.length));
  },
});

const TaskPage = itemsPage(z.catchall(z.extend(z.partial(SuiteTask), { guid: z.string() }), z.unknown()));

export const search = defineShortcut({
  service: "task",
  command: "+search",
  description: "Search tasks visible to me by text, creator, assignee or completion (user identity only)",
  examples: [
    "larkit task +search --query report --completed false",
    "larkit task +search --query offsite --assignee ou_1a2b3c --page-all --format table",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["task:task:read"] },
  hasFormat: true,
  columns: TASK_COLUMNS,
  flags: {
    query: flag.requiredString("words in the task title or description"),
    creator: flag.string("creator open_ids, comma-separated"),
    assignee: flag.string("assignee open_ids, comma-separated"),
    completed: flag.string("true: only completed tasks; false: only open ones"),
    ...pageFlags({ default: 20, max: 100, noun: "tasks" }),
  },
  async run(ctx) {
    const f = ctx.flags;
    if (f.completed !== undefined && f.completed !== "true" && f.completed !== "false") {
      throw errors.validation(`--completed must be true or false, got "${f.completed}"`);
    }
    const filter = {
      ...(f.creator ? { creator_ids: openIds("creator", f.creator) } : {}),
      ...(f.assignee ? { assignee_ids: openIds("assignee", f.assignee) } : {}),
      ...(f.completed ? { is_completed: f.completed === "true" } : {}),
    };
    const { pages, meta } = await listPages(ctx, f, {
      method: "POST",
      path: "/open-apis/task/v2/tasks/search",
      body: { query: f.query, ...(Object.keys(filter).length ? { filter } : {}) },
      response: TaskPage,
      planned: { items: [], has_more: false },
    });
    const tasks = pages.flatMap((p) => p.items ?? []).map((t) =>
      shapeTask({ summary: "", ...t } as SuiteTask, ctx.timeZone)
    );
    await ctx.outFormat(tasks, meta(tasks.length), tasksText);
  },
});

const Me = z.looseObject({ open_id: z.string() });

/** The user's own open_id, when the token alone did not say it. */
async function ownOpenId<F extends FlagSpecs>(ctx: ShortcutContext<F>): Promise<string> {
  const me = await ctx.api({
    method: "GET",
    path: "/open-apis/authen/v1/user_info",
    description: "your open_id (to keep the tasks you created or follow)",
    response: Me,
    planned: { open_id: "<open_id>" },
  });
  return me.open_id;
}

export const relatedTasks = defineShortcut({
  service: "task",
  command: "+get-related-tasks",
  description: "List tasks related to me: assigned, created or followed (user identity only)",
  examples: ["larkit task +get-related-tasks --followed-by-me --format table"],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["task:task:read"] },
  hasFormat: true,
  columns: TASK_COLUMNS,
  flags: {
    "include-complete": flag.boolean("include completed tasks"),
    "created-by-me": flag.boolean("only tasks I created"),
    "followed-by-me": flag.boolean("only tasks I follow"),
    ...pageFlags({ default: 20, max: 100, noun: "tasks" }),
  },
  async run(ctx) {
    const f = ctx.flags;
    if (f["created-by-me"] && f["followed-by-me"]) {
      throw errors.validation("give at most one of --created-by-me and --followed-by-me");
    }
    // The method has no relation filter: --created-by-me / --followed-by-me filter the pages read, as the
    // reference does (pagination still follows the suite's related-task pages).
    const { pages, meta } = await listPages(ctx, f, {
      method: "GET",
      path: "/open-apis/task/v2/task_v2/list_related_task",
      params: { user_id_type: "open_id", ...(f["include-complete"] ? {} : { completed: false }) },
      response: TaskPage,
      planned: { items: [], has_more: false },
    });
    const me = f["created-by-me"] || f["followed-by-me"] ? ctx.userOpenId ?? await ownOpenId(ctx) : undefined;
    const mine = (t: { creator?: unknown; members?: { id: string; role: string }[] }) =>
      (!f["created-by-me"] || (t.creator as { id?: string } | undefined)?.id === me) &&
      (!f["followed-by-me"] || (t.members ?? []).some((m) => m.role === "follower" && m.id === me));
    const tasks = pages.flatMap((p) => p.items ?? []).filter(mine).map((t) =>
      shapeTask({ summary: "", ...t } as SuiteTask, ctx.timeZone)
    );
    await ctx.outFormat(tasks, meta(tasks.length), tasksText);
  },
});
