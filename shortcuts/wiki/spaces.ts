/** `wiki +space-list`, `+space-create`, `+delete-space`: the knowledge spaces themselves. */
import * as z from "zod";
import { defineShortcut, flag } from "../declare.ts";
import { pollFlags } from "../drive/common.ts";
import { listPages, pageFlags, PageInfo } from "../im/paging.ts";
import { idOf, Space, waitWikiTask, WIKI } from "./common.ts";

function spacesText(data: unknown): string {
  const spaces = data as z.infer<typeof Space>[];
  if (!spaces.length) return "no spaces";
  return spaces.map((s) => `${s.space_id}  ${s.name ?? ""}${s.visibility ? `  (${s.visibility})` : ""}`).join(
    "\n",
  );
}

export const spaceList = defineShortcut({
  service: "wiki",
  command: "+space-list",
  description: "List the wiki spaces you (or the bot) can see",
  examples: ["larkit wiki +space-list", "larkit wiki +space-list --page-all --format table"],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["wiki:space:retrieve"], bot: ["wiki:space:retrieve"] },
  hasFormat: true,
  columns: ["name", "visibility", "space_id"],
  flags: { ...pageFlags({ default: 20, max: 50, noun: "spaces" }) },
  async run(ctx) {
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: `${WIKI}/spaces`,
      response: z.extend(PageInfo, { items: z._default(z.array(Space), []) }),
      planned: { items: [], has_more: false },
    });
    const spaces = pages.flatMap((p) => p.items);
    await ctx.outFormat(spaces, meta(spaces.length), spacesText);
  },
});

export const spaceCreate = defineShortcut({
  service: "wiki",
  command: "+space-create",
  description: "Create a wiki space (user only: the suite lets only people own spaces)",
  examples: ['larkit wiki +space-create --name "Team handbook" --description "How we work"'],
  risk: "write",
  authTypes: ["user"],
  scopes: { user: ["wiki:space:write_only"] },
  hasFormat: false,
  flags: {
    name: flag.requiredString("space name"),
    description: flag.string("space description"),
  },
  async run(ctx) {
    const { space } = await ctx.api({
      method: "POST",
      path: `${WIKI}/spaces`,
      body: { name: ctx.flags.name, description: ctx.flags.description },
      response: z.object({ space: Space }),
      planned: { space: { space_id: "<space_id>", name: ctx.flags.name } },
    });
    await ctx.out({ space });
  },
});

export const deleteSpace = defineShortcut({
  service: "wiki",
  command: "+delete-space",
  description: "Delete a wiki space and every page in it, waiting for the suite's deletion task",
  examples: ["larkit wiki +delete-space --space-id 7034502641455497244 --yes"],
  risk: "high-risk-write",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["wiki:space:write_only", "wiki:space:read"],
    bot: ["wiki:space:write_only", "wiki:space:read"],
  },
  hasFormat: false,
  flags: { "space-id": flag.requiredString("the space to delete"), ...pollFlags() },
  async run(ctx) {
    const spaceId = idOf(ctx.flags["space-id"], "space-id");
    const answer = await ctx.api({
      method: "DELETE",
      path: `${WIKI}/spaces/${encodeURIComponent(spaceId)}`,
      response: z.looseObject({ task_id: z.optional(z.string()) }),
      planned: { task_id: "<task_id>" },
    });
    // Small spaces are deleted at once; large ones answer a task to wait for.
    if (answer.task_id) await waitWikiTask(ctx, answer.task_id, "space deletion", ctx.flags);
    await ctx.out({ space_id: spaceId, deleted: true, task_id: answer.task_id });
  },
});
