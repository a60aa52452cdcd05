/**
 * The relay's device calls: pairing codes for this server (with the server token, as the handshake), the
 * devices (clients) paired with an environment and their revocation, and the account's enrolled machines
 * (environments) and their deletion (with the account headers, as enrollment). Relay bodies are parsed with
 * zod; errors are larkit errors: 401/403 `auth`, 404 `not_found` (the caller decides what a 404 means: for
 * pairing, a forgotten enrollment), anything else `api`, each quoting the body with codes and tokens redacted.
 */
import * as z from "zod";
import { errors, LarkitError } from "../cli/output/errors.ts";
import type { FetchFn } from "../cli/provider.ts";
import { redactBody } from "./enroll.ts";

const pairResponseSchema = z.object({
  pairing_code: z.string().check(z.minLength(1)),
  manual_pairing_code: z.nullish(z.string()),
  server_id: z.string(),
  environment_id: z.string(),
  expires_at: z.iso.datetime({ offset: true }),
});

/** A pairing code as `remoteControl/pairing/start` returns it (`expiresAt` in Unix seconds, as the reference). */
export interface PairingCode {
  pairingCode: string;
  manualPairingCode: string | null;
  environmentId: string;
  expiresAt: number;
}

const clientSchema = z.object({
  client_id: z.string(),
  display_name: z.nullish(z.string()),
  device_type: z.nullish(z.string()),
  platform: z.nullish(z.string()),
  os_version: z.nullish(z.string()),
  device_model: z.nullish(z.string()),
  app_version: z.nullish(z.string()),
  last_seen_at: z.nullish(z.number()),
});

const clientPageSchema = z.object({ data: z.array(clientSchema), next_cursor: z.nullish(z.string()) });

/** One paired device (the reference's `RemoteControlClient`; `lastSeenAt` in Unix seconds or null). */
export interface RemoteDevice {
  clientId: string;
  displayName: string | null;
  deviceType: string | null;
  platform: string | null;
  osVersion: string | null;
  deviceModel: string | null;
  appVersion: string | null;
  lastSeenAt: number | null;
}

export interface ClientListQuery {
  cursor?: string | null;
  limit?: number | null;
  order?: "asc" | "desc" | null;
}

const environmentSchema = z.object({
  environment_id: z.string(),
  server_id: z.string(),
  name: z.string(),
  os: z.nullish(z.string()),
  arch: z.nullish(z.string()),
  online: z.boolean(),
  last_seen_at: z.nullish(z.number()),
  created_at: z.nullish(z.number()),
});

const environmentPageSchema = z.object({ data: z.array(environmentSchema) });

/** One enrolled machine of the account (`lastSeenAt`, `createdAt` in Unix seconds or null). */
export interface RemoteHost {
  environmentId: string;
  serverId: string;
  name: string;
  os: string | null;
  arch: string | null;
  online: boolean;
  lastSeenAt: number | null;
  createdAt: number | null;
}

/**
 * Each call gives up after this long (the reference's timeout for relay HTTP calls): `remote-control stop` asks
 * for the paired devices, and a relay that does not answer must not hold it up.
 */
const CALL_TIMEOUT_MS = 30_000;

async function call<T>(
  fetch: FetchFn,
  what: string,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown },
  schema: z.ZodMiniType<T>,
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method,
      headers: init.body === undefined
        ? init.headers
        : { ...init.headers, "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (e) {
    if (e instanceof LarkitError) throw e;
    throw errors.network(`remote control ${what} at ${url} failed: ${e instanceof Error ? e.message : e}`);
  }
  const body = await res.text();
  const where = `remote control ${what} failed at ${url}: HTTP ${res.status}, body: ${
    redactBody(body) || "<empty>"
  }`;
  if (res.status === 401 || res.status === 403) throw errors.auth(where, { code: res.status });
  if (res.status === 404) throw errors.notFound(where, { code: 404 });
  if (!res.ok) throw errors.api(where, { code: res.status });
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw errors.api(`remote control ${what} at ${url}: unexpected response body: ${redactBody(body)}`);
  }
  return parsed.data;
}

/**
 * POSTs `{manual_code}` to the pair endpoint with the server's credentials (its token, or the account headers
 * on a relay without tokens). The ids in the answer must be this enrollment's.
 */
