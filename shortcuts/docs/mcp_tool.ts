/**
 * The docs shortcuts reach documents through the suite's MCP tools (`create-doc`, `fetch-doc`, `update-doc`)
 * with `ctx.mcp`; the tools' arguments and the flag every one of them has (`--timeout`) are built here.
 */
import { flag } from "../declare.ts";

/**
 * `--timeout`: seconds to wait for the tool's answer, as the drive shortcuts' `--timeout` waits for a task. A
 * server that reports progress (a long conversion) restarts the wait with each report.
 */
export function mcpTimeout() {
  return flag.integer(
    "seconds to wait for the MCP tool's answer; progress the server reports restarts the wait",
    {
      default: 60,
      min: 1,
      max: 3600,
    },
  );
}

/** Drops absent arguments, so the tool sees only what the user gave. */
export function toolArgs(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}

/** A value as one POSIX shell word, for the command a hint names. */
export function shellQuoted(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
