/**
 * When to retry a request, and after how long. Pure: the client feeds it what happened and sleeps as told.
 *
 * - 429: the suite refused the request before doing anything, so any method may be retried, after the
 *   `Retry-After` / `x-ogw-ratelimit-reset` wait when the suite states one.
 * - 5xx and network failures: retried only when repeating the request cannot do the work twice: reads,
 *   PUT/DELETE, writes carrying a de-duplication key, or a request that provably never left (connect failed).
 *   A non-idempotent write whose response was lost is NOT retried: its outcome is unknown.
 * - Backoff is exponential with jitter (half fixed, half random) so that many clients do not retry in step.
 */

export interface RetryPolicy {
  maxRetries: number;
  baseMs: number;
  /** Longest single wait; a suite asking for longer is not waited for (the error is returned instead). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseMs: 500, maxDelayMs: 30_000 };

export type Outcome =
  | { kind: "response"; status: number; headers: Headers }
  /** `sent`: the request may have reached the server (anything but a failed connect). */
  | { kind: "network"; sent: boolean };

export type Decision = { retry: false } | { retry: true; delayMs: number; reason: string };

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

export function isIdempotentMethod(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/** The wait the suite asked for, in ms: `Retry-After` (seconds or HTTP date), else the gateway reset header. */
export function requestedWaitMs(headers: Headers, now: number): number | undefined {
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const reset = headers.get("x-ogw-ratelimit-reset")?.trim();
  if (reset && /^\d+$/.test(reset)) return Number(reset) * 1000;
  return undefined;
}

/** Exponential backoff with jitter: attempt 0 -> 250-500 ms, 1 -> 500-1000 ms, ... (`random01` in [0, 1)). */
export function backoffMs(attempt: number, policy: RetryPolicy, random01: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random01);
}

export function decideRetry(
  outcome: Outcome,
  ctx: { attempt: number; idempotent: boolean; policy: RetryPolicy; now: number; random01: number },
): Decision {
  if (ctx.attempt >= ctx.policy.maxRetries) return { retry: false };
  const backoff = backoffMs(ctx.attempt, ctx.policy, ctx.random01);
  if (outcome.kind === "network") {
    if (outcome.sent && !ctx.idempotent) return { retry: false };
    return { retry: true, delayMs: backoff, reason: outcome.sent ? "network error" : "connection failed" };
  }
  const { status, headers } = outcome;
  const rateLimited = status === 429;
  if (!rateLimited && !(status >= 500 && status <= 599)) return { retry: false };
  if (!rateLimited && !ctx.idempotent) return { retry: false };
  const asked = requestedWaitMs(headers, ctx.now);
  if (asked !== undefined && asked > ctx.policy.maxDelayMs) return { retry: false };
  return { retry: true, delayMs: asked ?? backoff, reason: `HTTP ${status}` };
}

/** Deno's fetch says "tcp connect error"/"dns error" when nothing was sent; anything else may have been. */
export function wasSent(error: unknown): boolean {
  const message = error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error);
  return !/connect error|connection refused|dns error|failed to lookup|os error 111|ECONNREFUSED|ENOTFOUND/i
    .test(message);
}
