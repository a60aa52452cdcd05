/**
 * Document comments and replies: `+add-comment`, `+list-comments`, `+batch-query-comments`,
 * `+resolve-comment`, `+restore-comment`, `+add-reply`, `+list-replies`, `+update-reply`, `+delete-reply`,
 * `+react-reply`. Text is sent as the suite's rich-text elements (one text run).
 */
import type { Column } from "../../cli/output/formats/rows.ts";
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { listPages, pageFlags, PageInfo } from "../im/paging.ts";
import type { DocType } from "./common.ts";
import { resolveTarget, targetFlags } from "./target.ts";

const base = (token: string) => `/open-apis/drive/v1/files/${encodeURIComponent(token)}/comments`;
const READ = ["docs:document.comment:read"];
const WRITE = ["docs:document.comment:write_only"];
const CREATE = ["docs:document.comment:create"];

export function contentOf(text: string) {
  return { elements: [{ type: "text_run", text_run: { text } }] };
}

const Reply = z.looseObject({ reply_id: z.optional(z.string()), content: z.optional(z.unknown()) });
const Comment = z.looseObject({
  comment_id: z.string(),
  is_solved: z.optional(z.boolean()),
  is_whole: z.optional(z.boolean()),
  quote: z.optional(z.string()),
  reply_list: z.optional(z.looseObject({ replies: z._default(z.array(Reply), []) })),
});

function idOf(value: string, name: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) throw errors.validation(`--${name}: ${value} is not an ID`);
  return value;
}

function textOf(content: unknown): string {
  const els = (content as { elements?: { text_run?: { text?: string } }[] })?.elements ?? [];
  return els.map((e) => e.text_run?.text ?? "").join("");
}

/** A comment list's table: the first reply is the comment's text. */
const COMMENT_COLUMNS: Column[] = [
  { name: "text", value: (c) => textOf((c as z.infer<typeof Comment>).reply_list?.replies[0]?.content) },
  "is_solved",
  "quote",
  "comment_id",
];

function commentsText(data: unknown): string {
  const comments = data as z.infer<typeof Comment>[];
  if (!comments.length) return "no comments";
  return comments.map((c) =>
    `${c.comment_id}${c.is_solved ? " (resolved)" : ""}: ${textOf(c.reply_list?.replies[0]?.content)}`
  ).join("\n");
}

const both = <T>(v: T) => ({ user: v, bot: v });

export const addComment = defineShortcut({
  service: "drive",
  command: "+add-comment",
  description: "Add a whole-document comment to a document",
  examples: ['larkit drive +add-comment --token doxcnAbc --content "Looks good, one question on §2"'],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: both(CREATE),
  hasFormat: false,
  flags: { ...targetFlags(), content: flag.requiredString("comment text", { input: ["file", "stdin"] }) },
  async run(ctx) {
    const { token, type } = await resolveTarget(ctx, ctx.flags.token, ctx.flags.type);
    const comment = await ctx.api({
      method: "POST",
      path: base(token),
      params: { file_type: type },
      body: { reply_list: { replies: [{ content: contentOf(ctx.flags.content) }] } },
      response: Comment,
      planned: { comment_id: "<comment_id>" },
    });
    await ctx.out({ token, comment_id: comment.comment_id });
  },
});

export const listComments = defineShortcut({
  service: "drive",
  command: "+list-comments",
  description: "List a document's comments with their replies",
  examples: [
    "larkit drive +list-comments --token doxcnAbc",
    "larkit drive +list-comments --token doxcnAbc --solved-status unsolved --page-all",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: both(READ),
  hasFormat: true,
  columns: COMMENT_COLUMNS,
  flags: {
    ...targetFlags(),
    "solved-status": flag.choice(["all", "solved", "unsolved"] as const, "which comments", {
      default: "all",
    }),
    ...pageFlags({ default: 50, max: 100, noun: "comments" }),
  },
  async run(ctx) {
    const { token, type } = await resolveTarget(ctx, ctx.flags.token, ctx.flags.type);
    const solved = ctx.flags["solved-status"];
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: base(token),
      params: { file_type: type, is_solved: solved === "all" ? undefined : solved === "solved" },
      response: z.extend(PageInfo, { items: z._default(z.array(Comment), []) }),
      planned: { items: [], has_more: false },
    });
    const comments = pages.flatMap((p) => p.items);
    await ctx.outFormat(comments, meta(comments.length), commentsText);
  },
});

