/**
 * `docs +fetch`: a document as markdown, through the MCP tool `fetch-doc`. Long documents come in slices:
 * `--offset`/`--limit` count characters, and `has_more` says whether more follows.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type FlagValues } from "../declare.ts";
import { mcpTimeout, toolArgs } from "./mcp_tool.ts";

const MAX = Number.MAX_SAFE_INTEGER;

const flags = {
  doc: flag.requiredString("document URL or token"),
  offset: flag.integer("first character to return", { default: 0, min: 0, max: MAX }),
  limit: flag.integer("characters to return (0 = to the end)", { default: 0, min: 0, max: MAX }),
  scope: flag.choice(
    ["full", "outline", "section", "keyword"] as const,
    "what to return: everything (--offset/--limit slice it), the headings, one section (--section), or the lines around --keyword",
    { default: "full" },
  ),
  section: flag.string(
    "with --scope section: the heading's text (its section up to the next heading of its level)",
  ),
  keyword: flag.string("with --scope keyword: the text to find (case-insensitive)"),
  "context-lines": flag.integer("with --scope keyword: lines kept around each match", {
    default: 2,
    min: 0,
    max: 50,
  }),
  timeout: mcpTimeout(),
};

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

/**
 * The part of a document's markdown a scope asks for. Pure, on the whole text: a scope never edits, it only
 * selects lines, so what it returns is exactly what the document says.
 */
export function scoped(markdown: string, f: FlagValues<typeof flags>): string {
  const lines = markdown.split("\n");
  if (f.scope === "outline") return lines.filter((l) => HEADING.test(l)).join("\n");
  if (f.scope === "section") {
    const want = (f.section ?? "").replace(/^#+\s*/, "").trim().toLowerCase();
    const start = lines.findIndex((l) => HEADING.exec(l)?.[2].toLowerCase() === want);
    if (start < 0) {
      throw errors.notFound(`no heading "${f.section}" in the document`, {
        hint: "list them with --scope outline",
      });
    }
    const level = (HEADING.exec(lines[start]) as RegExpExecArray)[1].length;
    const end = lines.findIndex((l, i) => i > start && (HEADING.exec(l)?.[1].length ?? 7) <= level);
    return lines.slice(start, end < 0 ? undefined : end).join("\n").trimEnd();
  }
  if (f.scope === "keyword") {
    const needle = (f.keyword ?? "").toLowerCase();
    const keep = new Set<number>();
    lines.forEach((l, i) => {
      if (!l.toLowerCase().includes(needle)) return;
      for (
        let j = Math.max(0, i - f["context-lines"]);
        j <= Math.min(lines.length - 1, i + f["context-lines"]);
        j++
      ) keep.add(j);
    });
    return [...keep].sort((a, b) => a - b).map((i) => lines[i]).join("\n");
  }
  return markdown;
}

function checkScope(f: FlagValues<typeof flags>): void {
  if (f.scope !== "full" && (f.offset || f.limit)) {
    throw errors.validation("--offset/--limit slice the full text; drop them with --scope " + f.scope);
  }
  if ((f.scope === "section") !== (f.section !== undefined)) {
    throw errors.validation("--section goes with --scope section, and --scope section needs it");
  }
  if ((f.scope === "keyword") !== (f.keyword !== undefined)) {
    throw errors.validation("--keyword goes with --scope keyword, and --scope keyword needs it");
  }
}

export function fetchArgs(f: FlagValues<typeof flags>): Record<string, unknown> {
  return toolArgs({ doc: f.doc, offset: f.offset || undefined, limit: f.limit || undefined });
}

const Fetched = z.looseObject({
  doc_id: z.string(),
  title: z.optional(z.string()),
  markdown: z.string(),
  has_more: z.optional(z.boolean()),
});

export const fetchDoc = defineShortcut({
  service: "docs",
  command: "+fetch",
  description: "Fetch a document as markdown (through the suite's MCP fetch-doc tool)",
  examples: [
    "larkit docs +fetch --doc doxcnAbc123",
    "larkit docs +fetch --doc https://example.feishu.cn/docx/doxcnAbc123 --format pretty",
    "larkit docs +fetch --doc doxcnAbc123 --offset 4000 --limit 4000 --jq .data.markdown",
    "larkit docs +fetch --doc doxcnAbc123 --scope outline",
    'larkit docs +fetch --doc doxcnAbc123 --scope section --section "Setup"',
    "larkit docs +fetch --doc doxcnAbc123 --scope keyword --keyword deadline --context-lines 1",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: ["docx:document:readonly"], bot: ["docx:document:readonly"] },
  hasFormat: true,
  flags,
  async run(ctx) {
    checkScope(ctx.flags);
    const fetched = await ctx.mcp({
      tool: "fetch-doc",
      args: fetchArgs(ctx.flags),
      write: false,
      timeout: ctx.flags.timeout,
      response: Fetched,
      // The plan's stand-in holds the asked-for heading, so selecting it cannot fail before anything is sent.
      planned: { doc_id: "<doc_id>", markdown: ctx.flags.section ? `# ${ctx.flags.section}` : "" },
    });
    const doc = ctx.flags.scope === "full" ? fetched : {
      ...fetched,
      markdown: scoped(fetched.markdown, ctx.flags),
      scope: ctx.flags.scope,
      has_more: false,
    };
    await ctx.outFormat(doc, undefined, (d) => {
      const { title, markdown } = d as z.infer<typeof Fetched>;
      return `${title ? `# ${title}\n\n` : ""}${markdown}${markdown.endsWith("\n") ? "" : "\n"}`;
    });
  },
});
