/**
 * The docs shortcuts reach documents through the suite's MCP tools (`create-doc`, `fetch-doc`, `update-doc`):
 * the call as the resolved identity, and its dry-run form (the tool call, not sent).
 */
import { callMcpTool, plannedToolCall } from "../../cli/http/mcp.ts";
import type { DryRunPlan, FlagSpecs, ShortcutContext } from "../declare.ts";

/** Drops absent arguments, so the tool sees only what the user gave. */
export function toolArgs(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}

export function planTool<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  tool: string,
  args: Record<string, unknown>,
): DryRunPlan {
  return { api: [plannedToolCall(ctx.account.endpoints.mcp, tool, args)], mcp_tool: tool, args };
}

export async function runTool<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  tool: string,
  args: Record<string, unknown>,
  opts: { idempotent: boolean },
): Promise<unknown> {
  return await callMcpTool(
    { p: ctx.p, http: ctx.client, credentials: ctx.run.credentials() },
    { tool, arguments: args, identity: ctx.identity, idempotent: opts.idempotent },
  );
}
