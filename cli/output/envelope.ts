/**
 * The output contract. A successful command writes exactly one result document to stdout; a failed one writes
 * nothing to stdout and one error envelope (JSON) to stderr. Agents parse these, so the shapes are an API.
 */
import type { ErrorBody, LarkitError } from "./errors.ts";

export type Identity = "user" | "bot";

export interface Meta {
  count?: number;
  [key: string]: unknown;
}

export interface SuccessEnvelope {
  ok: true;
  identity?: Identity;
  data?: unknown;
  meta?: Meta;
  _notice?: Record<string, unknown>;
}

export interface ErrorEnvelope {
  ok: false;
  identity?: Identity;
  error: ErrorBody;
  _notice?: Record<string, unknown>;
}

/** The object when it holds a value: keys set to `undefined` (which JSON drops) do not count. */
function nonEmptyObject<T extends object>(value: T | undefined): T | undefined {
  return value && Object.values(value).some((v) => v !== undefined) ? value : undefined;
}

/** Builds the success envelope in field order, omitting empty fields (an empty list as `data` is a result). */
export function successEnvelope(
  parts: { identity?: Identity; data?: unknown; meta?: Meta; notice?: Record<string, unknown> },
): SuccessEnvelope {
  const env: SuccessEnvelope = { ok: true };
  if (parts.identity) env.identity = parts.identity;
  if (parts.data !== undefined && parts.data !== null) env.data = parts.data;
  const meta = nonEmptyObject(parts.meta);
  if (meta) env.meta = meta;
  const notice = nonEmptyObject(parts.notice);
  if (notice) env._notice = notice;
  return env;
}

export function errorEnvelope(
  err: LarkitError,
  parts: { identity?: Identity; notice?: Record<string, unknown> } = {},
): ErrorEnvelope {
  const b = err.body;
  // Field order is the contract's reading order; absent facts are omitted, `retryable` never is.
  const body: ErrorBody = { type: b.type, subtype: b.subtype, message: b.message, retryable: b.retryable };
  if (b.hint) body.hint = b.hint;
  if (b.code !== undefined) body.code = b.code;
  if (b.log_id) body.log_id = b.log_id;
  if (b.missing_scopes?.length) body.missing_scopes = b.missing_scopes;
  if (b.console_url) body.console_url = b.console_url;
  if (b.detail !== undefined) body.detail = b.detail;
  const env: ErrorEnvelope = parts.identity
    ? { ok: false, identity: parts.identity, error: body }
    : { ok: false, error: body };
  const notice = nonEmptyObject(parts.notice);
  if (notice) env._notice = notice;
  return env;
}

/** Two-space indented JSON with a trailing newline: the `json` rendering of any document. */
export function toJsonDocument(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}
