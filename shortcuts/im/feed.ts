/**
 * The user's feed: shortcuts (chats pinned at the top of the feed, `+feed-shortcut-*`) and feed groups (tags
 * grouping feed cards, `+feed-group-*`). Both belong to a person, so these shortcuts run as the user only.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { tableOr } from "../common/pretty.ts";
import { defineShortcut, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import { idList } from "./ids.ts";
import { listPages, pageFlags, PageInfo, type PageValues } from "./paging.ts";

const SHORTCUTS = "/open-apis/im/v2/feed_shortcuts";
const GROUPS = "/open-apis/im/v1/groups";

const Failed = z.object({
  failed_shortcuts: z._default(
    z.array(z.looseObject({ chat_id: z.string(), reason: z.optional(z.string()) })),
    [],
  ),
});

const chatIdsFlag = flag.requiredString("chat IDs (oc_\u2026), comma-separated, at most 10");
const chatIds = (value: string) => idList("chat-id", value, { prefix: "oc_", what: "chat IDs", max: 10 });

/** Per-chat failures are the suite's answer, not an error: `ok` is false and they are listed. */
function outcome(given: string[], failed: z.infer<typeof Failed>["failed_shortcuts"]) {
  const bad = new Set(failed.map((f) => f.chat_id));
  return { ok: failed.length === 0, done: given.filter((c) => !bad.has(c)), failed_shortcuts: failed };
}

export const feedShortcutCreate = defineShortcut({
  service: "im",
  command: "+feed-shortcut-create",
  description: "Pin up to 10 chats to your feed shortcuts (user identity only)",
  examples: [
    "larkit im +feed-shortcut-create --chat-id oc_1,oc_2",
    "larkit im +feed-shortcut-create --chat-id oc_1 --head",
  ],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ["im:feed.shortcut:write"] },
  hasFormat: false,
  flags: {
    "chat-id": chatIdsFlag,
    head: flag.boolean("insert at the top (default: at the end)"),
    tail: flag.boolean("insert at the end (the default)"),
  },
  async run(ctx) {
    if (ctx.flags.head && ctx.flags.tail) throw errors.validation("--head and --tail are mutually exclusive");
    const ids = chatIds(ctx.flags["chat-id"]);
    const r = await ctx.api({
      method: "POST",
      path: SHORTCUTS,
      body: { shortcuts: ids.map((chat_id) => ({ chat_id })), position: ctx.flags.head ? "head" : "tail" },
      response: Failed,
      planned: { failed_shortcuts: [] },
    });
    await ctx.out(outcome(ids, r.failed_shortcuts));
  },
});

export const feedShortcutRemove = defineShortcut({
  service: "im",
  command: "+feed-shortcut-remove",
  description: "Unpin up to 10 chats from your feed shortcuts (user identity only)",
  examples: ["larkit im +feed-shortcut-remove --chat-id oc_1,oc_2"],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ["im:feed.shortcut:write"] },
  hasFormat: false,
  flags: { "chat-id": chatIdsFlag },
  async run(ctx) {
    const ids = chatIds(ctx.flags["chat-id"]);
    const r = await ctx.api({
      method: "POST",
      path: `${SHORTCUTS}/remove`,
      body: { shortcuts: ids.map((chat_id) => ({ chat_id })) },
      response: Failed,
      planned: { failed_shortcuts: [] },
    });
    await ctx.out(outcome(ids, r.failed_shortcuts));
  },
});

const ShortcutPage = z.extend(PageInfo, {
  shortcuts: z._default(z.array(z.looseObject({ chat_id: z.string(), name: z.optional(z.string()) })), []),
});

export const feedShortcutList = defineShortcut({
  service: "im",
  command: "+feed-shortcut-list",
  description: "List your feed shortcuts, one page at a time (user identity only)",
  examples: [
    "larkit im +feed-shortcut-list",
    "larkit im +feed-shortcut-list --page-token <meta.page_token> --format table",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["im:feed.shortcut:read"] },
  hasFormat: true,
  columns: ["name", "chat_id"],
  flags: { "page-token": flag.string("page token from the previous page's meta.page_token") },
  async run(ctx) {
    const page = await ctx.api({
      method: "GET",
      path: SHORTCUTS,
      params: { page_token: ctx.flags["page-token"] },
      response: ShortcutPage,
      planned: { shortcuts: [], has_more: false },
    });
    const more = page.has_more && !!page.page_token;
    await ctx.outFormat(
      page.shortcuts,
      { count: page.shortcuts.length, has_more: more, ...(more ? { page_token: page.page_token } : {}) },
      tableOr("No feed shortcuts.\n", ["chat_id", "name"]),
    );
  },
});

