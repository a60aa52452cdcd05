/**
 * Drive file housekeeping: `+create-folder`, `+create-shortcut`, `+copy`, `+move`, `+delete`, `+update-title`,
 * `+inspect`. Folder moves and deletions run as suite tasks (`task_check`), waited for with a timeout.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { type Call, defineShortcut, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { DOC_TYPES, grantRequester, pollFlags, pollTask, tokenOf } from "./common.ts";

const FILES = "/open-apis/drive/v1/files";
const FILE_TYPES = [
  "file",
  "docx",
  "doc",
  "sheet",
  "bitable",
  "mindnote",
  "slides",
  "folder",
  "shortcut",
] as const;

/** Waits for a Drive async task (folder move/delete) through `task_check`. */
async function waitDriveTask<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  taskId: string,
  poll: { timeout: number; "poll-interval": number },
) {
  await pollTask(ctx, {
    timeout: poll.timeout,
    interval: poll["poll-interval"],
    what: "drive task",
    taskId,
    resume: `larkit drive +task_result --scenario task_check --task-id ${taskId}`,
  }, {
    method: "GET",
    path: `${FILES}/task_check`,
    params: { task_id: taskId },
    response: z.object({ status: z.string() }),
    planned: { status: "success" },
  }, ({ status }) => ({ state: status === "success" ? "done" : status === "fail" ? "failed" : "running" }));
}

/**
 * A move or delete, which the suite runs as a task when it is a folder's: the task's ID (in the plan, a
 * stand-in for a folder) once the task is done, or undefined when the suite did it at once.
 */
async function callAndWait<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  f: { type: string; timeout: number; "poll-interval": number },
  call: Omit<Call<unknown>, "response" | "planned">,
): Promise<string | undefined> {
  const { task_id } = await ctx.api({
    ...call,
    response: z.looseObject({ task_id: z.optional(z.string()) }),
    planned: { task_id: f.type === "folder" ? "<task_id>" : undefined },
  });
  if (task_id) await waitDriveTask(ctx, task_id, f);
  return task_id;
}

export const createFolder = defineShortcut({
  service: "drive",
  command: "+create-folder",
  description: "Create a folder in Drive; as bot, the logged-in user gets full access",
  examples: [
    'larkit drive +create-folder --name "Q3 reports"',
    "larkit drive +create-folder --name drafts --folder-token fldcn123",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["space:folder:create"], bot: ["space:folder:create", "docs:permission.member:create"] },
  hasFormat: false,
  flags: {
    name: flag.requiredString("folder name"),
    "folder-token": flag.string("parent folder (default: the root of My Space)"),
  },
  async run(ctx) {
    const parent = ctx.flags["folder-token"];
    const folder = await ctx.api({
      method: "POST",
      path: `${FILES}/create_folder`,
      body: { name: ctx.flags.name, folder_token: parent ? tokenOf(parent, "folder-token") : "" },
      response: z.looseObject({ token: z.string(), url: z.optional(z.string()) }),
      planned: { token: "<folder_token>" },
    });
    const grant = await grantRequester(ctx, folder.token, "folder");
    await ctx.out({ folder_token: folder.token, url: folder.url, ...grant });
  },
});

export const createShortcut = defineShortcut({
  service: "drive",
  command: "+create-shortcut",
  description: "Put a shortcut to a file or document into another folder",
  examples: ["larkit drive +create-shortcut --file-token doxcnAbc --type docx --folder-token fldcn123"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["space:document:shortcut"], bot: ["space:document:shortcut"] },
  hasFormat: false,
  flags: {
    "file-token": flag.requiredString("the file or document"),
    type: flag.requiredChoice(FILE_TYPES, "its type"),
    "folder-token": flag.requiredString("the folder to put the shortcut in"),
  },
  async run(ctx) {
    const answer = await ctx.api({
      method: "POST",
      path: `${FILES}/create_shortcut`,
      body: {
        parent_token: tokenOf(ctx.flags["folder-token"], "folder-token"),
        refer_entity: {
          refer_token: tokenOf(ctx.flags["file-token"], "file-token"),
          refer_type: ctx.flags.type,
        },
      },
      response: z.looseObject({ succ_shortcut_node: z.optional(z.looseObject({ token: z.string() })) }),
      planned: { succ_shortcut_node: { token: "<shortcut_token>" } },
    });
    await ctx.out(answer);
  },
});

export const copy = defineShortcut({
  service: "drive",
  command: "+copy",
  description:
    "Copy a file or document into a folder; as bot, the logged-in user gets full access to the copy",
  examples: ['larkit drive +copy --token doxcnAbc --type docx --name "Copy of plan" --folder-token fldcn123'],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["docs:document:copy"], bot: ["docs:document:copy", "docs:permission.member:create"] },
  hasFormat: false,
  flags: {
    token: flag.requiredString("file or document token (or URL)"),
    type: flag.choice(FILE_TYPES, "its type", { default: "docx" }),
    name: flag.requiredString("name of the copy"),
    "folder-token": flag.requiredString("destination folder"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const { file } = await ctx.api({
      method: "POST",
      path: `${FILES}/${encodeURIComponent(tokenOf(f.token, "token"))}/copy`,
      body: { name: f.name, type: f.type, folder_token: tokenOf(f["folder-token"], "folder-token") },
      response: z.object({
        file: z.looseObject({ token: z.string(), name: z.optional(z.string()), url: z.optional(z.string()) }),
      }),
      planned: { file: { token: "<copy_token>", name: f.name } },
    });
    const type = (DOC_TYPES as readonly string[]).includes(f.type)
      ? f.type as (typeof DOC_TYPES)[number]
      : "file";
    const grant = await grantRequester(ctx, file.token, type);
    await ctx.out({ file, ...grant });
  },
});