export async function requestPairingCode(
  fetch: FetchFn,
  url: string,
  headers: Record<string, string>,
  enrollment: { serverId: string; environmentId: string },
  manualCode: boolean,
): Promise<PairingCode> {
  const got = await call(fetch, "pairing", url, {
    method: "POST",
    headers,
    body: { manual_code: manualCode },
  }, pairResponseSchema);
  if (got.server_id !== enrollment.serverId || got.environment_id !== enrollment.environmentId) {
    throw errors.api(
      `remote control pairing returned mismatched enrollment: expected server_id=${enrollment.serverId}, ` +
        `environment_id=${enrollment.environmentId}; got server_id=${got.server_id}, environment_id=${got.environment_id}`,
    );
  }
  return {
    pairingCode: got.pairing_code,
    manualPairingCode: got.manual_pairing_code ?? null,
    environmentId: got.environment_id,
    expiresAt: Math.floor(Date.parse(got.expires_at) / 1000),
  };
}

/** Whether a device redeemed the code (`{claimed}`); an unknown or expired code is `not_found`. */
export async function pairingClaimed(
  fetch: FetchFn,
  url: string,
  headers: Record<string, string>,
  code: { pairingCode?: string | null; manualPairingCode?: string | null },
): Promise<boolean> {
  const got = await call(fetch, "pairing status", url, {
    method: "POST",
    headers,
    body: {
      ...(code.pairingCode ? { pairing_code: code.pairingCode } : {}),
      ...(code.manualPairingCode ? { manual_pairing_code: code.manualPairingCode } : {}),
    },
  }, z.object({ claimed: z.boolean() }));
  return got.claimed;
}

function segment(id: string): string {
  return encodeURIComponent(id);
}

/** One page of the devices paired with an environment. */
export async function listDevices(
  fetch: FetchFn,
  environmentsUrl: string,
  headers: Record<string, string>,
  environmentId: string,
  query: ClientListQuery,
): Promise<{ data: RemoteDevice[]; nextCursor: string | null }> {
  const url = new URL(`${environmentsUrl}/${segment(environmentId)}/clients`);
  if (query.cursor) url.searchParams.set("cursor", query.cursor);
  if (query.limit) url.searchParams.set("limit", String(query.limit));
  if (query.order) url.searchParams.set("order", query.order);
  const page = await call(fetch, "client list", url.href, { method: "GET", headers }, clientPageSchema);
  return {
    data: page.data.map((c) => ({
      clientId: c.client_id,
      displayName: c.display_name ?? null,
      deviceType: c.device_type ?? null,
      platform: c.platform ?? null,
      osVersion: c.os_version ?? null,
      deviceModel: c.device_model ?? null,
      appVersion: c.app_version ?? null,
      lastSeenAt: c.last_seen_at ?? null,
    })),
    nextCursor: page.next_cursor ?? null,
  };
}

/** Revokes a device: the relay refuses it from then on and closes its open streams. */
export async function revokeDevice(
  fetch: FetchFn,
  environmentsUrl: string,
  headers: Record<string, string>,
  environmentId: string,
  clientId: string,
): Promise<void> {
  await call(
    fetch,
    "client revoke",
    `${environmentsUrl}/${segment(environmentId)}/clients/${segment(clientId)}`,
    {
      method: "DELETE",
      headers,
    },
    z.looseObject({}),
  );
}

/** The account's enrolled machines. */
export async function listHosts(
  fetch: FetchFn,
  environmentsUrl: string,
  headers: Record<string, string>,
): Promise<RemoteHost[]> {
  const page = await call(
    fetch,
    "host list",
    environmentsUrl,
    { method: "GET", headers },
    environmentPageSchema,
  );
  return page.data.map((e) => ({
    environmentId: e.environment_id,
    serverId: e.server_id,
    name: e.name,
    os: e.os ?? null,
    arch: e.arch ?? null,
    online: e.online,
    lastSeenAt: e.last_seen_at ?? null,
    createdAt: e.created_at ?? null,
  }));
}

/** Deletes an enrolled machine: its enrollment is forgotten and every device paired with it revoked. */
export async function deleteHost(
  fetch: FetchFn,
  environmentsUrl: string,
  headers: Record<string, string>,
  environmentId: string,
): Promise<void> {
  await call(fetch, "host delete", `${environmentsUrl}/${segment(environmentId)}`, {
    method: "DELETE",
    headers,
  }, z.looseObject({}));
}
