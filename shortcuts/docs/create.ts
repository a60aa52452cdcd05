/**
 * `docs +create`: a document from Lark-flavoured markdown, created through the MCP tool `create-doc` (the
 * suite converts markdown to blocks there). Flags, envelope and errors are those of any OpenAPI shortcut.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type FlagValues } from "../declare.ts";
import { grantRequester } from "../drive/common.ts";
import { mcpTimeout, shellQuoted, toolArgs } from "./mcp_tool.ts";

const flags = {
  title: flag.string("document title"),
  markdown: flag.requiredString("document content (Lark-flavoured markdown)", { input: ["file", "stdin"] }),
  "folder-token": flag.string("parent folder token (default: the root of My Space)"),
  "wiki-node": flag.string("wiki node token to create the document under"),
  "wiki-space": flag.string("wiki space ID (my_library = personal library)"),
  timeout: mcpTimeout(),
};

export function createArgs(f: FlagValues<typeof flags>): Record<string, unknown> {
  const places = (["folder-token", "wiki-node", "wiki-space"] as const).filter((k) => f[k] !== undefined);
  if (places.length > 1) {
    throw errors.validation("--folder-token, --wiki-node, and --wiki-space are mutually exclusive", {
      hint: "give at most one place for the new document",
    });
  }
  return toolArgs({
    markdown: f.markdown,
    title: f.title,
    folder_token: f["folder-token"],
    wiki_node: f["wiki-node"],
    wiki_space: f["wiki-space"],
  });
}

/** The read that shows whether a create whose answer was lost made the document: by title, else its folder. */
function createdCheck(f: FlagValues<typeof flags>): string {
  if (f.title !== undefined) return `larkit docs +search --query ${shellQuoted(f.title)}`;
  const folder = f["folder-token"]
    ? ` --params ${shellQuoted(JSON.stringify({ folder_token: f["folder-token"] }))}`
    : "";
  return `larkit drive files list${folder}`;
}

const Created = z.looseObject({ doc_id: z.string(), doc_url: z.optional(z.string()) });

export const createDoc = defineShortcut({
  service: "docs",
  command: "+create",
  description: "Create a document from markdown (through the suite's MCP create-doc tool)",
  examples: [
    'larkit docs +create --title "Weekly notes" --markdown @notes.md',
    "cat plan.md | larkit docs +create --title Plan --markdown -",
    'larkit docs +create --markdown "# Hello" --folder-token fldcn123 --dry-run',
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  // As the bot, the new document is the app's: the logged-in user is granted full access so they can open it.
  scopes: { user: ["docx:document:create"], bot: ["docx:document:create", "docs:permission.member:create"] },
  hasFormat: false,
  flags,
  async run(ctx) {
    const created = await ctx.mcp({
      tool: "create-doc",
      args: createArgs(ctx.flags),
      write: true,
      timeout: ctx.flags.timeout,
      verify: createdCheck(ctx.flags),
      response: Created,
      planned: { doc_id: "<doc_id>" },
    });
    await ctx.out({ ...created, ...await grantRequester(ctx, created.doc_id, "docx") });
  },
});
