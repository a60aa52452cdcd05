/**
 * `wiki +move`: a page to another place (or space), or a Drive document into the wiki; `wiki +move-to-drive`:
 * a page out of the wiki into a Drive folder. Cross-space moves and imports run as suite tasks, waited for.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { pollFlags } from "../drive/common.ts";
import { getNode, idOf, Node, PLANNED_NODE, resolveSpace, waitWikiTask, WIKI } from "./common.ts";

export const move = defineShortcut({
  service: "wiki",
  command: "+move",
  description: "Move a wiki page (with its children) elsewhere, or move a Drive document into the wiki",
  examples: [
    "larkit wiki +move --node-token wikcnKQ1k3p --target-parent-token wikcnX9",
    "larkit wiki +move --obj-type docx --obj-token doxcnAbc --target-space-id 7034502641455497244",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["wiki:node:move", "wiki:node:read", "wiki:space:read"],
    bot: ["wiki:node:move", "wiki:node:read", "wiki:space:read"],
  },
  hasFormat: false,
  flags: {
    "node-token": flag.string("the wiki page to move"),
    "source-space-id": flag.string("its space (default: looked up from the node)"),
    "obj-type": flag.choice(
      ["docx", "doc", "sheet", "bitable", "mindnote", "file", "slides"] as const,
      "type of --obj-token",
      { default: "docx" },
    ),
    "obj-token": flag.string("a Drive document to move into the wiki (instead of --node-token)"),
    "target-space-id": flag.string("destination space (default: the page's own space)"),
    "target-parent-token": flag.string("destination parent page (default: the space's top level)"),
    apply: flag.boolean("without move permission on the document, send a request to its owner instead"),
    ...pollFlags(),
  },
  async run(ctx) {
    const f = ctx.flags;
    if (!f["node-token"] === !f["obj-token"]) {
      throw errors.validation("give exactly one of --node-token and --obj-token");
    }
    if (!f["target-space-id"] && !f["target-parent-token"]) {
      throw errors.validation("give --target-space-id, --target-parent-token or both");
    }
    const parent = f["target-parent-token"] && idOf(f["target-parent-token"], "target-parent-token");
    if (f["obj-token"]) {
      if (!f["target-space-id"]) throw errors.validation("moving a Drive document needs --target-space-id");
      const space = await resolveSpace(ctx, f["target-space-id"]);
      const answer = await ctx.api({
        method: "POST",
        path: `${WIKI}/spaces/${encodeURIComponent(space)}/nodes/move_docs_to_wiki`,
        body: {
          obj_type: f["obj-type"],
          obj_token: idOf(f["obj-token"], "obj-token"),
          parent_wiki_token: parent,
          apply: f.apply || undefined,
        },
        response: z.looseObject({
          wiki_token: z.optional(z.string()),
          task_id: z.optional(z.string()),
          applied: z.optional(z.boolean()),
        }),
        planned: { task_id: "<task_id>" },
      });
      // Done at once (wiki_token), sent to the owner for approval (applied), or a task to wait for.
      if (answer.task_id) await waitWikiTask(ctx, answer.task_id, "move", f);
      return await ctx.out({ space_id: space, ...answer });
    }
    const token = idOf(f["node-token"] as string, "node-token");
    const source = f["source-space-id"]
      ? idOf(f["source-space-id"], "source-space-id")
      : (await getNode(ctx, token)).space_id ?? "";
    if (!source) throw errors.api(`node ${token} has no space_id; pass --source-space-id`);
    const target = f["target-space-id"] ? await resolveSpace(ctx, f["target-space-id"]) : undefined;
    const { node } = await ctx.api({
      method: "POST",
      path: `${WIKI}/spaces/${encodeURIComponent(source)}/nodes/${encodeURIComponent(token)}/move`,
      body: { target_space_id: target, target_parent_token: parent },
      response: z.object({ node: Node }),
      planned: { node: { ...PLANNED_NODE, node_token: token } },
    });
    await ctx.out({ node });
  },
});

export const moveToDrive = defineShortcut({
  service: "wiki",
  command: "+move-to-drive",
  description: "Move a wiki page's document out of the wiki into a Drive folder, waiting for the task",
  examples: ["larkit wiki +move-to-drive --node-token wikcnKQ1k3p --folder-token fldcn123"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["space:document:move", "wiki:space:read"],
    bot: ["space:document:move", "wiki:space:read"],
  },
  hasFormat: false,
  flags: {
    "node-token": flag.requiredString("the wiki page to move out"),
    "folder-token": flag.string("destination folder (default: the root of My Space)"),
    ...pollFlags(),
  },
  async run(ctx) {
    const token = idOf(ctx.flags["node-token"], "node-token");
    const folder = ctx.flags["folder-token"];
    const answer = await ctx.api({
      method: "POST",
      path: `${WIKI}/nodes/${encodeURIComponent(token)}/move_wiki_to_docs`,
      body: { folder_token: folder && idOf(folder, "folder-token") },
      response: z.looseObject({ task_id: z.optional(z.string()), obj_token: z.optional(z.string()) }),
      planned: { task_id: "<task_id>" },
    });
    if (answer.task_id) await waitWikiTask(ctx, answer.task_id, "move", ctx.flags);
    await ctx.out({ node_token: token, ...answer });
  },
});
