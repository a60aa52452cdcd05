/**
 * A document's saved versions: `+history-list`, `+history-revert` (restores one, waiting for the revert
 * task), `+history-revert-status` (one check of that task).
 */
import type { Column } from "../../cli/output/formats/rows.ts";
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { pollFlags, pollTask, type TaskState, tokenOf } from "../drive/common.ts";
import { listPages, pageFlags, PageInfo, type PageValues } from "../im/paging.ts";

const base = (doc: string) => `/open-apis/docs_ai/v1/documents/${encodeURIComponent(tokenOf(doc, "doc"))}`;
/** A saved version of a document or a presentation; documents also name who made it. */
const Version = z.looseObject({
  history_version_id: z.string(),
  create_time: z.optional(z.string()),
  editor_id: z.optional(z.string()),
});
type Version = z.infer<typeof Version>;

/** The table columns of a version list. */
export const HISTORY_COLUMNS: Column[] = ["create_time", "editor_id", "history_version_id"];

/** Lists the versions saved under `owner` (a document's or a presentation's API path), one `line` each in pretty. */
export async function listHistories<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  flags: PageValues,
  owner: string,
  line: (v: Version) => string,
): Promise<void> {
  const { pages, meta } = await listPages(ctx, flags, {
    method: "GET",
    path: `${owner}/histories`,
    response: z.extend(PageInfo, { items: z._default(z.array(Version), []) }),
    planned: { items: [], has_more: false },
  });
  const versions = pages.flatMap((p) => p.items);
  await ctx.outFormat(
    versions,
    meta(versions.length),
    (d) => (d as Version[]).map(line).join("\n") || "no versions",
  );
}
const Status = z.looseObject({ status: z.string(), message: z.optional(z.string()) });

function revertState(s: z.infer<typeof Status>): { state: TaskState; message?: string } {
  if (s.status === "success") return { state: "done" };
  if (s.status === "failed") return { state: "failed", message: s.message };
  return { state: "running" };
}

export const historyList = defineShortcut({
  service: "docs",
  command: "+history-list",
  description: "List a document's saved versions, newest first",
  examples: [
    "larkit docs +history-list --doc doxcnAbc123",
    "larkit docs +history-list --doc doxcnAbc123 --page-all --format table",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["docx:document:readonly"], bot: ["docx:document:readonly"] },
  hasFormat: true,
  columns: HISTORY_COLUMNS,
  flags: {
    doc: flag.requiredString("document URL or token"),
    ...pageFlags({ default: 20, max: 50, noun: "versions" }),
  },
  async run(ctx) {
    await listHistories(
      ctx,
      ctx.flags,
      base(ctx.flags.doc),
      (v) => `${v.history_version_id}  ${v.create_time ?? ""}  ${v.editor_id ?? ""}`,
    );
  },
});

export const historyRevert = defineShortcut({
  service: "docs",
  command: "+history-revert",
  description:
    "Restore a document to a saved version (the current content becomes a version too), waiting for the task",
  examples: ["larkit docs +history-revert --doc doxcnAbc123 --history-version-id 7312345678901234567"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["docx:document:write_only", "docx:document:readonly"],
    bot: ["docx:document:write_only", "docx:document:readonly"],
  },
  hasFormat: false,
  flags: {
    doc: flag.requiredString("document URL or token"),
    "history-version-id": flag.requiredString("the version (see +history-list)"),
    ...pollFlags(),
  },
  async run(ctx) {
    const version = ctx.flags["history-version-id"];
    if (!/^[A-Za-z0-9_-]+$/.test(version)) {
      throw errors.validation(`--history-version-id: ${version} is not an ID`);
    }
    const path = base(ctx.flags.doc);
    const { task_id } = await ctx.api({
      method: "POST",
      path: `${path}/history/revert`,
      body: { history_version_id: version },
      response: z.object({ task_id: z.string() }),
      planned: { task_id: "<task_id>" },
    });
    await pollTask(ctx, {
      timeout: ctx.flags.timeout,
      interval: ctx.flags["poll-interval"],
      what: "revert",
      taskId: task_id,
      resume: `larkit docs +history-revert-status --doc ${ctx.flags.doc} --task-id ${task_id}`,
    }, {
      method: "GET",
      path: `${path}/history/revert_status`,
      params: { task_id },
      response: Status,
      planned: { status: "success" },
    }, revertState);
    await ctx.out({ doc: ctx.flags.doc, reverted_to: version, task_id });
  },
});

export const historyRevertStatus = defineShortcut({
  service: "docs",
  command: "+history-revert-status",
  description: "Check once on a document revert task",
  examples: ["larkit docs +history-revert-status --doc doxcnAbc123 --task-id 7312345678901234568"],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["docx:document:readonly"], bot: ["docx:document:readonly"] },
  hasFormat: true,
  flags: {
    doc: flag.requiredString("document URL or token"),
    "task-id": flag.requiredString("the revert task"),
  },
  async run(ctx) {
    const task = tokenOf(ctx.flags["task-id"], "task-id");
    const status = await ctx.api({
      method: "GET",
      path: `${base(ctx.flags.doc)}/history/revert_status`,
      params: { task_id: task },
      response: Status,
      planned: { status: "<status>" },
    });
    await ctx.outFormat({ task_id: task, ...status, ...revertState(status) });
  },
});