export const batchQueryComments = defineShortcut({
  service: "drive",
  command: "+batch-query-comments",
  description: "Fetch several comments of a document by id",
  examples: [
    "larkit drive +batch-query-comments --token doxcnAbc --comment-ids 6916106822734578184,6916106822734578185",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: both(READ),
  hasFormat: true,
  columns: COMMENT_COLUMNS,
  flags: { ...targetFlags(), "comment-ids": flag.requiredString("comment ids, comma-separated") },
  async run(ctx) {
    const ids = ctx.flags["comment-ids"].split(",").map((s) => s.trim()).filter(Boolean).map((s) =>
      idOf(s, "comment-ids")
    );
    if (ids.length > 100) throw errors.validation("--comment-ids: at most 100 at a time");
    const { token, type } = await resolveTarget(ctx, ctx.flags.token, ctx.flags.type);
    const { items } = await ctx.api({
      method: "POST",
      path: `${base(token)}/batch_query`,
      params: { file_type: type },
      body: { comment_ids: ids },
      response: z.object({ items: z._default(z.array(Comment), []) }),
      planned: { items: [] },
    });
    await ctx.outFormat(items, { count: items.length }, commentsText);
  },
});

async function setSolved<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  target: string,
  type: string,
  id: string,
  solved: boolean,
) {
  const { token, type: t } = await resolveTarget(ctx, target, type as never);
  await ctx.api({
    method: "PATCH",
    path: `${base(token)}/${encodeURIComponent(idOf(id, "comment-id"))}`,
    params: { file_type: t },
    body: { is_solved: solved },
    response: z.unknown(),
    planned: {},
  });
  await ctx.out({ token, comment_id: id, is_solved: solved });
}

const commentFlags = { ...targetFlags(), "comment-id": flag.requiredString("the comment") };

export const resolveComment = defineShortcut({
  service: "drive",
  command: "+resolve-comment",
  description: "Mark a comment resolved",
  examples: ["larkit drive +resolve-comment --token doxcnAbc --comment-id 6916106822734578184"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: both(WRITE),
  hasFormat: false,
  flags: commentFlags,
  async run(ctx) {
    await setSolved(ctx, ctx.flags.token, ctx.flags.type, ctx.flags["comment-id"], true);
  },
});

export const restoreComment = defineShortcut({
  service: "drive",
  command: "+restore-comment",
  description: "Reopen a resolved comment",
  examples: ["larkit drive +restore-comment --token doxcnAbc --comment-id 6916106822734578184"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: both(WRITE),
  hasFormat: false,
  flags: commentFlags,
  async run(ctx) {
    await setSolved(ctx, ctx.flags.token, ctx.flags.type, ctx.flags["comment-id"], false);
  },
});

const replyPath = (token: string, comment: string) =>
  `${base(token)}/${encodeURIComponent(idOf(comment, "comment-id"))}/replies`;

export const addReply = defineShortcut({
  service: "drive",
  command: "+add-reply",
  description: "Reply to a comment thread",
  examples: ['larkit drive +add-reply --token doxcnAbc --comment-id 6916106822734578184 --content "Fixed"'],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: both(CREATE),
  hasFormat: false,
  flags: { ...commentFlags, content: flag.requiredString("reply text", { input: ["file", "stdin"] }) },
  async run(ctx) {
    const { token, type } = await resolveTarget(ctx, ctx.flags.token, ctx.flags.type);
    const reply = await ctx.api({
      method: "POST",
      path: replyPath(token, ctx.flags["comment-id"]),
      params: { file_type: type },
      body: { content: contentOf(ctx.flags.content) },
      response: z.looseObject({ reply_id: z.string() }),
      planned: { reply_id: "<reply_id>" },
    });
    await ctx.out({ token, comment_id: ctx.flags["comment-id"], reply_id: reply.reply_id });
  },
});

export const listReplies = defineShortcut({
  service: "drive",
  command: "+list-replies",
  description: "List the replies of a comment thread",
  examples: ["larkit drive +list-replies --token doxcnAbc --comment-id 6916106822734578184 --page-all"],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: both(READ),
  hasFormat: true,
  columns: [{ name: "text", value: (r) => textOf((r as { content?: unknown }).content) }, "reply_id"],
  flags: { ...commentFlags, ...pageFlags({ default: 50, max: 100, noun: "replies" }) },
  async run(ctx) {
    const { token, type } = await resolveTarget(ctx, ctx.flags.token, ctx.flags.type);
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: replyPath(token, ctx.flags["comment-id"]),
      params: { file_type: type },
      response: z.extend(PageInfo, { items: z._default(z.array(Reply), []) }),
      planned: { items: [], has_more: false },
    });
    const replies = pages.flatMap((p) => p.items);
    await ctx.outFormat(
      replies,
      meta(replies.length),
      (d) =>
        (d as z.infer<typeof Reply>[]).map((r) => `${r.reply_id}: ${textOf(r.content)}`).join("\n") ||
        "no replies",
    );
  },
});

