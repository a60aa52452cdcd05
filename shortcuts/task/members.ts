/**
 * Task edits beyond create/complete: update fields, reopen, comment, assignees and followers, the reminder,
 * the parent task. Each is one PATCH or action call on the task v2 API (the followers/assignees calls are
 * naturally idempotent: adding a member twice leaves one member).
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { dueOf } from "./create.ts";
import { shapeTask, SuiteTask, taskPath, tasksText } from "./tasks.ts";

const WRITE = { user: ["task:task:write"], bot: ["task:task:write"] };
const taskId = flag.requiredString("task guid");
const AnyTask = z.looseObject({ task: z.optional(z.catchall(z.partial(SuiteTask), z.unknown())) });

/** `ou_a,ou_b` -> the ids; every one must be an open_id, so a name or email fails before anything is sent. */
export function openIds(flagName: string, text: string | undefined): string[] {
  if (text === undefined) return [];
  const ids = text.split(",").map((s) => s.trim()).filter(Boolean);
  const bad = ids.find((id) => !id.startsWith("ou_"));
  if (bad !== undefined) throw errors.validation(`--${flagName}: "${bad}" is not an open_id (ou_\u2026)`);
  return ids;
}

export const update = defineShortcut({
  service: "task",
  command: "+update",
  description: "Update a task's title, description or due time",
  examples: [
    'larkit task +update --task-id 7d2c1a9e-0b1f-4c3d-8e5f-6a7b8c9d0e1f --summary "Send the Q4 report"',
    "larkit task +update --task-id 7d2c1a9e-0b1f-4c3d-8e5f-6a7b8c9d0e1f --due 2026-12-01T17:00",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: WRITE,
  hasFormat: true,
  flags: {
    "task-id": taskId,
    summary: flag.string("new title"),
    description: flag.string("new description", { input: ["file", "stdin"] }),
    due: flag.string("new due time: ISO 8601, a date (all-day), or Unix seconds"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const task = {
      ...(f.summary !== undefined ? { summary: f.summary } : {}),
      ...(f.description !== undefined ? { description: f.description } : {}),
      ...(f.due !== undefined ? { due: dueOf(f.due, ctx.timeZone) } : {}),
    };
    if (Object.keys(task).length === 0) {
      throw errors.validation("nothing to update: give --summary, --description or --due");
    }
    const { task: updated } = await ctx.api({
      method: "PATCH",
      path: taskPath(f["task-id"]),
      params: { user_id_type: "open_id" },
      body: { task, update_fields: Object.keys(task) },
      response: z.object({ task: SuiteTask }),
      planned: { task: { guid: f["task-id"], summary: f.summary ?? "" } },
    });
    await ctx.outFormat(shapeTask(updated, ctx.timeZone), undefined, tasksText);
  },
});

export const reopen = defineShortcut({
  service: "task",
  command: "+reopen",
  description: "Reopen a completed task",
  examples: ["larkit task +reopen --task-id 7d2c1a9e-0b1f-4c3d-8e5f-6a7b8c9d0e1f"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: WRITE,
  hasFormat: true,
  flags: { "task-id": taskId },
  async run(ctx) {
    // The suite reopens a task when its completion time is set back to "0".
    const { task } = await ctx.api({
      method: "PATCH",
      path: taskPath(ctx.flags["task-id"]),
      params: { user_id_type: "open_id" },
      body: { task: { completed_at: "0" }, update_fields: ["completed_at"] },
      response: z.object({ task: SuiteTask }),
      planned: { task: { guid: ctx.flags["task-id"], summary: "" } },
    });
    await ctx.outFormat(shapeTask(task, ctx.timeZone), undefined, tasksText);
  },
});

export const comment = defineShortcut({
  service: "task",
  command: "+comment",
  description: "Add a comment to a task",
  examples: [
    'larkit task +comment --task-id 7d2c1a9e-0b1f-4c3d-8e5f-6a7b8c9d0e1f --content "Draft is ready"',
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["task:comment:write"], bot: ["task:comment:write"] },
  hasFormat: false,
  flags: {
    "task-id": taskId,
    content: flag.requiredString("comment text (at most 3000 characters)", { input: ["file", "stdin"] }),
  },
  async run(ctx) {
    if ([...ctx.flags.content].length > 3000) {
      throw errors.validation("--content is longer than the suite's 3000 characters");
    }
    const { comment } = await ctx.api({
      method: "POST",
      path: "/open-apis/task/v2/comments",
      params: { user_id_type: "open_id" },
      body: { content: ctx.flags.content, resource_type: "task", resource_id: ctx.flags["task-id"] },
      response: z.object({ comment: z.optional(z.looseObject({ id: z.optional(z.string()) })) }),
      planned: { comment: { id: "<comment_id>" } },
    });
    await ctx.out({
      task_id: ctx.flags["task-id"],
      comment_id: comment?.id ?? null,
      comment: comment ?? null,
    });
  },
});

/** +assign and +followers: the same add/remove member calls with a different role. */
function memberShortcut(command: "+assign" | "+followers", role: "assignee" | "follower") {
  const noun = role === "assignee" ? "assignees" : "followers";
  return defineShortcut({
    service: "task",
    command,
    description: `Add or remove a task's ${noun}`,
    examples: [
      `larkit task ${command} --task-id 7d2c1a9e-0b1f-4c3d-8e5f-6a7b8c9d0e1f --add ou_1a2b3c,ou_4d5e6f`,
      `larkit task ${command} --task-id 7d2c1a9e-0b1f-4c3d-8e5f-6a7b8c9d0e1f --remove ou_1a2b3c`,
    ],
    risk: "write",
    authTypes: ["user", "bot"],
    scopes: WRITE,
    hasFormat: false,
    flags: {
      "task-id": taskId,
      add: flag.string(`open_ids to add as ${noun}, comma-separated`),
      remove: flag.string(`open_ids to remove from the ${noun}, comma-separated`),
    },
    async run(ctx) {
      const add = openIds("add", ctx.flags.add);
      const remove = openIds("remove", ctx.flags.remove);
      if (add.length + remove.length === 0) throw errors.validation("give --add or --remove");
      if (add.length > 50 || remove.length > 50) {
        throw errors.validation("at most 50 members per call (the suite's limit)");
      }
      const members = (ids: string[]) => ids.map((id) => ({ id, type: "user", role }));
      const path = taskPath(ctx.flags["task-id"]);
      for (const [change, ids] of [["add", add], ["remove", remove]] as const) {
        if (!ids.length) continue;
        await ctx.api({
          method: "POST",
          path: `${path}/${change}_members`,
          params: { user_id_type: "open_id" },
          body: { members: members(ids) },
          response: AnyTask,
          planned: {},
        });
      }
      await ctx.out({ task_id: ctx.flags["task-id"], role, added: add, removed: remove });
    },
  });
}

export const assign = memberShortcut("+assign", "assignee");
export const followers = memberShortcut("+followers", "follower");

const Reminders = z.looseObject({
  task: z.optional(z.looseObject({
    reminders: z.optional(z.array(z.looseObject({ id: z.string() }))),
  })),
});

export const reminder = defineShortcut({
  service: "task",
  command: "+reminder",
  description: "Set or remove a task's reminder (minutes before its due time; the suite keeps one)",
  examples: [
    "larkit task +reminder --task-id 7d2c1a9e-0b1f-4c3d-8e5f-6a7b8c9d0e1f --set 30",
    "larkit task +reminder --task-id 7d2c1a9e-0b1f-4c3d-8e5f-6a7b8c9d0e1f --remove",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: WRITE,
  hasFormat: false,
  flags: {
    "task-id": taskId,
    set: flag.string("minutes before the due time (0 = at the due time)"),
    remove: flag.boolean("remove the reminder"),
  },
  async run(ctx) {
    const { set, remove } = ctx.flags;
    if ((set === undefined) === !remove) throw errors.validation("give exactly one of --set and --remove");
    if (set !== undefined && !/^\d{1,6}$/.test(set)) {
      throw errors.validation(`--set must be a number of minutes (0 or more), got "${set}"`);
    }
    const path = taskPath(ctx.flags["task-id"]);
    const got = await ctx.api({
      method: "GET",
      path,
      params: { user_id_type: "open_id" },
      description: "the task's current reminder",
      response: Reminders,
      planned: { task: { reminders: [] } },
    });
    // The suite keeps a single reminder: the old one goes before a new one is set.
    const old = (got.task?.reminders ?? []).map((r) => r.id);
    if (old.length) {
      await ctx.api({
        method: "POST",
        path: `${path}/remove_reminders`,
        params: { user_id_type: "open_id" },
        body: { reminder_ids: old },
        response: AnyTask,
        planned: {},
      });
    }
    if (set !== undefined) {
      await ctx.api({
        method: "POST",
        path: `${path}/add_reminders`,
        params: { user_id_type: "open_id" },
        body: { reminders: [{ relative_fire_minute: Number(set) }] },
        response: AnyTask,
        planned: {},
      });
    }
    await ctx.out({
      task_id: ctx.flags["task-id"],
      removed: old,
      reminder: set === undefined ? null : { relative_fire_minute: Number(set) },
    });
  },
});

export const setAncestor = defineShortcut({
  service: "task",
  command: "+set-ancestor",
  description: "Make a task a subtask of another, or (without --ancestor-id) a top-level task again",
  examples: [
    "larkit task +set-ancestor --task-id 7d2c1a9e-0b1f-4c3d-8e5f-6a7b8c9d0e1f --ancestor-id 0b1f7d2c-1a9e-4c3d-8e5f-6a7b8c9d0e1f",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: WRITE,
  hasFormat: false,
  flags: {
    "task-id": taskId,
    "ancestor-id": flag.string("guid of the new parent task; omit to clear the parent"),
  },
  async run(ctx) {
    const { "task-id": id, "ancestor-id": ancestor } = ctx.flags;
    if (ancestor === id) throw errors.validation("a task cannot be its own ancestor");
    await ctx.api({
      method: "POST",
      path: `${taskPath(id)}/set_ancestor_task`,
      body: ancestor === undefined ? {} : { ancestor_guid: ancestor },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ task_id: id, ancestor_id: ancestor ?? null });
  },
});
