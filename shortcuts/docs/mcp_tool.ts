/**
 * The docs shortcuts reach documents through the suite's MCP tools (`create-doc`, `fetch-doc`, `update-doc`)
 * with `ctx.mcp`; the tools' arguments are built here.
 */

/** Drops absent arguments, so the tool sees only what the user gave. */
export function toolArgs(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}
