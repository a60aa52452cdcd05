/**
 * OKR progress records: list an objective's or key result's, read, create, replace and delete one. Records
 * are OKR v1 (`progress_records`, in the registry); the per-target lists are OKR v2.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { itemsPage, listPages, pageFlags } from "../im/paging.ts";
import { enc, OKR, plainText, progressText, styleFlag } from "./common.ts";

const RECORDS = `${OKR}/v1/progress_records`;
const READ = { user: ["okr:okr.progress:readonly"], bot: ["okr:okr.progress:readonly"] };
const WRITE = { user: ["okr:okr.progress:writeonly"], bot: ["okr:okr.progress:writeonly"] };
const targetType = flag.requiredChoice(["objective", "key_result"] as const, "what the progress is about");
const progressId = flag.requiredString("progress record ID");
const Progress = z.looseObject({ progress_id: z.optional(z.string()), content: z.optional(z.unknown()) });

/** A progress ID is a number in the suite; anything else fails before a request is made. */
function idOf(text: string): string {
  if (!/^\d+$/.test(text)) throw errors.validation(`--progress-id must be a numeric ID, got "${text}"`);
  return text;
}

const shape = (p: z.infer<typeof Progress>) => ({ ...p, text: plainText(p.content) });

export const progressList = defineShortcut({
  service: "okr",
  command: "+progress-list",
  description: "List the progress records of an objective or key result",
  examples: ["larkit okr +progress-list --target-id 7012345678901234567 --target-type key_result --page-all"],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: READ,
  hasFormat: true,
  columns: ["text", "progress_id"],
  flags: {
    "target-id": flag.requiredString("objective or key result ID"),
    "target-type": targetType,
    ...pageFlags({ default: 100, max: 100, noun: "records" }),
  },
  async run(ctx) {
    const f = ctx.flags;
    const kind = f["target-type"] === "objective" ? "objectives" : "key_results";
    const { pages, meta } = await listPages(ctx, f, {
      method: "GET",
      path: `${OKR}/v2/${kind}/${enc(f["target-id"])}/progresses`,
      params: { user_id_type: "open_id" },
      response: itemsPage(Progress),
      planned: { items: [], has_more: false },
    });
    const items = pages.flatMap((p) => p.items ?? []).map(shape);
    await ctx.outFormat(items, meta(items.length));
  },
});

export const progressGet = defineShortcut({
  service: "okr",
  command: "+progress-get",
  description: "Read one OKR progress record",
  examples: ["larkit okr +progress-get --progress-id 7012345678901234567"],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: READ,
  hasFormat: true,
  flags: { "progress-id": progressId },
  async run(ctx) {
    const record = await ctx.api({
      method: "GET",
      path: `${RECORDS}/${enc(idOf(ctx.flags["progress-id"]))}`,
      params: { user_id_type: "open_id" },
      response: Progress,
      planned: { progress_id: ctx.flags["progress-id"] },
    });
    await ctx.outFormat(shape(record));
  },
});

export const progressCreate = defineShortcut({
  service: "okr",
  command: "+progress-create",
  description: "Add a progress record to an objective or key result",
  examples: [
    'larkit okr +progress-create --target-id 7012345678901234567 --target-type key_result --content "Shipped the beta"',
    "larkit okr +progress-create --target-id 7012345678901234567 --target-type objective --content @update.txt",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: WRITE,
  hasFormat: false,
  flags: {
    content: flag.requiredString("the progress text", { input: ["file", "stdin"] }),
    "target-id": flag.requiredString("objective or key result ID"),
    "target-type": targetType,
    "source-title": flag.string("where the update comes from (default: larkit)"),
    "source-url": flag.string("link to the source"),
    style: styleFlag,
  },
  async run(ctx) {
    const f = ctx.flags;
    const url = f["source-url"];
    if (url !== undefined && !/^https?:\/\//.test(url)) {
      throw errors.validation(`--source-url must be an http(s) link, got "${url}"`);
    }
    const record = await ctx.api({
      method: "POST",
      path: RECORDS,
      params: { user_id_type: "open_id" },
      body: {
        content: progressText("content", f.content, f.style),
        // The suite's target types: 2 objective, 3 key result.
        target_type: f["target-type"] === "objective" ? 2 : 3,
        target_id: f["target-id"],
        source_title: f["source-title"] ?? "larkit",
        // Required by the request schema; an update without a link sends it empty.
        source_url: url ?? "",
      },
      response: Progress,
      planned: { progress_id: "<progress_id>" },
    });
    await ctx.out(shape(record));
  },
});

export const progressUpdate = defineShortcut({
  service: "okr",
  command: "+progress-update",
  description: "Replace the text of an OKR progress record",
  examples: ['larkit okr +progress-update --progress-id 7012345678901234567 --content "Beta is live"'],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: WRITE,
  hasFormat: false,
  flags: {
    "progress-id": progressId,
    content: flag.requiredString("the new progress text", { input: ["file", "stdin"] }),
    style: styleFlag,
  },
  async run(ctx) {
    const record = await ctx.api({
      method: "PUT",
      path: `${RECORDS}/${enc(idOf(ctx.flags["progress-id"]))}`,
      params: { user_id_type: "open_id" },
      body: { content: progressText("content", ctx.flags.content, ctx.flags.style) },
      response: Progress,
      planned: { progress_id: ctx.flags["progress-id"] },
    });
    await ctx.out(shape(record));
  },
});

export const progressDelete = defineShortcut({
  service: "okr",
  command: "+progress-delete",
  description: "Delete an OKR progress record (cannot be undone; asks for confirmation)",
  examples: ["larkit okr +progress-delete --progress-id 7012345678901234567 --yes"],
  risk: "high-risk-write",
  authTypes: ["user", "bot"],
  scopes: { user: ["okr:okr.progress:delete"], bot: ["okr:okr.progress:delete"] },
  hasFormat: false,
  flags: { "progress-id": progressId },
  async run(ctx) {
    const id = idOf(ctx.flags["progress-id"]);
    await ctx.api({
      method: "DELETE",
      path: `${RECORDS}/${enc(id)}`,
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ progress_id: id, deleted: true });
  },
});