const replyFlags = { ...commentFlags, "reply-id": flag.requiredString("the reply") };

/** Sends the change to the reply the flags name, then says which reply it was and what happened to it. */
async function changeReply<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  flags: { token: string; type: DocType; "comment-id": string; "reply-id": string },
  change: { method: "PUT"; body: unknown } | { method: "DELETE" },
  outcome: Record<string, boolean>,
) {
  const { token, type } = await resolveTarget(ctx, flags.token, flags.type);
  const reply = idOf(flags["reply-id"], "reply-id");
  await ctx.api({
    ...change,
    path: `${replyPath(token, flags["comment-id"])}/${encodeURIComponent(reply)}`,
    params: { file_type: type },
    response: z.unknown(),
    planned: {},
  });
  await ctx.out({ token, comment_id: flags["comment-id"], reply_id: reply, ...outcome });
}

export const updateReply = defineShortcut({
  service: "drive",
  command: "+update-reply",
  description: "Change the text of a reply",
  examples: [
    'larkit drive +update-reply --token doxcnAbc --comment-id 6916106822734578184 --reply-id 6916106822734594568 --content "Fixed in v2"',
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: both(WRITE),
  hasFormat: false,
  flags: { ...replyFlags, content: flag.requiredString("new reply text", { input: ["file", "stdin"] }) },
  async run(ctx) {
    await changeReply(ctx, ctx.flags, { method: "PUT", body: { content: contentOf(ctx.flags.content) } }, {
      updated: true,
    });
  },
});

export const deleteReply = defineShortcut({
  service: "drive",
  command: "+delete-reply",
  description: "Delete a reply (the first reply of a thread deletes the comment)",
  examples: [
    "larkit drive +delete-reply --token doxcnAbc --comment-id 6916106822734578184 --reply-id 6916106822734594568 --yes",
  ],
  risk: "high-risk-write",
  authTypes: ["user", "bot"],
  scopes: both(WRITE),
  hasFormat: false,
  flags: replyFlags,
  async run(ctx) {
    await changeReply(ctx, ctx.flags, { method: "DELETE" }, { deleted: true });
  },
});

export const reactReply = defineShortcut({
  service: "drive",
  command: "+react-reply",
  description: "Add or remove an emoji reaction on a reply",
  examples: [
    "larkit drive +react-reply --token doxcnAbc --reply-id 6916106822734594568 --emoji THUMBSUP --action add",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: both(WRITE),
  hasFormat: false,
  flags: {
    ...targetFlags(),
    "reply-id": flag.requiredString("the reply"),
    emoji: flag.requiredString("emoji key, e.g. THUMBSUP"),
    action: flag.requiredChoice(["add", "delete"] as const, "add or remove the reaction"),
  },
  async run(ctx) {
    if (!/^[A-Za-z_]+$/.test(ctx.flags.emoji)) {
      throw errors.validation(`--emoji: ${ctx.flags.emoji} is not an emoji key`);
    }
    const { token, type } = await resolveTarget(ctx, ctx.flags.token, ctx.flags.type);
    await ctx.api({
      method: "POST",
      path: `/open-apis/drive/v2/files/${encodeURIComponent(token)}/comments/reaction`,
      params: { file_type: type },
      body: {
        reply_id: idOf(ctx.flags["reply-id"], "reply-id"),
        reaction_type: ctx.flags.emoji,
        action: ctx.flags.action,
      },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({
      token,
      reply_id: ctx.flags["reply-id"],
      emoji: ctx.flags.emoji,
      action: ctx.flags.action,
    });
  },
});
