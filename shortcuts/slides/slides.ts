/**
 * Presentations as XML (the suite's slides_ai API): create, read, add/replace/delete slides, versions, media.
 * Slide edits send whole-slide XML: `+replace-slide` replaces exactly the slide named and nothing else, and
 * `--revision-id` makes an edit fail rather than overwrite someone else's newer change.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { HISTORY_COLUMNS, listHistories } from "../docs/history.ts";
import { grantRequester, tokenOf } from "../drive/common.ts";
import { SINGLE_UPLOAD_MAX } from "../drive/upload.ts";
import { pageFlags } from "../im/paging.ts";

const X = "/open-apis/slides_ai/v1/xml_presentations";
const READ = { user: ["slides:presentation:read"], bot: ["slides:presentation:read"] };
const UPDATE = {
  user: ["slides:presentation:update", "slides:presentation:write_only"],
  bot: ["slides:presentation:update", "slides:presentation:write_only"],
};
const at = (p: string) => `${X}/${encodeURIComponent(tokenOf(p, "presentation"))}`;
const Revised = z.looseObject({ slide_id: z.optional(z.string()), revision_id: z.optional(z.number()) });

const presentation = { presentation: flag.requiredString("presentation token or URL") };
const revision = {
  "revision-id": flag.integer("fail if the presentation is no longer at this revision (0: any)", {
    default: 0,
    min: 0,
    max: 2 ** 31,
  }),
};

function slideIdOf(v: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(v)) throw errors.validation(`--slide-id: ${v} is not an ID`);
  return v;
}

/** Slide XML must at least be one <slide> element: anything else would be refused by the suite after a round trip. */
function slideXml(v: string, name: string): string {
  const t = v.trim();
  if (!/^<slide[\s>][\s\S]*<\/slide>$/.test(t)) {
    throw errors.validation(`--${name}: expected one <slide>\u2026</slide> element`);
  }
  return t;
}

/** `base`: the presentation's path (from `at`, or built from an id the suite just answered). */
async function addSlide<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  base: string,
  content: string,
  before?: string,
  rev?: number,
) {
  return await ctx.api({
    method: "POST",
    path: `${base}/slide`,
    body: { content, before_slide_id: before, revision_id: rev || undefined },
    response: Revised,
    planned: { slide_id: "<slide_id>" },
  });
}

export const create = defineShortcut({
  service: "slides",
  command: "+create",
  description:
    "Create a presentation, optionally with a first slide; as bot, the logged-in user gets full access",
  examples: [
    'larkit slides +create --title "Q3 review"',
    'larkit slides +create --title "Q3 review" --slide @cover.xml',
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["slides:presentation:create", "slides:presentation:write_only"],
    bot: ["slides:presentation:create", "slides:presentation:write_only", "docs:permission.member:create"],
  },
  hasFormat: false,
  flags: {
    title: flag.requiredString("title"),
    slide: flag.string("first slide's XML", { input: ["file", "stdin"] }),
  },
  async run(ctx) {
    const first = ctx.flags.slide === undefined ? undefined : slideXml(ctx.flags.slide, "slide");
    const created = await ctx.api({
      method: "POST",
      path: X,
      body: { title: ctx.flags.title },
      response: z.looseObject({ xml_presentation_id: z.string() }),
      planned: { xml_presentation_id: "<presentation_id>" },
    });
    const id = created.xml_presentation_id;
    const slide = first === undefined
      ? undefined
      : await addSlide(ctx, `${X}/${encodeURIComponent(id)}`, first);
    const grant = await grantRequester(ctx, id, "slides");
    await ctx.out({ presentation_id: id, slide_id: slide?.slide_id, ...grant });
  },
});

