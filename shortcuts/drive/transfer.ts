/**
 * Conversions through suite tasks: `+import` (a local file becomes a document: media upload -> import task ->
 * wait), `+export` (a document becomes a file: export task -> wait -> download), `+export-download` (the file of
 * a finished export), `+task_result` (one check of any such task), and rendered previews (`+preview`,
 * `+cover`). Every wait shows progress and stops at `--timeout`, naming the task to check later.
 */
import { basename, extname } from "node:path";
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import {
  type Call,
  defineShortcut,
  flag,
  type FlagSpecs,
  type FlagValues,
  type ShortcutContext,
} from "../declare.ts";
import { PageInfo } from "../im/paging.ts";
import { DOC_TYPES, grantRequester, pollFlags, pollTask, type TaskState, tokenOf } from "./common.ts";
import { fileNameOf } from "./download.ts";
import { SINGLE_UPLOAD_MAX } from "./upload.ts";

const DRIVE = "/open-apis/drive/v1";

/** Local extension -> the document types an import may produce from it. */
const IMPORTS: Record<string, readonly string[]> = {
  docx: ["docx"],
  doc: ["docx"],
  txt: ["docx"],
  md: ["docx"],
  markdown: ["docx"],
  html: ["docx"],
  xlsx: ["sheet", "bitable"],
  xls: ["sheet"],
  csv: ["sheet", "bitable"],
};

const ImportResult = z.looseObject({
  ticket: z.optional(z.string()),
  job_status: z.number(),
  job_error_msg: z.optional(z.string()),
  token: z.optional(z.string()),
  url: z.optional(z.string()),
  type: z.optional(z.string()),
});
const ExportResult = z.looseObject({
  job_status: z.number(),
  job_error_msg: z.optional(z.string()),
  file_token: z.optional(z.string()),
  file_name: z.optional(z.string()),
  file_size: z.optional(z.number()),
  file_extension: z.optional(z.string()),
});

/** The suite's job_status: 0 done, 1 initialising and 2 processing, anything else a failure. */
export function jobState(
  r: { job_status: number; job_error_msg?: string },
): { state: TaskState; message?: string } {
  if (r.job_status === 0) return { state: "done" };
  if (r.job_status === 1 || r.job_status === 2) return { state: "running" };
  return { state: "failed", message: r.job_error_msg ?? `job_status ${r.job_status}` };
}

function importCall(ticket: string) {
  return {
    method: "GET" as const,
    path: `${DRIVE}/import_tasks/${encodeURIComponent(ticket)}`,
    response: z.object({ result: ImportResult }),
    planned: { result: { ticket, job_status: 0, token: "<doc_token>", url: "<doc_url>" } },
  };
}

function exportCall(ticket: string, token: string) {
  return {
    method: "GET" as const,
    path: `${DRIVE}/export_tasks/${encodeURIComponent(ticket)}`,
    params: { token },
    response: z.object({ result: ExportResult }),
    planned: { result: { job_status: 0, file_token: "<export_file_token>", file_name: "<file_name>" } },
  };
}

/**
 * Starts an import or export task and waits for it to end (`--timeout`, `--poll-interval`); a wait that runs
 * out names the `+task_result` command line that checks on it later (`extraArgs`: what it needs beside the
 * ticket).
 */
async function startAndWait<F extends FlagSpecs, R extends { job_status: number; job_error_msg?: string }>(
  ctx: ShortcutContext<F>,
  f: { timeout: number; "poll-interval": number },
  what: "import" | "export",
  body: Record<string, unknown>,
  check: (ticket: string) => { call: Call<{ result: R }>; extraArgs: string },
): Promise<{ ticket: string; result: R }> {
  const { ticket } = await ctx.api({
    method: "POST",
    path: `${DRIVE}/${what}_tasks`,
    body,
    response: z.object({ ticket: z.string() }),
    planned: { ticket: "<ticket>" },
  });
  const { call, extraArgs } = check(ticket);
  const { result } = await pollTask(
    ctx,
    {
      timeout: f.timeout,
      interval: f["poll-interval"],
      what,
      taskId: ticket,
      resume: `larkit drive +task_result --scenario ${what} --ticket ${ticket}${extraArgs}`,
    },
    call,
    (a) => jobState(a.result),
  );
  return { ticket, result };
}

