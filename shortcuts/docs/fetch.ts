/**
 * `docs +fetch`: a document as markdown, through the MCP tool `fetch-doc`. Long documents come in slices:
 * `--offset`/`--limit` count characters, and `has_more` says whether more follows.
 */
import { z } from "zod";
import { defineShortcut, flag, type FlagValues } from "../declare.ts";
import { toolArgs } from "./mcp_tool.ts";

const MAX = Number.MAX_SAFE_INTEGER;

const flags = {
  doc: flag.requiredString("document URL or token"),
  offset: flag.integer("first character to return", { default: 0, min: 0, max: MAX }),
  limit: flag.integer("characters to return (0 = to the end)", { default: 0, min: 0, max: MAX }),
};

export function fetchArgs(f: FlagValues<typeof flags>): Record<string, unknown> {
  return toolArgs({ doc: f.doc, offset: f.offset || undefined, limit: f.limit || undefined });
}

const Fetched = z.looseObject({
  doc_id: z.string(),
  title: z.string().optional(),
  markdown: z.string(),
  has_more: z.boolean().optional(),
});

export const fetchDoc = defineShortcut({
  service: "docs",
  command: "+fetch",
  description: "Fetch a document as markdown (through the suite's MCP fetch-doc tool)",
  examples: [
    "larkit docs +fetch --doc doxcnAbc123",
    "larkit docs +fetch --doc https://example.feishu.cn/docx/doxcnAbc123 --format pretty",
    "larkit docs +fetch --doc doxcnAbc123 --offset 4000 --limit 4000 --jq .data.markdown",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["docx:document:readonly"], bot: ["docx:document:readonly"] },
  hasFormat: true,
  flags,
  async run(ctx) {
    const doc = await ctx.mcp({
      tool: "fetch-doc",
      args: fetchArgs(ctx.flags),
      write: false,
      response: Fetched,
      planned: { doc_id: "<doc_id>", markdown: "" },
    });
    await ctx.outFormat(doc, undefined, (d) => {
      const { title, markdown } = d as z.infer<typeof Fetched>;
      return `${title ? `# ${title}\n\n` : ""}${markdown}${markdown.endsWith("\n") ? "" : "\n"}`;
    });
  },
});
