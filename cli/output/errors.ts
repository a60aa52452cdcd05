/**
 * Errors are values. Every failure larkit reports is a `LarkitError` built here. Its envelope follows the
 * reference CLI's error contract v2: `type` is one of nine categories with a fixed exit code, `subtype` is
 * larkit's finer class, `retryable` says whether re-running the same command is safe and may succeed, and
 * `code`, `hint`, `log_id`, `missing_scopes`, `console_url` appear where known.
 *
 * larkit's own outcomes -- a write whose outcome is unknown, a replay that met an unrecorded request, an
 * interrupted run -- are types of their own, with exit codes that collide with none of the reference's, so a
 * script never mistakes "it may have happened" for a policy refusal. The README's table is generated from
 * `ERROR_TYPES`/`ERROR_SUBTYPES` by a test.
 */

/** The reference's nine categories, then larkit's own outcomes. */
export const ERROR_TYPES = [
  "api",
  "validation",
  "authentication",
  "authorization",
  "config",
  "network",
  "internal",
  "policy",
  "confirmation",
  "replay_mismatch",
  "outcome_unknown",
  "interrupted",
] as const;

export type ErrorType = typeof ERROR_TYPES[number];

/** Exit code of each type; `reference` marks the reference CLI's own categories (and numbers). */
export const EXIT_CODES: Record<ErrorType, { exit: number; reference: boolean }> = {
  api: { exit: 1, reference: true },
  validation: { exit: 2, reference: true },
  authentication: { exit: 3, reference: true },
  authorization: { exit: 3, reference: true },
  config: { exit: 3, reference: true },
  network: { exit: 4, reference: true },
  internal: { exit: 5, reference: true },
  policy: { exit: 6, reference: true },
  confirmation: { exit: 10, reference: true },
  replay_mismatch: { exit: 7, reference: false },
  outcome_unknown: { exit: 8, reference: false },
  interrupted: { exit: 130, reference: false },
};

/** larkit's finer classes: each belongs to one type and says whether re-running the same command is safe. */
export const ERROR_SUBTYPES = {
  api_error: { type: "api", retryable: false, meaning: "a business error code" },
  not_found: { type: "api", retryable: false, meaning: "the addressed resource does not exist" },
  conflict: {
    type: "api",
    retryable: true,
    meaning: "a concurrent or duplicate request conflicted (nothing was done)",
  },
  rate_limit: { type: "api", retryable: true, meaning: "rate limited, larkit's retries exhausted" },
  mcp_error: { type: "api", retryable: false, meaning: "the MCP tool call failed" },
  validation: { type: "validation", retryable: false, meaning: "a flag or input value is invalid" },
  usage: { type: "validation", retryable: false, meaning: "unknown command or flag, missing argument" },
  jq_error: { type: "validation", retryable: false, meaning: "the --jq expression failed at run time" },
  auth: { type: "authentication", retryable: false, meaning: "log in or configure the app" },
  missing_scope: {
    type: "authorization",
    retryable: false,
    meaning: "the token lacks a scope the command declares",
  },
  permission: { type: "authorization", retryable: false, meaning: "a permission the suite or host checked" },
  app_status: { type: "authorization", retryable: false, meaning: "the app is disabled or not installed" },
  config: { type: "config", retryable: false, meaning: "not configured, bad config file, unknown profile" },
  network: { type: "network", retryable: true, meaning: "the request could not be sent, or no answer" },
  timeout: { type: "network", retryable: true, meaning: "the request or wait timed out" },
  internal: { type: "internal", retryable: false, meaning: "a bug or an unexpected local failure" },
  strict_mode: { type: "policy", retryable: false, meaning: "the identity is forbidden by strict mode" },
  challenge_required: {
    type: "policy",
    retryable: false,
    meaning: "the suite's security policy asks for a challenge (21000)",
  },
  access_denied: { type: "policy", retryable: false, meaning: "the suite's security policy refused (21001)" },
  confirmation_required: {
    type: "confirmation",
    retryable: false,
    meaning: "a high-risk write needs --yes or a y at the prompt",
  },
  replay_mismatch: {
    type: "replay_mismatch",
    retryable: false,
    meaning: "the request differs from the recording",
  },
  outcome_unknown: {
    type: "outcome_unknown",
    retryable: false,
    meaning: "follow the hint: it names the safe re-run or the read that tells",
  },
  sigint: {
    type: "interrupted",
    retryable: false,
    meaning: "SIGINT (Ctrl-C), or the host interrupted a turn",
  },
  sigterm: { type: "interrupted", retryable: false, meaning: "SIGTERM" },
  broken_pipe: {
    type: "interrupted",
    retryable: false,
    meaning: "stdout was closed by its reader (e.g. head): the run ends quietly, no envelope",
  },
} as const satisfies Record<string, { type: ErrorType; retryable: boolean; meaning: string }>;

export type ErrorSubtype = keyof typeof ERROR_SUBTYPES;

