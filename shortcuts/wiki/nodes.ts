/** `wiki +node-list`, `+node-get`, `+node-create`, `+node-copy`, `+node-delete`: pages in a space. */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag } from "../declare.ts";
import { grantRequester, pollFlags, tokenOf } from "../drive/common.ts";
import { listPages, pageFlags, PageInfo } from "../im/paging.ts";
import { getNode, idOf, Node, PLANNED_NODE, resolveSpace, waitWikiTask, WIKI } from "./common.ts";

const OBJ_TYPES = ["docx", "doc", "sheet", "bitable", "mindnote", "file", "slides"] as const;

function nodesText(data: unknown): string {
  const nodes = data as Node[];
  if (!nodes.length) return "no nodes";
  return nodes.map((n) =>
    `${n.node_token}  ${n.obj_type ?? ""}  ${n.title ?? ""}${n.has_child ? "  (+)" : ""}`
  )
    .join("\n");
}

export const nodeList = defineShortcut({
  service: "wiki",
  command: "+node-list",
  description: "List the pages of a wiki space, or the children of one page",
  examples: [
    "larkit wiki +node-list --space-id 7034502641455497244",
    "larkit wiki +node-list --space-id my_library --parent-node-token wikcnKQ1k3p --page-all",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["wiki:node:retrieve"], bot: ["wiki:node:retrieve"] },
  hasFormat: true,
  columns: ["title", "obj_type", "has_child", "node_token"],
  flags: {
    "space-id": flag.requiredString("space id (my_library: your personal library)"),
    "parent-node-token": flag.string("list this page's children (default: the top level)"),
    ...pageFlags({ default: 20, max: 50, noun: "nodes" }),
  },
  async run(ctx) {
    const parent = ctx.flags["parent-node-token"];
    const space = await resolveSpace(ctx, ctx.flags["space-id"]);
    const { pages, meta } = await listPages(ctx, ctx.flags, {
      method: "GET",
      path: `${WIKI}/spaces/${encodeURIComponent(space)}/nodes`,
      params: { parent_node_token: parent === undefined ? undefined : idOf(parent, "parent-node-token") },
      response: z.extend(PageInfo, { items: z._default(z.array(Node), []) }),
      planned: { items: [], has_more: false },
    });
    const nodes = pages.flatMap((p) => p.items);
    await ctx.outFormat(nodes, meta(nodes.length), nodesText);
  },
});

export const nodeGet = defineShortcut({
  service: "wiki",
  command: "+node-get",
  description: "Show a wiki page: its space, parent, and the document behind it",
  examples: [
    "larkit wiki +node-get --node-token wikcnKQ1k3p",
    "larkit wiki +node-get --token doxcnAbc123 --obj-type docx",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["wiki:node:retrieve"], bot: ["wiki:node:retrieve"] },
  hasFormat: true,
  flags: {
    "node-token": flag.string("wiki node token or wiki URL"),
    token: flag.string("a document's token (with --obj-type) to find its wiki node"),
    "obj-type": flag.choice(["wiki", ...OBJ_TYPES] as const, "what --token is", { default: "wiki" }),
  },
  async run(ctx) {
    const { "node-token": nodeToken, token } = ctx.flags;
    if (!nodeToken === !token) throw errors.validation("give exactly one of --node-token and --token");
    const node = nodeToken
      ? await getNode(ctx, tokenOf(nodeToken, "node-token"))
      : await getNode(ctx, tokenOf(token as string, "token"), ctx.flags["obj-type"]);
    await ctx.outFormat({ node }, undefined, () => nodesText([node]));
  },
});

