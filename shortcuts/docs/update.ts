/**
 * `docs +update`: edits a document through the MCP tool `update-doc`. `append` and `overwrite` take only
 * `--markdown`; the range modes locate their target with exactly one selection (`--selection-with-ellipsis
 * "start...end"` or `--selection-by-title "## Section"`); `delete_range` takes no markdown.
 */
import * as z from "zod";
import { errors } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type FlagValues } from "../declare.ts";
import { mcpTimeout, shellQuoted, toolArgs } from "./mcp_tool.ts";

export const UPDATE_MODES = [
  "append",
  "overwrite",
  "replace_range",
  "replace_all",
  "insert_before",
  "insert_after",
  "delete_range",
] as const;

const flags = {
  doc: flag.requiredString("document URL or token"),
  mode: flag.requiredChoice(UPDATE_MODES, "update mode"),
  markdown: flag.string("new content (Lark-flavoured markdown)", { input: ["file", "stdin"] }),
  "selection-with-ellipsis": flag.string("content locator, e.g. 'start...end'"),
  "selection-by-title": flag.string("title locator, e.g. '## Section'"),
  "new-title": flag.string("also set the document title"),
  timeout: mcpTimeout(),
};

/** The tool arguments, or a `validation` error when the flags do not fit the mode. */
export function updateArgs(f: FlagValues<typeof flags>): Record<string, unknown> {
  const selections = (["selection-with-ellipsis", "selection-by-title"] as const).filter((k) =>
    f[k] !== undefined
  );
  const ranged = f.mode !== "append" && f.mode !== "overwrite";
  if (selections.length > 1) {
    throw errors.validation("--selection-with-ellipsis and --selection-by-title are mutually exclusive");
  }
  if (ranged && selections.length === 0) {
    throw errors.validation(`--mode ${f.mode} needs --selection-with-ellipsis or --selection-by-title`, {
      hint: `e.g. --selection-by-title "## Status"`,
    });
  }
  if (!ranged && selections.length > 0) {
    throw errors.validation(`--mode ${f.mode} takes no selection; drop --${selections[0]}`);
  }
  if (f.mode === "delete_range" && f.markdown !== undefined) {
    throw errors.validation("--mode delete_range takes no --markdown");
  }
  if (f.mode !== "delete_range" && f.markdown === undefined) {
    throw errors.validation(`--mode ${f.mode} needs --markdown`, {
      hint: "pass it inline, as @file.md, or - for stdin",
    });
  }
  return toolArgs({
    doc: f.doc,
    mode: f.mode,
    markdown: f.markdown,
    selection_with_ellipsis: f["selection-with-ellipsis"],
    selection_by_title: f["selection-by-title"],
    new_title: f["new-title"],
  });
}

const Updated = z.looseObject({ doc_id: z.string() });

export const updateDoc = defineShortcut({
  service: "docs",
  command: "+update",
  description: "Update a document: append, overwrite, or edit a located range (through MCP update-doc)",
  examples: [
    'larkit docs +update --doc doxcnAbc123 --mode append --markdown "## Next steps"',
    'larkit docs +update --doc doxcnAbc123 --mode replace_range --selection-by-title "## Status" --markdown @status.md',
    'larkit docs +update --doc doxcnAbc123 --mode delete_range --selection-with-ellipsis "Draft...end of draft"',
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: {
    user: ["docx:document:write_only", "docx:document:readonly"],
    bot: ["docx:document:write_only", "docx:document:readonly"],
  },
  hasFormat: false,
  flags,
  async run(ctx) {
    const updated = await ctx.mcp({
      tool: "update-doc",
      args: updateArgs(ctx.flags),
      write: true,
      timeout: ctx.flags.timeout,
      verify: `larkit docs +fetch --doc ${shellQuoted(ctx.flags.doc)}`,
      response: Updated,
      planned: { doc_id: "<doc_id>" },
    });
    await ctx.out(updated);
  },
});