export const importFile = defineShortcut({
  service: "drive",
  command: "+import",
  description:
    "Import a local file (docx, md, txt, html, xlsx, csv\u2026) as a document, waiting for the conversion; as bot, the logged-in user gets full access",
  examples: [
    "larkit drive +import --file ./notes.md --type docx",
    "larkit drive +import --file ./budget.xlsx --type sheet --folder-token fldcn123 --name Budget --timeout 300",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["docs:document.media:upload", "docs:document:import"],
    bot: ["docs:document.media:upload", "docs:document:import", "docs:permission.member:create"],
  },
  hasFormat: false,
  flags: {
    file: flag.requiredString("local file to import (up to 20 MB)", { placeholder: "path" }),
    type: flag.requiredChoice(["docx", "sheet", "bitable"] as const, "the document type to create"),
    "folder-token": flag.string("folder for the new document (default: the root of My Space)"),
    name: flag.string("name of the new document (default: the file name without extension)"),
    ...pollFlags(),
  },
  async run(ctx) {
    const f = ctx.flags;
    const ext = extname(f.file).slice(1).toLowerCase();
    const allowed = IMPORTS[ext];
    if (!allowed) {
      throw errors.validation(
        `--file: .${ext || "(none)"} cannot be imported; use one of ${Object.keys(IMPORTS).join(", ")}`,
      );
    }
    if (!allowed.includes(f.type)) {
      throw errors.validation(`--type ${f.type}: a .${ext} file imports as ${allowed.join(" or ")}`);
    }
    const { size, name } = await ctx.localFile("file", f.file, { maxBytes: SINGLE_UPLOAD_MAX });
    const uploaded = await ctx.upload({
      path: `${DRIVE}/medias/upload_all`,
      fields: {
        file_name: name,
        parent_type: "ccm_import_open",
        // Required by the upload (the SDK's drive.v1.media.uploadAll); an import has no parent: empty.
        parent_node: "",
        size: String(size),
        extra: JSON.stringify({ obj_type: f.type, file_extension: ext }),
      },
      file: { field: "file", path: f.file, flag: "file", maxBytes: SINGLE_UPLOAD_MAX },
      response: z.object({ file_token: z.string() }),
      planned: { file_token: "<media_token>" },
    });
    const folder = f["folder-token"];
    const { ticket, result } = await startAndWait(ctx, f, "import", {
      file_extension: ext,
      file_token: uploaded.file_token,
      type: f.type,
      file_name: f.name ?? basename(name, extname(name)),
      point: { mount_type: 1, mount_key: folder ? tokenOf(folder, "folder-token") : "" },
    }, (ticket) => ({ call: importCall(ticket), extraArgs: "" }));
    if (!result.token) throw errors.api(`import ${ticket} ended without a document token`);
    const grant = await grantRequester(ctx, result.token, f.type);
    await ctx.out({ ticket, token: result.token, url: result.url, type: f.type, ...grant });
  },
});

/**
 * Where an export is saved: the reference CLI's `--output-dir` (default: the working directory) and
 * `--file-name` (default: the exported file's name), or larkit's older `--output` path.
 */
const saveFlags = {
  "output-dir": flag.string(
    "directory to save into, inside the working directory (default: the working directory)",
  ),
  "file-name": flag.string("file name to save as (default: the exported file's name)"),
  output: { ...flag.string("local path"), deprecated: "--output-dir and --file-name" },
  overwrite: flag.boolean("replace the output file if it exists"),
};
type SaveFlags = FlagValues<typeof saveFlags>;

async function saveExport<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  fileToken: string,
  name: string | undefined,
  f: SaveFlags,
) {
  if (f.output !== undefined && (f["output-dir"] !== undefined || f["file-name"] !== undefined)) {
    throw errors.validation(
      "--output is the older form of --output-dir and --file-name: give one or the other",
    );
  }
  const inDir = (file: string) => f["output-dir"] === undefined ? file : `${f["output-dir"]}/${file}`;
  return await ctx.download({
    path: `${DRIVE}/export_tasks/file/${encodeURIComponent(fileToken)}/download`,
    output: f.output ?? (f["file-name"] !== undefined ? inDir(f["file-name"]) : undefined),
    overwrite: f.overwrite,
    nameOf: (headers) => {
      const found = name ?? fileNameOf(headers.get("content-disposition"));
      return found === undefined ? undefined : inDir(found);
    },
    fallbackName: inDir(fileToken),
  });
}