export const nodeCreate = defineShortcut({
  service: "wiki",
  command: "+node-create",
  description:
    "Create a wiki page (a new document, or a shortcut to another page); as bot, the logged-in user gets full access",
  examples: [
    'larkit wiki +node-create --space-id 7034502641455497244 --title "Onboarding"',
    "larkit wiki +node-create --space-id my_library --parent-node-token wikcnKQ1k3p --obj-type sheet --title Budget",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["wiki:node:create", "wiki:node:read", "wiki:space:read"],
    bot: ["wiki:node:create", "wiki:node:read", "wiki:space:read", "docs:permission.member:create"],
  },
  hasFormat: false,
  flags: {
    "space-id": flag.requiredString("space id (my_library: your personal library)"),
    "parent-node-token": flag.string("create under this page (default: top level)"),
    title: flag.string("page title"),
    "node-type": flag.choice(
      ["origin", "shortcut"] as const,
      "a new page, or a shortcut to --origin-node-token",
      {
        default: "origin",
      },
    ),
    "obj-type": flag.choice(OBJ_TYPES, "document type of a new page", { default: "docx" }),
    "origin-node-token": flag.string("the page a shortcut points to (with --node-type shortcut)"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const origin = f["origin-node-token"];
    if ((f["node-type"] === "shortcut") !== (origin !== undefined)) {
      throw errors.validation("--origin-node-token goes with --node-type shortcut, and only with it");
    }
    const parent = f["parent-node-token"];
    const space = await resolveSpace(ctx, f["space-id"]);
    const { node } = await ctx.api({
      method: "POST",
      path: `${WIKI}/spaces/${encodeURIComponent(space)}/nodes`,
      body: {
        obj_type: f["obj-type"],
        node_type: f["node-type"],
        parent_node_token: parent === undefined ? undefined : idOf(parent, "parent-node-token"),
        origin_node_token: origin === undefined ? undefined : idOf(origin, "origin-node-token"),
        title: f.title,
      },
      response: z.object({ node: Node }),
      planned: { node: { ...PLANNED_NODE, space_id: space, title: f.title } },
    });
    const grant = await grantRequester(ctx, node.node_token, "wiki");
    await ctx.out({ node, ...grant });
  },
});

export const nodeCopy = defineShortcut({
  service: "wiki",
  command: "+node-copy",
  description: "Copy a wiki page (and the document behind it) to another place or space",
  examples: [
    "larkit wiki +node-copy --space-id 7034502641455497244 --node-token wikcnKQ1k3p --target-parent-node-token wikcnX9 --yes",
  ],
  risk: "high-risk-write",
  authTypes: ["user", "bot"],
  scopes: { user: ["wiki:node:copy"], bot: ["wiki:node:copy"] },
  hasFormat: false,
  flags: {
    "space-id": flag.requiredString("space of the page to copy"),
    "node-token": flag.requiredString("page to copy"),
    "target-space-id": flag.string("copy into this space (default: the same one)"),
    "target-parent-node-token": flag.string("copy under this page"),
    title: flag.string("title of the copy"),
  },
  async run(ctx) {
    const f = ctx.flags;
    if (!f["target-space-id"] && !f["target-parent-node-token"]) {
      throw errors.validation("give --target-space-id, --target-parent-node-token or both");
    }
    const space = await resolveSpace(ctx, f["space-id"]);
    const node = idOf(f["node-token"], "node-token");
    const target = f["target-parent-node-token"];
    const copied = await ctx.api({
      method: "POST",
      path: `${WIKI}/spaces/${encodeURIComponent(space)}/nodes/${encodeURIComponent(node)}/copy`,
      body: {
        target_space_id: f["target-space-id"] && idOf(f["target-space-id"], "target-space-id"),
        target_parent_token: target && idOf(target, "target-parent-node-token"),
        title: f.title,
      },
      response: z.object({ node: Node }),
      planned: { node: { ...PLANNED_NODE, title: f.title } },
    });
    await ctx.out(copied);
  },
});

export const nodeDelete = defineShortcut({
  service: "wiki",
  command: "+node-delete",
  description: "Delete a wiki page (and, with --include-children, the pages under it), waiting for the task",
  examples: ["larkit wiki +node-delete --node-token wikcnKQ1k3p --yes"],
  risk: "high-risk-write",
  authTypes: ["user", "bot"],
  scopes: { user: ["wiki:node:create"], bot: ["wiki:node:create"] },
  hasFormat: false,
  flags: {
    "node-token": flag.requiredString("page to delete (node token or wiki URL)"),
    "space-id": flag.string("its space (default: looked up from the node)"),
    "include-children": flag.boolean(
      "also delete the pages under it (otherwise a page with children is refused)",
    ),
    ...pollFlags(),
  },
  async run(ctx) {
    const token = tokenOf(ctx.flags["node-token"], "node-token");
    const node = await getNode(ctx, token);
    const given = ctx.flags["space-id"];
    const space = given ? idOf(given, "space-id") : node.space_id;
    if (!space) throw errors.api(`node ${token} has no space_id; pass --space-id`);
    if (node.has_child && !ctx.flags["include-children"]) {
      throw errors.validation(`node ${token} has child pages; add --include-children to delete them too`);
    }
    const answer = await ctx.api({
      method: "DELETE",
      path: `${WIKI}/spaces/${encodeURIComponent(space)}/nodes/${encodeURIComponent(token)}`,
      params: { include_children: ctx.flags["include-children"] || undefined },
      response: z.looseObject({ task_id: z.optional(z.string()) }),
      planned: { task_id: "<task_id>" },
    });
    if (answer.task_id) await waitWikiTask(ctx, answer.task_id, "node deletion", ctx.flags);
    await ctx.out({ node_token: token, space_id: space, deleted: true, task_id: answer.task_id });
  },
});
