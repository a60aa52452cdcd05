/**
 * Enrollment with the relay: the local server introduces itself once per (relay, account, client name) and
 * receives the server id it presents on every handshake. Only a user (account) login may enroll: app-secret
 * credentials act as a bot, not as a person whose devices may drive this machine.
 */
import { z } from "zod";
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

const enrollResponseSchema = z.object({ server_id: z.string().min(1), environment_id: z.string().min(1) });

export interface EnrollResult {
  serverId: string;
  environmentId: string;
}

/** POSTs the enroll request; 401/403 become `auth` errors (the caller's recovery path), 404 `not_found`. */
export async function enrollServer(
  fetch: FetchFn,
  enrollUrl: string,
  account: RelayAccount,
  info: ServerInfo,
  signal?: AbortSignal,
): Promise<EnrollResult> {
  let res: Response;
  try {
    res = await fetch(enrollUrl, {
      method: "POST",
      headers: { ...accountHeaders(account, info.installationId), "content-type": "application/json" },
      body: JSON.stringify({
        name: info.name,
        os: info.os,
        arch: info.arch,
        app_server_version: info.appServerVersion,
        installation_id: info.installationId,
      }),
      signal,
    });
  } catch (e) {
    if (e instanceof LarkitError) throw e;
    throw errors.network(
      `remote control enrollment at ${enrollUrl} failed: ${e instanceof Error ? e.message : e}`,
    );
  }
  const body = await res.text();
  const where = `remote control enrollment at ${enrollUrl}: HTTP ${res.status}`;
  if (res.status === 401 || res.status === 403) throw errors.auth(where, { hint: LOGIN_HINT });
  if (res.status === 404) throw errors.notFound(where);
  if (!res.ok) throw errors.api(`${where}, body: ${body.slice(0, 512)}`);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const parsed = enrollResponseSchema.safeParse(json);
  if (!parsed.success) throw errors.api(`${where}: unexpected response body: ${body.slice(0, 512)}`);
  return { serverId: parsed.data.server_id, environmentId: parsed.data.environment_id };
}
