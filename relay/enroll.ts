/**
 * Enrollment with the relay: the local server introduces itself once per (relay, account, client name) and
 * receives the server id it presents on every handshake. Only a user (account) login may enroll: app-secret
 * credentials act as a bot, not as a person whose devices may drive this machine.
 */
import * as z from "zod";
import { errors, LarkitError } from "../cli/output/errors.ts";
import type { FetchFn } from "../cli/provider.ts";

export interface RelayAccount {
  accountId: string;
  accessToken: string;
  kind: "user" | "app";
}

/** Supplies the account credentials; `refresh` asks for a freshly refreshed token (auth recovery). */
export type GetAccount = (opts?: { refresh?: boolean }) => Promise<RelayAccount>;

export const LOGIN_HINT = "run `larkit auth login` to sign in as a user, then enable remote control again";

export function requireUserAccount(account: RelayAccount): RelayAccount {
  if (account.kind !== "user") {
    throw errors.auth("remote control requires account authentication; app credentials are not supported", {
      hint: LOGIN_HINT,
    });
  }
  return account;
}

/** The account headers both the enroll request and the WebSocket handshake carry. */
export function accountHeaders(account: RelayAccount, installationId: string): Record<string, string> {
  return {
    authorization: `Bearer ${account.accessToken}`,
    "svc-account-id": account.accountId,
    "x-svc-installation-id": installationId,
  };
}

export interface ServerInfo {
  name: string;
  os: string;
  arch: string;
  appServerVersion: string;
  installationId: string;
}

/**
 * The enroll and refresh response. A production relay adds the server token the handshake presents and its
 * expiry; the seed's simpler relay sends only the ids, and then the handshake carries the account headers.
 */
const enrollResponseSchema = z.object({
  server_id: z.string().check(z.minLength(1)),
  environment_id: z.string().check(z.minLength(1)),
  remote_control_token: z.optional(z.string().check(z.minLength(1))),
  expires_at: z.optional(z.iso.datetime({ offset: true })),
});

/** A relay-issued server token; held in memory only (never persisted). */
export interface ServerToken {
  value: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export interface EnrollResult {
  serverId: string;
  environmentId: string;
  /** Absent when the relay authenticates handshakes by the account headers (the seed's relay). */
  token?: ServerToken;
}

/** Relay bodies are quoted in errors, but never a token or a pairing code. */
export function redactBody(body: string): string {
  return body.slice(0, 4096).replace(
    /("(?:remote_control_token|pairing_code|manual_pairing_code|client_token)"\s*:\s*)"[^"]*"/g,
    '$1"<redacted>"',
  );
}

async function post(
  fetch: FetchFn,
  url: string,
  what: string,
  headers: Record<string, string>,
  payload: unknown,
  signal?: AbortSignal,
): Promise<EnrollResult> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(payload),
      signal,
    });
  } catch (e) {
    if (e instanceof LarkitError) throw e;
    throw errors.network(
      `remote control server ${what} at ${url} failed: ${e instanceof Error ? e.message : e}`,
    );
  }
  const body = await res.text();
  const where = `remote control server ${what} failed at ${url}: HTTP ${res.status}`;
  if (res.status === 401 || res.status === 403) {
    throw errors.auth(`${where}; retrying after auth recovery`, { hint: LOGIN_HINT, code: res.status });
  }
  if (res.status === 404) throw errors.notFound(`${where}, body: ${redactBody(body)}`, { code: 404 });
  if (!res.ok) throw errors.api(`${where}, body: ${redactBody(body)}`, { code: res.status });
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const parsed = enrollResponseSchema.safeParse(json);
  if (!parsed.success) {
    throw errors.api(
      `remote control server ${what} at ${url}: unexpected response body: ${redactBody(body)}`,
    );
  }
  const d = parsed.data;
  if ((d.remote_control_token === undefined) !== (d.expires_at === undefined)) {
    throw errors.api(
      `remote control server ${what} at ${url}: remote_control_token and expires_at come together: ${
        redactBody(body)
      }`,
    );
  }
  return {
    serverId: d.server_id,
    environmentId: d.environment_id,
    ...(d.remote_control_token && d.expires_at
      ? { token: { value: d.remote_control_token, expiresAt: Date.parse(d.expires_at) } }
      : {}),
  };
}

/** POSTs the enroll request; 401/403 become `auth` errors (the caller's recovery path), 404 `not_found`. */
export function enrollServer(
  fetch: FetchFn,
  enrollUrl: string,
  account: RelayAccount,
  info: ServerInfo,
  signal?: AbortSignal,
): Promise<EnrollResult> {
  return post(fetch, enrollUrl, "enrollment", accountHeaders(account, info.installationId), {
    name: info.name,
    os: info.os,
    arch: info.arch,
    app_server_version: info.appServerVersion,
    installation_id: info.installationId,
  }, signal);
}

/**
 * POSTs `{server_id, installation_id}` to the refresh endpoint for a new server token. A 404 (`not_found`)
 * means the relay no longer knows the enrollment; ids that differ from the enrollment are an error.
 */
export async function refreshServerToken(
  fetch: FetchFn,
  refreshUrl: string,
  account: RelayAccount,
  enrollment: { serverId: string; environmentId: string },
  installationId: string,
  signal?: AbortSignal,
): Promise<ServerToken> {
  const got = await post(fetch, refreshUrl, "refresh", accountHeaders(account, installationId), {
    server_id: enrollment.serverId,
    installation_id: installationId,
  }, signal);
  if (got.serverId !== enrollment.serverId || got.environmentId !== enrollment.environmentId) {
    throw errors.api(
      `remote control server refresh returned mismatched enrollment: expected server_id=${enrollment.serverId}, ` +
        `environment_id=${enrollment.environmentId}; got server_id=${got.serverId}, environment_id=${got.environmentId}`,
    );
  }
  if (!got.token) {
    throw errors.api(`remote control server refresh at ${refreshUrl} returned no remote_control_token`);
  }
  return got.token;
}