const timeFlags = {
  "start-time": flag.string("only updated at or after this time (Unix milliseconds)"),
  "end-time": flag.string("only updated at or before this time (Unix milliseconds)"),
};

type TimeValues = { "start-time"?: string; "end-time"?: string };

function timeParams(f: TimeValues) {
  for (const name of ["start-time", "end-time"] as const) {
    const v = f[name];
    if (v !== undefined && !/^\d{13}$/.test(v)) {
      throw errors.validation(`--${name} must be Unix milliseconds (13 digits), got "${v}"`);
    }
  }
  return { start_time: f["start-time"], end_time: f["end-time"] };
}

const GroupPage = z.extend(PageInfo, {
  items: z._default(z.array(z.looseObject({ feed_group_id: z.string(), name: z.optional(z.string()) })), []),
});
const FeedCard = z.looseObject({ feed_id: z.string(), feed_type: z.optional(z.string()) });
const CardPage = z.extend(PageInfo, { items: z._default(z.array(FeedCard), []) });

/** A feed-group list (the groups, or one group's cards): its `items`, paged, in the flags' time window. */
async function outItems<F extends FlagSpecs, I>(
  ctx: ShortcutContext<F>,
  f: PageValues & TimeValues,
  path: string,
  response: z.ZodMiniType<z.infer<typeof PageInfo> & { items: I[] }>,
) {
  const { pages, meta } = await listPages(ctx, f, {
    method: "GET",
    path,
    params: timeParams(f),
    response,
    planned: { items: [], has_more: false },
  });
  const items = pages.flatMap((p) => p.items);
  await ctx.outFormat(items, meta(items.length));
}

function groupPath(id: string, tail: string): string {
  if (!id.trim()) throw errors.validation("--feed-group-id must not be empty");
  return `${GROUPS}/${encodeURIComponent(id)}/${tail}`;
}

export const feedGroupList = defineShortcut({
  service: "im",
  command: "+feed-group-list",
  description: "List your feed groups (tags) (user identity only)",
  examples: ["larkit im +feed-group-list", "larkit im +feed-group-list --page-all --format table"],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["im:feed_group_v1:read"] },
  hasFormat: true,
  columns: ["name", "feed_group_id"],
  flags: { ...pageFlags({ default: 50, max: 50, noun: "groups" }), ...timeFlags },
  async run(ctx) {
    await outItems(ctx, ctx.flags, GROUPS, GroupPage);
  },
});

export const feedGroupListItem = defineShortcut({
  service: "im",
  command: "+feed-group-list-item",
  description: "List the feed cards in one of your feed groups (user identity only)",
  examples: [
    "larkit im +feed-group-list-item --feed-group-id fg_123",
    "larkit im +feed-group-list-item --feed-group-id fg_123 --page-all --format table",
  ],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["im:feed_group_v1:read"] },
  hasFormat: true,
  columns: ["feed_id", "feed_type"],
  flags: {
    "feed-group-id": flag.requiredString("feed group ID (from +feed-group-list)"),
    ...pageFlags({ default: 50, max: 50, noun: "cards" }),
    ...timeFlags,
  },
  async run(ctx) {
    await outItems(ctx, ctx.flags, groupPath(ctx.flags["feed-group-id"], "list_item"), CardPage);
  },
});

export const feedGroupQueryItem = defineShortcut({
  service: "im",
  command: "+feed-group-query-item",
  description: "Look up given feed cards (chat IDs) in one of your feed groups (user identity only)",
  examples: ["larkit im +feed-group-query-item --feed-group-id fg_123 --feed-id oc_1,oc_2"],
  risk: "read",
  authTypes: ["user"],
  scopes: { user: ["im:feed_group_v1:read"] },
  hasFormat: true,
  columns: ["feed_id", "feed_type"],
  flags: {
    "feed-group-id": flag.requiredString("feed group ID (from +feed-group-list)"),
    "feed-id": flag.requiredString("feed card IDs (chat IDs oc_\u2026), comma-separated, at most 50"),
  },
  async run(ctx) {
    const ids = idList("feed-id", ctx.flags["feed-id"], { prefix: "oc_", what: "chat IDs", max: 50 });
    const found = await ctx.api({
      method: "POST",
      path: groupPath(ctx.flags["feed-group-id"], "batch_query_item"),
      body: { feed_ids: ids },
      response: z.object({ items: z._default(z.array(FeedCard), []) }),
      planned: { items: [] },
    });
    await ctx.outFormat(found.items, { count: found.items.length });
  },
});
