/**
 * Task v2: create, list my tasks (user identity), get, and patch (completing a task sets `completed_at`).
 * Times are millisecond strings, as the task API writes them.
 */
import * as z from "zod";
import { all, newHex, one, run } from "../db.ts";
import { createOnce } from "../dedup.ts";
import { pageOf, paginate } from "../paging.ts";
import { ok, raise } from "../reply.ts";
import { type CallerCtx, jsonBody, queryOf, type Route } from "../router.ts";
import { TASK_READ, TASK_WRITE } from "../scopes.ts";
import type { EmulatorState } from "../state.ts";

interface TaskRow {
  guid: string;
  summary: string;
  description: string;
  due_ts: number | null;
  /** 1 when the due is a date (no time of day). */
  due_all_day: number;
  completed_at: number;
  creator: string;
  assignee: string | null;
  create_time: number;
  update_time: number;
}

function taskJson(st: EmulatorState, t: TaskRow) {
  return {
    guid: t.guid,
    summary: t.summary,
    description: t.description,
    ...(t.due_ts !== null ? { due: { timestamp: String(t.due_ts), is_all_day: t.due_all_day === 1 } } : {}),
    completed_at: String(t.completed_at),
    status: t.completed_at > 0 ? "done" : "todo",
    creator: { id: t.creator, type: "user" },
    members: t.assignee ? [{ id: t.assignee, type: "user", role: "assignee" }] : [],
    created_at: String(t.create_time),
    updated_at: String(t.update_time),
    url: `${st.origin}/task/${t.guid}`,
  };
}

function taskOf(ctx: CallerCtx): TaskRow {
  return one<TaskRow>(ctx.st.db, "SELECT * FROM tasks WHERE guid = ?", ctx.params.task_guid) ??
    raise(404, 1470404, `task not found: ${ctx.params.task_guid}`);
}

/** A due as the task API writes it: milliseconds as a string, and whether it is a date (no time of day). */
const Due = z.object({ timestamp: z.string().check(z.regex(/^\d+$/)), is_all_day: z.optional(z.boolean()) });

const Create = z.object({
  summary: z.string().check(z.minLength(1)),
  description: z.optional(z.string()),
  due: z.optional(Due),
  members: z.optional(z.array(z.object({ id: z.string(), type: z.optional(z.string()), role: z.string() }))),
  client_token: z.optional(z.string()),
});

const Patch = z.object({
  task: z.object({
    summary: z.optional(z.string()),
    description: z.optional(z.string()),
    completed_at: z.optional(z.string().check(z.regex(/^\d+$/))),
    due: z.optional(Due),
  }),
  update_fields: z.array(z.enum(["summary", "description", "completed_at", "due"])).check(z.minLength(1)),
});

const TASKS = "/open-apis/task/v2/tasks";

export const taskRoutes: Route[] = [
  {
    method: "POST",
    path: TASKS,
    auth: "token",
    scopes: TASK_WRITE,
    handle(ctx) {
      const body = jsonBody(ctx, Create);
      const guid = createOnce(ctx.st, `task ${ctx.caller.openId}`, body.client_token, () => {
        const hex = newHex(ctx.st.db, "task", 32);
        const guid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${
          hex.slice(20)
        }`;
        const now = ctx.st.clock.now();
        const assignee = body.members?.find((m) => m.role === "assignee")?.id ??
          (ctx.caller.kind === "user" ? ctx.caller.openId : null);
        run(
          ctx.st.db,
          `INSERT INTO tasks (guid, summary, description, due_ts, due_all_day, completed_at, creator, assignee,
             create_time, update_time)
           VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
          guid,
          body.summary,
          body.description ?? "",
          body.due ? Number(body.due.timestamp) : null,
          body.due?.is_all_day ? 1 : 0,
          ctx.caller.openId,
          assignee,
          now,
          now,
        );
        return guid;
      });
      return ok({ task: taskJson(ctx.st, taskOf({ ...ctx, params: { task_guid: guid } })) });
    },
  },
  {
    method: "GET",
    path: TASKS,
    auth: "token",
    scopes: TASK_READ,
    identities: ["user"],
    handle(ctx) {
      const q = queryOf(ctx, z.looseObject({ completed: z.optional(z.enum(["true", "false"])) }));
      const rows = all<TaskRow>(
        ctx.st.db,
        "SELECT * FROM tasks WHERE assignee = ? OR creator = ? ORDER BY create_time, guid",
        ctx.caller.openId,
        ctx.caller.openId,
      ).filter((t) => q.completed === undefined || (t.completed_at > 0) === (q.completed === "true"));
      return ok(paginate(rows.map((t) => taskJson(ctx.st, t)), pageOf(ctx.query, { size: 50, max: 100 })));
    },
  },
  {
    method: "GET",
    path: `${TASKS}/:task_guid`,
    auth: "token",
    scopes: TASK_READ,
    handle: (ctx) => ok({ task: taskJson(ctx.st, taskOf(ctx)) }),
  },
  {
    method: "PATCH",
    path: `${TASKS}/:task_guid`,
    auth: "token",
    scopes: TASK_WRITE,
    handle(ctx) {
      const t = taskOf(ctx);
      const { task, update_fields } = jsonBody(ctx, Patch);
      const has = (f: string) => update_fields.includes(f as never);
      const next: TaskRow = {
        ...t,
        summary: has("summary") ? task.summary ?? t.summary : t.summary,
        description: has("description") ? task.description ?? "" : t.description,
        completed_at: has("completed_at") ? Number(task.completed_at ?? 0) : t.completed_at,
        due_ts: has("due") ? (task.due ? Number(task.due.timestamp) : null) : t.due_ts,
        due_all_day: has("due") ? (task.due?.is_all_day ? 1 : 0) : t.due_all_day,
        update_time: ctx.st.clock.now(),
      };
      run(
        ctx.st.db,
        "UPDATE tasks SET summary = ?, description = ?, completed_at = ?, due_ts = ?, due_all_day = ?, update_time = ? WHERE guid = ?",
        next.summary,
        next.description,
        next.completed_at,
        next.due_ts,
        next.due_all_day,
        next.update_time,
        t.guid,
      );
      return ok({ task: taskJson(ctx.st, next) });
    },
  },
];