/** The subtype names, for schemas of messages that carry an error between processes. */
export const ERROR_SUBTYPE_NAMES = Object.keys(ERROR_SUBTYPES) as [ErrorSubtype, ...ErrorSubtype[]];

/** Subtypes whose exit code is not their type's: a signal's conventional 128 + its number. */
const SUBTYPE_EXITS: Partial<Record<ErrorSubtype, number>> = { sigterm: 143, broken_pipe: 141 };

export function typeOf(subtype: ErrorSubtype): ErrorType {
  return ERROR_SUBTYPES[subtype].type;
}

export function exitCodeOf(subtype: ErrorSubtype): number {
  return SUBTYPE_EXITS[subtype] ?? EXIT_CODES[typeOf(subtype)].exit;
}

export interface ErrorBody {
  type: ErrorType;
  subtype: ErrorSubtype;
  message: string;
  /** Re-running the same command is safe and may succeed. */
  retryable: boolean;
  hint?: string;
  code?: number | string;
  log_id?: string;
  /** Permission errors: the scopes the suite or the command said are missing. */
  missing_scopes?: string[];
  /** App scopes: the developer-console page where an admin grants `missing_scopes`. */
  console_url?: string;
  detail?: unknown;
}

export type Extra = Omit<ErrorBody, "type" | "subtype" | "message" | "retryable"> & { retryable?: boolean };

export class LarkitError extends Error {
  readonly body: ErrorBody;
  constructor(subtype: ErrorSubtype, message: string, extra: Extra = {}) {
    super(message);
    this.name = "LarkitError";
    const { retryable, ...rest } = extra;
    this.body = {
      type: typeOf(subtype),
      subtype,
      message,
      retryable: retryable ?? ERROR_SUBTYPES[subtype].retryable,
      ...rest,
    };
  }
  get type(): ErrorType {
    return this.body.type;
  }
  get subtype(): ErrorSubtype {
    return this.body.subtype;
  }
  get hint(): string | undefined {
    return this.body.hint;
  }
  get exitCode(): number {
    return exitCodeOf(this.body.subtype);
  }
}

export function larkitError(subtype: ErrorSubtype, message: string, extra: Extra = {}): LarkitError {
  return new LarkitError(subtype, message, extra);
}

/** The console page where an admin grants app scopes (the reference's `console_url`). */
export function scopeConsoleUrl(openOrigin: string, appId: string, scopes: string[]): string {
  const url = new URL("/page/scope-apply", openOrigin);
  url.searchParams.set("clientID", appId);
  url.searchParams.set("scopes", scopes.join(","));
  return url.toString();
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
  /** The run was stopped by a signal (or its host): exit 128 + the signal's number. */
  interrupted: (signal: "SIGINT" | "SIGTERM", why = `interrupted by ${signal}`) =>
    larkitError(signal === "SIGTERM" ? "sigterm" : "sigint", why, {
      hint: "the command did not finish; a write it had sent may or may not have taken effect",
      detail: { signal },
    }),
  /** stdout was closed by its reader: the command ends quietly (no envelope), exit 141 as SIGPIPE would. */
  brokenPipe: () => larkitError("broken_pipe", "stdout was closed by its reader"),
};

/**
 * The run's interrupt told with what it means where it struck: the safe next step as `hint`, more `detail`
 * (a write's key). Any other reason is returned as it is.
 */
export function interruptedWith(
  reason: unknown,
  extra: { hint: string; detail?: Record<string, unknown> },
): unknown {
  if (!(reason instanceof LarkitError) || reason.type !== "interrupted") return reason;
  const { type: _type, subtype, message, detail, ...rest } = reason.body;
  return new LarkitError(subtype, message, {
    ...rest,
    hint: extra.hint,
    detail: { ...(detail as Record<string, unknown> | undefined), ...extra.detail },
  });
}

/** Anything thrown becomes a LarkitError; unknown throwables are `internal` (a bug, said as such). */
export function toLarkitError(e: unknown): LarkitError {
  if (e instanceof LarkitError) return e;
  if (e instanceof DOMException && e.name === "AbortError") return errors.interrupted("SIGINT", e.message);
  if (e instanceof DOMException && e.name === "TimeoutError") {
    return errors.timeout(e.message, { hint: "retry later" });
  }
  // A path larkit keeps its state under runs through a file: the configured directory is wrong, not larkit.
  if (e instanceof Error && e.name === "NotADirectory") {
    return errors.config(`a path under larkit's directories is not a directory: ${e.message}`, {
      hint:
        "point LARKIT_CONFIG_DIR (or LARKIT_STATE_DIR, LARKIT_CACHE_DIR) at a directory (created if missing)",
    });
  }
  const message = e instanceof Error ? e.message : String(e);
  return larkitError("internal", `unexpected error: ${message}`, {
    hint: "this is a bug in larkit; re-run with --debug and report the output",
  });
}