export const exportFile = defineShortcut({
  service: "drive",
  command: "+export",
  description:
    "Export a document as a file (docx, pdf, xlsx, csv), waiting for the conversion, and download it",
  examples: [
    "larkit drive +export --token doxcnAbc --file-extension pdf",
    "larkit drive +export --token shtcnX --doc-type sheet --file-extension csv --sub-id 6e5ed3 --file-name data.csv",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["docs:document:export", "drive:drive.metadata:readonly"],
    bot: ["docs:document:export", "drive:drive.metadata:readonly"],
  },
  hasFormat: true,
  flags: {
    token: flag.requiredString("document token or URL"),
    "doc-type": flag.choice(["docx", "doc", "sheet", "bitable"] as const, "document type", {
      default: "docx",
    }),
    "file-extension": flag.requiredChoice(["docx", "pdf", "xlsx", "csv"] as const, "file format"),
    "sub-id": flag.string("sheet or table id (needed for csv)"),
    ...saveFlags,
    ...pollFlags(),
  },
  async run(ctx) {
    const f = ctx.flags;
    const ext = f["file-extension"];
    const okFor: Record<string, string[]> = {
      docx: ["docx", "pdf"],
      doc: ["docx", "pdf"],
      sheet: ["xlsx", "csv"],
      bitable: ["xlsx", "csv"],
    };
    if (!okFor[f["doc-type"]].includes(ext)) {
      throw errors.validation(
        `--file-extension ${ext}: a ${f["doc-type"]} exports as ${okFor[f["doc-type"]].join(" or ")}`,
      );
    }
    if (ext === "csv" && !f["sub-id"]) {
      throw errors.validation("--file-extension csv needs --sub-id (the sheet or table)");
    }
    const token = tokenOf(f.token, "token");
    const { ticket, result } = await startAndWait(
      ctx,
      f,
      "export",
      { file_extension: ext, token, type: f["doc-type"], sub_id: f["sub-id"] },
      (ticket) => ({ call: exportCall(ticket, token), extraArgs: ` --file-token ${token}` }),
    );
    if (!result.file_token) throw errors.api(`export ${ticket} ended without a file`);
    const name = result.file_name ? `${result.file_name}.${ext}` : undefined;
    const saved = await saveExport(ctx, result.file_token, name, f);
    await ctx.outFormat({ ticket, file_token: result.file_token, ...saved });
  },
});

export const exportDownload = defineShortcut({
  service: "drive",
  command: "+export-download",
  description: "Download the file of a finished export (its file_token from +task_result)",
  examples: [
    "larkit drive +export-download --file-token boxcnExp123 --output-dir exports --file-name plan.pdf",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["docs:document:export"], bot: ["docs:document:export"] },
  hasFormat: true,
  flags: {
    "file-token": flag.requiredString("the export's file token"),
    ...saveFlags,
  },
  async run(ctx) {
    const token = tokenOf(ctx.flags["file-token"], "file-token");
    const saved = await saveExport(ctx, token, undefined, ctx.flags);
    await ctx.outFormat({ file_token: token, ...saved });
  },
});

