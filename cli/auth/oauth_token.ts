/**
 * The suite's OAuth token endpoint (`<open>/open-apis/authen/v2/oauth/token`), shared by the device-code grant
 * (login) and the refresh-token grant. It answers either a grant or an OAuth error string
 * (`authorization_pending`, `slow_down`, `access_denied`, `expired_token`, `invalid_grant`, ...).
 */
import * as z from "zod";
import type { Endpoints } from "../config/endpoints.ts";
import type { HttpClient } from "../http/client.ts";
import { errors } from "../output/errors.ts";

export type Send = HttpClient["send"];

export const TOKEN_PATH = "/open-apis/authen/v2/oauth/token";

// Schemas are built on first parse, not at import: most runs never parse these (start-up).
const TokenResponseSchema = z.lazy(() =>
  z.object({
    code: z.optional(z.number()),
    msg: z.optional(z.string()),
    error: z.optional(z.string()),
    error_description: z.optional(z.string()),
    access_token: z.optional(z.string()),
    refresh_token: z.optional(z.string()),
    expires_in: z.optional(z.number()),
    refresh_token_expires_in: z.optional(z.number()),
    scope: z.optional(z.string()),
  })
);

export interface TokenGrant {
  accessToken: string;
  refreshToken?: string;
  /** Seconds. */
  expiresIn: number;
  refreshExpiresIn?: number;
  scope?: string;
}

export type TokenAnswer =
  | { kind: "granted"; grant: TokenGrant }
  | { kind: "refused"; error: string; description: string; code?: number };

export function formBody(fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  };
}

/** One request to the token endpoint. An unreadable answer is a `network` error (callers may retry). */
export async function requestToken(
  send: Send,
  endpoints: Endpoints,
  fields: Record<string, string>,
  signal?: AbortSignal,
): Promise<TokenAnswer> {
  const res = await send(new URL(TOKEN_PATH, endpoints.open).toString(), formBody(fields), {
    signal,
    label: TOKEN_PATH,
  });
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    if (signal?.aborted) throw e;
    // Headers arrived, the body did not: the suite may have acted on the request all the same.
    throw errors.network(`the token endpoint's answer was cut off (HTTP ${res.status})`, {
      hint: "retry the command",
      detail: { lost: "body" },
    });
  }
  let parsed: z.infer<typeof TokenResponseSchema>;
  try {
    parsed = TokenResponseSchema.parse(JSON.parse(text));
  } catch {
    throw errors.network(`the token endpoint answered HTTP ${res.status} with an unreadable body`, {
      hint: "check the configured brand / base URL (larkit config show) and retry",
    });
  }
  if (parsed.access_token && !parsed.error && (parsed.code ?? 0) === 0) {
    return {
      kind: "granted",
      grant: {
        accessToken: parsed.access_token,
        refreshToken: parsed.refresh_token,
        expiresIn: parsed.expires_in ?? 7200,
        refreshExpiresIn: parsed.refresh_token_expires_in,
        scope: parsed.scope,
      },
    };
  }
  return {
    kind: "refused",
    error: parsed.error ?? `code_${parsed.code ?? res.status}`,
    description: parsed.error_description ?? parsed.msg ?? `HTTP ${res.status}`,
    code: parsed.code,
  };
}