export const move = defineShortcut({
  service: "drive",
  command: "+move",
  description: "Move a file, document or folder to another folder (folders move as a task, waited for)",
  examples: ["larkit drive +move --file-token doxcnAbc --type docx --folder-token fldcn123"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["space:document:move"], bot: ["space:document:move"] },
  hasFormat: false,
  flags: {
    "file-token": flag.requiredString("what to move"),
    type: flag.requiredChoice(FILE_TYPES, "its type"),
    "folder-token": flag.requiredString("destination folder"),
    ...pollFlags(),
  },
  async run(ctx) {
    const token = tokenOf(ctx.flags["file-token"], "file-token");
    const taskId = await callAndWait(ctx, ctx.flags, {
      method: "POST",
      path: `${FILES}/${encodeURIComponent(token)}/move`,
      body: { type: ctx.flags.type, folder_token: tokenOf(ctx.flags["folder-token"], "folder-token") },
    });
    await ctx.out({ file_token: token, moved: true, task_id: taskId });
  },
});

export const deleteFile = defineShortcut({
  service: "drive",
  command: "+delete",
  description: "Delete a file, document or folder (to the recycle bin; folders as a task, waited for)",
  examples: ["larkit drive +delete --file-token boxcnAbc --type file --yes"],
  risk: "high-risk-write",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["space:document:delete", "drive:drive.metadata:readonly"],
    bot: ["space:document:delete", "drive:drive.metadata:readonly"],
  },
  hasFormat: false,
  flags: {
    "file-token": flag.requiredString("what to delete"),
    type: flag.requiredChoice(FILE_TYPES, "its type"),
    ...pollFlags(),
  },
  async run(ctx) {
    const token = tokenOf(ctx.flags["file-token"], "file-token");
    const taskId = await callAndWait(ctx, ctx.flags, {
      method: "DELETE",
      path: `${FILES}/${encodeURIComponent(token)}`,
      params: { type: ctx.flags.type },
    });
    await ctx.out({ file_token: token, deleted: true, task_id: taskId });
  },
});

export const updateTitle = defineShortcut({
  service: "drive",
  command: "+update-title",
  description: "Rename a Drive file or document",
  examples: ['larkit drive +update-title --token doxcnAbc --type docx --title "Plan v2"'],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["drive:drive"], bot: ["drive:drive"] },
  hasFormat: false,
  flags: {
    token: flag.requiredString("file or document token (or URL)"),
    type: flag.choice(FILE_TYPES, "its type", { default: "file" }),
    title: flag.requiredString("the new title"),
  },
  async run(ctx) {
    const token = tokenOf(ctx.flags.token, "token");
    if (/[\\/]/.test(ctx.flags.title)) throw errors.validation("--title must not contain / or \\");
    await ctx.api({
      method: "PATCH",
      path: `${FILES}/${encodeURIComponent(token)}`,
      params: { type: ctx.flags.type },
      body: { name: ctx.flags.title },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ token, title: ctx.flags.title });
  },
});

const Meta = z.looseObject({
  doc_token: z.string(),
  doc_type: z.optional(z.string()),
  title: z.optional(z.string()),
});

export const inspect = defineShortcut({
  service: "drive",
  command: "+inspect",
  description: "What a document URL or token is: type, title, owner, times and link",
  examples: [
    "larkit drive +inspect --url https://example.feishu.cn/docx/doxcnAbc",
    "larkit drive +inspect --url shtcnX --type sheet",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["drive:drive.metadata:readonly"], bot: ["drive:drive.metadata:readonly"] },
  hasFormat: true,
  flags: {
    url: flag.requiredString("document URL or token"),
    type: flag.choice(DOC_TYPES, "type when --url is a bare token", { default: "docx" }),
  },
  async run(ctx) {
    const m = ctx.flags.url.match(/\/(docx|doc|sheets?|base|bitable|file|folder|wiki|mindnote|slides)\//);
    const fromUrl = m
      ? ({ sheets: "sheet", base: "bitable" } as Record<string, string>)[m[1]] ?? m[1]
      : undefined;
    const token = tokenOf(ctx.flags.url, "url");
    const type = fromUrl ?? ctx.flags.type;
    const { metas } = await ctx.api({
      method: "POST",
      path: "/open-apis/drive/v1/metas/batch_query",
      body: { request_docs: [{ doc_token: token, doc_type: type }], with_url: true },
      response: z.object({ metas: z._default(z.array(Meta), []) }),
      planned: { metas: [{ doc_token: token, doc_type: type }] },
    });
    const meta = metas[0];
    if (!meta) throw errors.notFound(`no document ${token} of type ${type} is visible to this identity`);
    await ctx.outFormat(
      meta,
      undefined,
      () => `${meta.doc_type ?? type}  ${meta.doc_token}  ${meta.title ?? ""}`,
    );
  },
});