export const xmlGet = defineShortcut({
  service: "slides",
  command: "+xml-get",
  description: "Read a presentation, or one slide, as XML",
  examples: [
    "larkit slides +xml-get --presentation sldcnAbc",
    "larkit slides +xml-get --presentation sldcnAbc --slide-id s1 --jq .data.content",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: READ,
  hasFormat: true,
  flags: { ...presentation, "slide-id": flag.string("only this slide") },
  async run(ctx) {
    const slide = ctx.flags["slide-id"];
    const answer = slide
      ? await ctx.api({
        method: "GET",
        path: `${at(ctx.flags.presentation)}/slide`,
        params: { slide_id: slideIdOf(slide) },
        response: z.looseObject({ content: z.optional(z.string()) }),
        planned: { content: "" },
      })
      : await ctx.api({
        method: "GET",
        path: at(ctx.flags.presentation),
        response: z.looseObject({ content: z.optional(z.string()) }),
        planned: { content: "" },
      });
    await ctx.outFormat(answer, undefined, (d) => String((d as { content?: string }).content ?? ""));
  },
});

export const addSlideShortcut = defineShortcut({
  service: "slides",
  command: "+add-slide",
  description: "Insert a slide (XML) at the end or before another slide",
  examples: [
    "larkit slides +add-slide --presentation sldcnAbc --slide @page.xml",
    "larkit slides +add-slide --presentation sldcnAbc --slide @page.xml --before-slide-id s2",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: UPDATE,
  hasFormat: false,
  flags: {
    ...presentation,
    slide: flag.requiredString("the slide's XML", { input: ["file", "stdin"] }),
    "before-slide-id": flag.string("insert before this slide (default: at the end)"),
    ...revision,
  },
  async run(ctx) {
    const f = ctx.flags;
    const before = f["before-slide-id"];
    const added = await addSlide(
      ctx,
      at(f.presentation),
      slideXml(f.slide, "slide"),
      before && slideIdOf(before),
      f["revision-id"],
    );
    await ctx.out(added);
  },
});

export const deleteSlide = defineShortcut({
  service: "slides",
  command: "+delete-slide",
  description: "Delete one slide",
  examples: ["larkit slides +delete-slide --presentation sldcnAbc --slide-id s3 --yes"],
  risk: "high-risk-write",
  authTypes: ["user", "bot"],
  scopes: UPDATE,
  hasFormat: false,
  flags: { ...presentation, "slide-id": flag.requiredString("the slide"), ...revision },
  async run(ctx) {
    const id = slideIdOf(ctx.flags["slide-id"]);
    const answer = await ctx.api({
      method: "DELETE",
      path: `${at(ctx.flags.presentation)}/slide`,
      params: { slide_id: id, revision_id: ctx.flags["revision-id"] || undefined },
      response: Revised,
      planned: {},
    });
    await ctx.out({ slide_id: id, deleted: true, revision_id: answer.revision_id });
  },
});

function replaceShortcut(command: "+replace-slide" | "+update-slide", description: string) {
  return defineShortcut({
    service: "slides",
    command,
    description,
    examples: [
      `larkit slides ${command} --presentation sldcnAbc --slide-id s2 --content @page.xml --revision-id 12`,
    ],
    risk: "write",
    authTypes: ["user", "bot"],
    scopes: UPDATE,
    hasFormat: false,
    flags: {
      ...presentation,
      "slide-id": flag.requiredString("the slide to replace"),
      content: flag.requiredString("the slide's complete new XML", { input: ["file", "stdin"] }),
      ...revision,
    },
    async run(ctx) {
      const f = ctx.flags;
      const answer = await ctx.api({
        method: "POST",
        path: `${at(f.presentation)}/slide/replace`,
        body: {
          slide_id: slideIdOf(f["slide-id"]),
          content: slideXml(f.content, "content"),
          revision_id: f["revision-id"] || undefined,
        },
        response: Revised,
        planned: { slide_id: f["slide-id"] },
      });
      await ctx.out(answer);
    },
  });
}

export const replaceSlide = replaceShortcut(
  "+replace-slide",
  "Replace one slide with new XML (only that slide changes)",
);
export const updateSlide = replaceShortcut(
  "+update-slide",
  "Rewrite one slide from its edited XML (fetch it with +xml-get, edit, send it back whole)",
);

export const historyList = defineShortcut({
  service: "slides",
  command: "+history-list",
  description: "List a presentation's saved versions",
  examples: ["larkit slides +history-list --presentation sldcnAbc --page-all"],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: READ,
  hasFormat: true,
  columns: HISTORY_COLUMNS,
  flags: { ...presentation, ...pageFlags({ default: 20, max: 50, noun: "versions" }) },
  async run(ctx) {
    await listHistories(
      ctx,
      ctx.flags,
      at(ctx.flags.presentation),
      (v) => `${v.history_version_id}  ${v.create_time ?? ""}`,
    );
  },
});

export const historyRevert = defineShortcut({
  service: "slides",
  command: "+history-revert",
  description: "Start restoring a presentation to a saved version; check it with +history-revert-status",
  examples: [
    "larkit slides +history-revert --presentation sldcnAbc --history-version-id 7312345678901234567",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: UPDATE,
  hasFormat: false,
  flags: { ...presentation, "history-version-id": flag.requiredString("the version (see +history-list)") },
  async run(ctx) {
    const v = tokenOf(ctx.flags["history-version-id"], "history-version-id");
    const { task_id } = await ctx.api({
      method: "POST",
      path: `${at(ctx.flags.presentation)}/history/revert`,
      body: { history_version_id: v },
      response: z.object({ task_id: z.string() }),
      planned: { task_id: "<task_id>" },
    });
    await ctx.out({
      task_id,
      check:
        `larkit slides +history-revert-status --presentation ${ctx.flags.presentation} --task-id ${task_id}`,
    });
  },
});

export const historyRevertStatus = defineShortcut({
  service: "slides",
  command: "+history-revert-status",
  description: "Check once on a presentation revert task",
  examples: ["larkit slides +history-revert-status --presentation sldcnAbc --task-id 7312345678901234568"],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: READ,
  hasFormat: true,
  flags: { ...presentation, "task-id": flag.requiredString("the revert task") },
  async run(ctx) {
    const status = await ctx.api({
      method: "GET",
      path: `${at(ctx.flags.presentation)}/history/revert_status`,
      params: { task_id: tokenOf(ctx.flags["task-id"], "task-id") },
      response: z.looseObject({ status: z.string(), message: z.optional(z.string()) }),
      planned: { status: "<status>" },
    });
    await ctx.outFormat(status);
  },
});

export const mediaUpload = defineShortcut({
  service: "slides",
  command: "+media-upload",
  description:
    "Upload an image for use in a presentation's slides (up to 20 MB); reference it by the token in slide XML",
  examples: ["larkit slides +media-upload --file chart.png --presentation sldcnAbc"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: { user: ["docs:document.media:upload"], bot: ["docs:document.media:upload"] },
  hasFormat: false,
  flags: { file: flag.requiredString("local image", { placeholder: "path" }), ...presentation },
  async run(ctx) {
    const { size, name } = await ctx.localFile("file", ctx.flags.file, { maxBytes: SINGLE_UPLOAD_MAX });
    const { file_token } = await ctx.upload({
      path: "/open-apis/drive/v1/medias/upload_all",
      fields: {
        file_name: name,
        // The one parent type the suite's slides take for upload_all (slides_image is not in its enum).
        parent_type: "slide_file",
        parent_node: tokenOf(ctx.flags.presentation, "presentation"),
        size: String(size),
      },
      file: { field: "file", path: ctx.flags.file, flag: "file", maxBytes: SINGLE_UPLOAD_MAX },
      response: z.object({ file_token: z.string() }),
      planned: { file_token: "<media_token>" },
    });
    await ctx.out({ file_token, file_name: name, size });
  },
});
