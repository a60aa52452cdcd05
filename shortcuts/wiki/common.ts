/**
 * Wiki shapes and steps the wiki shortcuts share: a node and a space as the suite answers them, `my_library`
 * resolved to the user's personal library id, and waiting for a wiki task (moves, deletions) to end.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import type { FlagSpecs, ShortcutContext } from "../declare.ts";
import { pollTask, type TaskState } from "../drive/common.ts";

export const WIKI = "/open-apis/wiki/v2";

export const Node = z.looseObject({
  node_token: z.string(),
  space_id: z.optional(z.string()),
  obj_token: z.optional(z.string()),
  obj_type: z.optional(z.string()),
  title: z.optional(z.string()),
  node_type: z.optional(z.string()),
  parent_node_token: z.optional(z.string()),
  has_child: z.optional(z.boolean()),
});
export type Node = z.infer<typeof Node>;

export const Space = z.looseObject({
  space_id: z.string(),
  name: z.optional(z.string()),
  description: z.optional(z.string()),
  visibility: z.optional(z.string()),
});

export const PLANNED_NODE: Node = {
  node_token: "<node_token>",
  space_id: "<space_id>",
  obj_token: "<obj_token>",
  obj_type: "docx",
  title: "<title>",
};

export function idOf(value: string, flagName: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) throw errors.validation(`--${flagName}: ${value} is not an ID`);
  return value;
}

/** `my_library` (the user's personal library) as its real space id; any other id as given. */
export async function resolveSpace<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  spaceId: string,
): Promise<string> {
  if (spaceId !== "my_library") return idOf(spaceId, "space-id");
  if (ctx.identity === "bot") {
    throw errors.validation("--space-id my_library is the user's personal library; a bot has none", {
      hint: "pass the space's id (larkit wiki +space-list)",
    });
  }
  const { space } = await ctx.api({
    method: "GET",
    path: `${WIKI}/spaces/my_library`,
    description: "resolves my_library to the personal library's space id",
    response: z.object({ space: Space }),
    planned: { space: { space_id: "<my_library_space_id>" } },
  });
  return space.space_id;
}

/** The node a token names (a wiki node token, or a document's token with `objType`). */
export async function getNode<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  token: string,
  objType?: string,
): Promise<Node> {
  const { node } = await ctx.api({
    method: "GET",
    path: `${WIKI}/spaces/get_node`,
    params: { token, obj_type: objType },
    response: z.object({ node: Node }),
    planned: { node: { ...PLANNED_NODE, node_token: token } },
  });
  return node;
}

const Result = z.looseObject({
  status: z.optional(z.union([z.number(), z.string()])),
  status_msg: z.optional(z.string()),
});
const Task = z.object({
  task: z.looseObject({
    task_id: z.optional(z.string()),
    move_result: z.optional(z.array(Result)),
    delete_result: z.optional(z.array(Result)),
    status: z.optional(z.union([z.number(), z.string()])),
  }),
});

/** A wiki task's state from its results: 0/"success" done, negative/"fail..." failed, anything else running. */
export function wikiTaskState(answer: z.infer<typeof Task>): { state: TaskState; message?: string } {
  const results = [...answer.task.move_result ?? [], ...answer.task.delete_result ?? []];
  const statuses = results.length
    ? results.map((r) => [r.status, r.status_msg] as const)
    : [[answer.task.status, undefined] as const];
  for (const [status, msg] of statuses) {
    if (typeof status === "number" && status < 0 || typeof status === "string" && /fail/i.test(status)) {
      return { state: "failed", message: msg };
    }
  }
  const done = statuses.every(([s]) => s === 0 || s === "success" || s === "0");
  return { state: done ? "done" : "running" };
}

/**
 * Waits for a wiki task. The suite documents one task type, `move`, for this endpoint; deletions answer task
 * ids of the same endpoint and are checked the same way (`what` only names the task in progress and errors).
 */
export async function waitWikiTask<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  taskId: string,
  what: string,
  poll: { timeout: number; "poll-interval": number },
) {
  return await pollTask(
    ctx,
    {
      timeout: poll.timeout,
      interval: poll["poll-interval"],
      what: `wiki ${what} task`,
      taskId,
      resume: `larkit drive +task_result --scenario wiki --task-id ${taskId}`,
    },
    {
      method: "GET",
      path: `${WIKI}/tasks/${encodeURIComponent(taskId)}`,
      params: { task_type: "move" },
      response: Task,
      planned: { task: { task_id: taskId, status: "success" } },
    },
    wikiTaskState,
  );
}