export const taskResult = defineShortcut({
  service: "drive",
  command: "+task_result",
  description: "Check once on an import, export, Drive move/delete or wiki task (no waiting)",
  examples: [
    "larkit drive +task_result --scenario import --ticket 7369583175086912356",
    "larkit drive +task_result --scenario export --ticket 7369583175086912356 --file-token doxcnAbc",
    "larkit drive +task_result --scenario wiki --task-id 7369583175086912357",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["drive:drive.metadata:readonly"], bot: ["drive:drive.metadata:readonly"] },
  hasFormat: true,
  flags: {
    scenario: flag.requiredChoice(["import", "export", "task_check", "wiki"] as const, "what kind of task"),
    ticket: flag.string("import/export ticket"),
    "task-id": flag.string("Drive or wiki task id"),
    "file-token": flag.string("the exported document's token (export)"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const need = (v: string | undefined, name: string) => {
      if (!v) throw errors.validation(`--scenario ${f.scenario} needs --${name}`);
      return tokenOf(v, name);
    };
    if (f.scenario === "import") {
      const { result } = await ctx.api(importCall(need(f.ticket, "ticket")));
      return await ctx.outFormat({ ...result, ...jobState(result) });
    }
    if (f.scenario === "export") {
      const { result } = await ctx.api(
        exportCall(need(f.ticket, "ticket"), need(f["file-token"], "file-token")),
      );
      return await ctx.outFormat({ ...result, ...jobState(result) });
    }
    if (f.scenario === "task_check") {
      const answer = await ctx.api({
        method: "GET",
        path: `${DRIVE}/files/task_check`,
        params: { task_id: need(f["task-id"], "task-id") },
        response: z.object({ status: z.string() }),
        planned: { status: "success" },
      });
      return await ctx.outFormat(answer);
    }
    const id = need(f["task-id"], "task-id");
    const answer = await ctx.api({
      method: "GET",
      path: `/open-apis/wiki/v2/tasks/${encodeURIComponent(id)}`,
      params: { task_type: "move" },
      response: z.object({ task: z.looseObject({}) }),
      planned: { task: { task_id: id } },
    });
    await ctx.outFormat(answer.task);
  },
});

const previewFlags = {
  "file-token": flag.requiredString("the Drive file"),
  "version-id": flag.string("a specific version (default: current)"),
  output: flag.string("local path (default: <file-token>-<kind>)"),
  overwrite: flag.boolean("replace the output file if it exists"),
};

function previewShortcut(
  command: "+preview" | "+cover",
  kind: string,
  description: string,
  types: readonly [string, ...string[]],
) {
  return defineShortcut({
    service: "drive",
    command,
    description,
    examples: [`larkit drive ${command} --file-token boxcnAbc --output ${kind}.png`],
    risk: "read",
    authTypes: ["user", "bot"],
    scopes: { user: ["drive:file:download"], bot: ["drive:file:download"] },
    hasFormat: true,
    flags: { ...previewFlags, type: flag.choice(types, "which rendering", { default: types[0] }) },
    async run(ctx) {
      const token = tokenOf(ctx.flags["file-token"], "file-token");
      const saved = await ctx.download({
        path: `${DRIVE}/medias/${encodeURIComponent(token)}/preview_download`,
        params: { preview_type: ctx.flags.type, version: ctx.flags["version-id"] },
        output: ctx.flags.output,
        overwrite: ctx.flags.overwrite,
        nameOf: () => undefined,
        fallbackName: `${token}-${kind}`,
      });
      await ctx.outFormat({ file_token: token, preview_type: ctx.flags.type, ...saved });
    },
  });
}

export const preview = previewShortcut(
  "+preview",
  "preview",
  "Download a rendered preview (PDF or image) of a Drive file",
  ["pdf", "png"] as const,
);
export const cover = previewShortcut(
  "+cover",
  "cover",
  "Download the cover thumbnail of a Drive file",
  ["cover", "small_cover"] as const,
);

const DOC_FILTER_TYPES = DOC_TYPES.filter((t) => t !== "folder" && t !== "wiki");

export const search = defineShortcut({
  service: "drive",
  command: "+search",
  description: "Search documents and wiki pages you can read (user only: search runs with your access)",
  examples: [
    'larkit drive +search --query "quarterly plan"',
    "larkit drive +search --query budget --doc-types sheet,bitable --page-all",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["search:docs:read"] },
  hasFormat: true,
  columns: [
    {
      name: "title",
      value: (h) =>
        String((h as { title_highlighted?: string }).title_highlighted ?? "").replace(/<\/?h>/g, ""),
    },
    "entity_type",
    "result_meta.url",
  ],
  flags: {
    query: flag.requiredString("keywords"),
    "doc-types": flag.string(`only these types, comma-separated (${DOC_FILTER_TYPES.join(", ")})`),
    "only-title": flag.boolean("match titles only"),
    "page-size": flag.integer("hits per page (1-20)", { default: 15, min: 1, max: 20 }),
    "page-token": flag.string("page token from the previous page's meta.page_token"),
    "page-all": flag.boolean("follow meta.page_token through every page (at most --page-limit pages)"),
    "page-limit": flag.integer("most pages with --page-all (0 = no limit)", {
      default: 10,
      min: 0,
      max: 100,
    }),
  },
  async run(ctx) {
    const f = ctx.flags;
    const types = f["doc-types"]?.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
    for (const t of types ?? []) {
      if (!(DOC_FILTER_TYPES as string[]).includes(t)) {
        throw errors.validation(`--doc-types: ${t} is not one of ${DOC_FILTER_TYPES.join(", ")}`);
      }
    }
    if (f["page-all"] && f["page-token"]) {
      throw errors.validation("--page-all starts from the first page; drop --page-token");
    }
    const Hit = z.looseObject({
      title_highlighted: z.optional(z.string()),
      entity_type: z.optional(z.string()),
    });
    const Page = z.extend(PageInfo, { res_units: z._default(z.array(Hit), []) });
    const call = {
      method: "POST" as const,
      path: "/open-apis/search/v2/doc_wiki/search",
      response: Page,
      planned: { res_units: [], has_more: false },
    };
    const body = (pageToken?: string) => ({
      query: f.query,
      doc_filter: { doc_types: types?.map((t) => t.toUpperCase()), only_title: f["only-title"] || undefined },
      page_size: f["page-size"],
      page_token: pageToken,
    });
    // The search reads its page token from the body.
    const first = { ...call, body: body(f["page-token"]) };
    const pages = f["page-all"]
      ? await ctx.paginate(first, { maxPages: f["page-limit"], tokenIn: "body" })
      : [await ctx.api(first)];
    const hits = pages.flatMap((p) => p.res_units);
    const last = pages.at(-1);
    const more = !!last?.has_more && !!last.page_token;
    await ctx.outFormat(
      hits,
      { count: hits.length, has_more: more, ...(more ? { page_token: last?.page_token } : {}) },
      (d) =>
        (d as z.infer<typeof Hit>[]).map((h) =>
          `${h.entity_type ?? ""}  ${(h.title_highlighted ?? "").replace(/<\/?h>/g, "")}`
        ).join("\n") || "no hits",
    );
  },
});
