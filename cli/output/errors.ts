/**
 * Errors are values. Every failure larkit reports is a `LarkitError` built here, carrying a `type` from a
 * closed enumeration, a message, an optional hint, and a stable process exit code per type.
 *
 * Exit codes keep lark-cli's numbers for the classes it has (so scripts written for it keep working) and
 * give new classes new numbers. The README's exit-code table is generated from `EXIT_CODES` by a test.
 */

export const ERROR_TYPES = [
  "validation",
  "usage",
  "config",
  "auth",
  "missing_scope",
  "permission",
  "not_found",
  "conflict",
  "rate_limit",
  "api_error",
  "mcp_error",
  "jq_error",
  "app_status",
  "network",
  "timeout",
  "confirmation_required",
  "strict_mode",
  "outcome_unknown",
  "replay_mismatch",
  "internal",
] as const;

export type ErrorType = typeof ERROR_TYPES[number];

/** One line per type: exit code and what the class means (rendered into the README). */
export const EXIT_CODES: Record<ErrorType, { exit: number; meaning: string }> = {
  api_error: { exit: 1, meaning: "the suite answered with a business error code" },
  permission: { exit: 1, meaning: "the app or user lacks a permission the suite checked" },
  not_found: { exit: 1, meaning: "the addressed resource does not exist" },
  conflict: { exit: 1, meaning: "a concurrent or duplicate request conflicted" },
  rate_limit: { exit: 1, meaning: "rate limited, retries exhausted" },
  mcp_error: { exit: 1, meaning: "the MCP tool call failed" },
  jq_error: { exit: 1, meaning: "the --jq expression failed at run time" },
  validation: { exit: 2, meaning: "a flag or input value is invalid" },
  usage: { exit: 2, meaning: "unknown command or flag, missing argument" },
  config: { exit: 2, meaning: "not configured, bad config file, unknown profile" },
  confirmation_required: { exit: 2, meaning: "a high-risk write needs --yes" },
  strict_mode: { exit: 2, meaning: "the identity is forbidden by strict mode" },
  auth: { exit: 3, meaning: "no valid credentials: log in or configure the app" },
  missing_scope: { exit: 3, meaning: "the token lacks a scope the command declares" },
  app_status: { exit: 3, meaning: "the app is disabled or not installed" },
  network: { exit: 4, meaning: "the request could not be sent or no response arrived" },
  timeout: { exit: 4, meaning: "the request or poll timed out" },
  internal: { exit: 5, meaning: "a bug or an unexpected local failure" },
  outcome_unknown: { exit: 6, meaning: "a write was sent but its response was lost: it may have happened" },
  replay_mismatch: { exit: 7, meaning: "--replay met a request that the recording does not hold" },
};

export interface ErrorBody {
  type: ErrorType;
  message: string;
  hint?: string;
  code?: number | string;
  log_id?: string;
  detail?: unknown;
}

export class LarkitError extends Error {
  readonly body: ErrorBody;
  constructor(body: ErrorBody) {
    super(body.message);
    this.name = "LarkitError";
    this.body = body;
  }
  get type(): ErrorType {
    return this.body.type;
  }
  get hint(): string | undefined {
    return this.body.hint;
  }
  get exitCode(): number {
    return exitCodeOf(this.body.type);
  }
}

export function exitCodeOf(type: ErrorType): number {
  return EXIT_CODES[type].exit;
}

type Extra = Omit<ErrorBody, "type" | "message">;

export function larkitError(type: ErrorType, message: string, extra: Extra = {}): LarkitError {
  return new LarkitError({ type, message, ...extra });
}

export const errors = {
  validation: (message: string, extra?: Extra) => larkitError("validation", message, extra),
  usage: (message: string, extra?: Extra) => larkitError("usage", message, extra),
  config: (message: string, extra?: Extra) => larkitError("config", message, extra),
  auth: (message: string, extra?: Extra) => larkitError("auth", message, extra),
  missingScope: (message: string, extra?: Extra) => larkitError("missing_scope", message, extra),
  permission: (message: string, extra?: Extra) => larkitError("permission", message, extra),
  notFound: (message: string, extra?: Extra) => larkitError("not_found", message, extra),
  rateLimit: (message: string, extra?: Extra) => larkitError("rate_limit", message, extra),
  api: (message: string, extra?: Extra) => larkitError("api_error", message, extra),
  mcp: (message: string, extra?: Extra) => larkitError("mcp_error", message, extra),
  jq: (message: string, extra?: Extra) => larkitError("jq_error", message, extra),
  network: (message: string, extra?: Extra) => larkitError("network", message, extra),
  timeout: (message: string, extra?: Extra) => larkitError("timeout", message, extra),
  confirmationRequired: (message: string, extra?: Extra) =>
    larkitError("confirmation_required", message, extra),
  strictMode: (message: string, extra?: Extra) => larkitError("strict_mode", message, extra),
  outcomeUnknown: (message: string, extra?: Extra) => larkitError("outcome_unknown", message, extra),
  replayMismatch: (message: string, extra?: Extra) => larkitError("replay_mismatch", message, extra),
  internal: (message: string, extra?: Extra) => larkitError("internal", message, extra),
};

/** Anything thrown becomes a LarkitError; unknown throwables are `internal` (a bug, said as such). */
export function toLarkitError(e: unknown): LarkitError {
  if (e instanceof LarkitError) return e;
  if (e instanceof DOMException && e.name === "AbortError") {
    return larkitError("network", "the request was cancelled", { hint: "the command was interrupted" });
  }
  const message = e instanceof Error ? e.message : String(e);
  return larkitError("internal", `unexpected error: ${message}`, {
    hint: "this is a bug in larkit; re-run with --debug and report the output",
  });
}
