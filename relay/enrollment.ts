/**
 * The session's credentials with the relay (the reference's enroll module): which enrollment this server
 * presents, its server token, and what a refused handshake means for them. The HTTP calls are `enroll.ts`'s;
 * this module keeps their results.
 *
 * An enrollment is found in memory, then in the state DB under (websocket URL, account, client name), else made
 * by enrolling. The server token is refreshed when missing or expiring within the skew (tokens live in memory
 * only). A refresh answered 404 means a stale enrollment: it is deleted and enrolled again in the same attempt.
 * Handshake answers: 401/403 forget the server token (the next attempt refreshes it) or, without tokens,
 * refresh the account login; a 404 whose body is exactly `{"detail":"Remote app server not found"}` deletes the
 * enrollment and enrolls again at once; any other 404 keeps it. Pairing and the device calls reuse or make the
 * enrollment without a socket.
 */
import { errors, LarkitError, toLarkitError } from "../cli/output/errors.ts";
import type { Clock, FetchFn } from "../cli/provider.ts";
import {
  accountHeaders,
  enrollServer,
  type GetAccount,
  LOGIN_HINT,
  redactBody,
  refreshServerToken,
  type RelayAccount,
  requireUserAccount,
  type ServerToken,
} from "./enroll.ts";
import {
  type ClientListQuery,
  deleteHost,
  listDevices,
  listHosts,
  pairingClaimed,
  type PairingCode,
  type RemoteDevice,
  type RemoteHost,
  requestPairingCode,
  revokeDevice,
} from "./devices.ts";
import { isPlainToken } from "./envelopes.ts";
import { HandshakeRefused } from "./socket.ts";
import type { StatusBoard } from "./status.ts";
import type { Enrollment, EnrollmentKey, EnrollmentStore } from "./store.ts";
import type { RelayUrls } from "./url.ts";

export const PROTOCOL_VERSION = "3";

/** The one handshake 404 body that means "the relay forgot this server"; any other 404 keeps the enrollment. */
export const SERVER_NOT_FOUND_DETAIL = "Remote app server not found";

/** Whether a refused handshake's body is exactly `{"detail":"Remote app server not found"}`. */
export function reportsServerNotFound(body: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return false;
  }
  return typeof json === "object" && json !== null && !Array.isArray(json) &&
    Object.keys(json).length === 1 && (json as { detail?: unknown }).detail === SERVER_NOT_FOUND_DETAIL;
}

/** What one failed connect attempt means for the loop. */
export interface Failure {
  error: LarkitError;
  /** Enroll again without waiting (the relay forgot the server). */
  immediate?: boolean;
  /** Refresh the account login before the next attempt. */
  recoverAuth?: boolean;
}

export interface EnrollmentOptions {
  urls: RelayUrls;
  getAccount: GetAccount;
  store: EnrollmentStore;
  clock: Clock;
  fetch: FetchFn;
  server: { name: string; os: string; arch: string; appServerVersion: string };
  /** The enrollment key's client name (see `SessionOptions.clientName`). */
  clientName: string | Promise<string>;
  installationId: string;
  /** A server token expiring within this margin is refreshed before connecting. */
  tokenRefreshSkewMs: number;
  /** Where `environmentId` changes are published. */
  status: StatusBoard;
  log: (line: string) => void;
  /** Aborted once the session is closed: device calls then fail. */
  closed: AbortSignal;
}

const encoder = new TextEncoder();

/** The client name if already known (a settled promise wins the race because it is listed first). */
function knownName(name: string | Promise<string>): Promise<string | undefined> {
  return Promise.race([name, Promise.resolve(undefined)]);
}

export class RelayEnrollment {
  readonly #o: EnrollmentOptions;
  #enrollment: Enrollment | undefined;
  /** The relay-issued server token (memory only); undefined: refresh before the next handshake. */
  #token: ServerToken | undefined;
  /** The relay issued no token at enroll: handshakes carry the account headers (the seed's simpler relay). */
  #accountHandshake = false;
  /** The preference to persist for the current key (set by non-ephemeral enable/disable). */
  #preference: boolean | undefined;
  #turn: Promise<unknown> = Promise.resolve();

  constructor(options: EnrollmentOptions) {
    this.#o = options;
  }

  /** The in-memory enrollment's environment (null when none). */
  get environmentId(): string | null {
    return this.#enrollment?.environmentId ?? null;
  }

  /**
   * One connect attempt's credentials: the enrollment (reused or made) with a fresh token, and the handshake
   * headers, carrying `cursor` when it is a plain token. `auth.recover` asks the account for a refreshed login.
   */
  async handshake(
    clientName: string,
    auth: { recover: boolean },
    cursor: string | undefined,
    signal: AbortSignal,
  ): Promise<{ headers: Record<string, string>; environmentId: string }> {
    const account = requireUserAccount(
      await this.#o.getAccount(auth.recover ? { refresh: true } : undefined),
    );
    // Recovered: a later failure of this attempt asks for a refresh again only if it is an auth failure.
    auth.recover = false;
    const enrollment = await this.#serialized(() => this.#prepare(account, clientName, signal));
    const headers = this.#serverHeaders(enrollment, account);
    headers["x-svc-name"] = encoder.encode(enrollment.serverName).toBase64();
    headers["x-svc-protocol-version"] = PROTOCOL_VERSION;
    // Checked again where it becomes a header: only a plain token is ever sent back.
    if (cursor !== undefined && isPlainToken(cursor)) headers["x-svc-subscribe-cursor"] = cursor;
    return { headers, environmentId: enrollment.environmentId };
  }

  /** Turns a failed attempt into what the loop does next (forgetting the token or enrollment it condemns). */
  classify(e: unknown): Failure {
    const where = `remote control websocket ${this.#o.urls.websocket}`;
    if (e instanceof HandshakeRefused) {
      if (e.status === 401 || e.status === 403) {
        if (this.#accountHandshake) {
          return {
            error: errors.auth(`${where} auth failed with HTTP ${e.status}; refreshing the account login`, {
              hint: LOGIN_HINT,
              code: e.status,
            }),
            recoverAuth: true,
          };
        }
        this.#token = undefined;
        return {
          error: errors.auth(
            `${where} auth failed with HTTP ${e.status}; refreshing server token before reconnect`,
            { code: e.status },
          ),
        };
      }
      if (e.status === 404 && reportsServerNotFound(e.body)) {
        this.#forget("the relay no longer knows this server (HTTP 404); enrolling again");
        return {
          error: errors.notFound(`${where}: HTTP 404, body: ${redactBody(e.body)}`, { code: 404 }),
          immediate: true,
        };
      }
      const kept = e.status === 404 ? " (unrecognized HTTP 404; enrollment kept)" : "";
      return {
        error: errors.network(
          `${where} refused the connection: HTTP ${e.status}${kept}, body: ${
            redactBody(e.body) || "<empty>"
          }`,
          { code: e.status },
        ),
      };
    }
    const err = toLarkitError(e);
    if (!(e instanceof LarkitError) && e instanceof Error) {
      // The socket library's connection errors (refused, reset, timed out) are network failures, not bugs.
      return { error: errors.network(`${where} failed: ${e.message}`) };
    }
    return { error: err, recoverAuth: err.subtype === "auth" };
  }

  /** Sets the preference to persist for this enrollment key (non-ephemeral enable/disable) and stores it. */
  async persistPreference(enabled: boolean): Promise<void> {
    this.#preference = enabled;
    const now = Math.floor(this.#o.clock.now() / 1000);
    if (this.#enrollment) {
      this.#o.store.setEnabled(this.#enrollment, enabled, now);
      return;
    }
    // Not enrolled in this process yet: update the stored row of this key if there is one; an enrollment made
    // later carries the preference in its insert. The client name is used only if already known.
    const name = await knownName(this.#o.clientName);
    if (name === undefined) return;
    let account: RelayAccount;
    try {
      account = await this.#o.getAccount();
    } catch {
      return;
    }
    this.#o.store.setEnabled(
      { websocketUrl: this.#o.urls.websocket, accountId: account.accountId, clientName: name },
      enabled,
      now,
    );
  }

  /**
   * A pairing code a new device redeems at the relay (`POST .../server/pair` with the server token). Works
   * while disabled: the persisted enrollment is reused or made, and no socket is needed. A 404 means the relay
   * forgot this server: the enrollment is cleared, made again, and pairing retried once; a 401/403 refreshes
   * the server token and retries once.
   */
  async pair(opts: { manualCode?: boolean } = {}): Promise<PairingCode> {
    let reEnrolled = false;
    let refreshed = false;
    for (;;) {
      const { account, enrollment } = await this.#ready();
      try {
        return await requestPairingCode(
          this.#o.fetch,
          this.#o.urls.pair,
          this.#serverHeaders(enrollment, account),
          enrollment,
          opts.manualCode === true,
        );
      } catch (e) {
        const err = toLarkitError(e);
        if (err.subtype === "not_found" && !reEnrolled) {
          reEnrolled = true;
          this.#forget("pairing: the relay no longer knows this server (HTTP 404); enrolling again");
          continue;
        }
        if (err.subtype === "auth" && !refreshed && !this.#accountHandshake) {
          refreshed = true;
          this.#token = undefined;
          continue;
        }
        throw err;
      }
    }
  }

  /** Whether a device redeemed the pairing code. */
  async pairingClaimed(
    code: { pairingCode?: string | null; manualPairingCode?: string | null },
  ): Promise<boolean> {
    const { account, enrollment } = await this.#ready();
    return await pairingClaimed(
      this.#o.fetch,
      this.#o.urls.pairStatus,
      this.#serverHeaders(enrollment, account),
      code,
    );
  }

  /** The devices paired with an environment (this server's by default), with their last-seen time. */
  async listClients(
    q: ClientListQuery & { environmentId?: string | null },
  ): Promise<{ data: RemoteDevice[]; nextCursor: string | null }> {
    const { account, environmentId } = await this.#environment(q.environmentId);
    // Not enrolled: no device can be paired with this machine (and listing does not enroll it).
    if (environmentId === undefined) return { data: [], nextCursor: null };
    return await listDevices(
      this.#o.fetch,
      this.#o.urls.environments,
      this.#accountHeaders(account),
      environmentId,
      q,
    );
  }

  /** Revokes a device: the relay refuses it from then on and closes its open streams at once. */
  async revokeClient(clientId: string, environmentId?: string | null): Promise<void> {
    const env = await this.#environment(environmentId);
    if (env.environmentId === undefined) {
      throw errors.notFound(`remote control client ${clientId} not found: this machine is not enrolled`);
    }
    await revokeDevice(
      this.#o.fetch,
      this.#o.urls.environments,
      this.#accountHeaders(env.account),
      env.environmentId,
      clientId,
    );
  }

  /** The account's enrolled machines; `current` marks this server's own enrollment. */
  async listHosts(): Promise<(RemoteHost & { current: boolean })[]> {
    const account = requireUserAccount(await this.#o.getAccount());
    const own = await this.#ownEnvironmentId(account);
    const hosts = await listHosts(this.#o.fetch, this.#o.urls.environments, this.#accountHeaders(account));
    return hosts.map((h) => ({ ...h, current: h.environmentId === own }));
  }

  /** Deletes an enrolled machine at the relay; this server's own one is forgotten here too (enrolled afresh on use). */
  async deleteHost(environmentId: string): Promise<void> {
    const account = requireUserAccount(await this.#o.getAccount());
    await deleteHost(this.#o.fetch, this.#o.urls.environments, this.#accountHeaders(account), environmentId);
    if (this.#enrollment?.environmentId === environmentId) {
      this.#forget("this machine's enrollment was deleted at the relay");
      return;
    }
    const key = await this.#key(account);
    const stored = key && this.#o.store.load(key);
    if (stored && stored.environmentId === environmentId) this.#o.store.delete(stored);
  }

  #accountHeaders(account: RelayAccount): Record<string, string> {
    return accountHeaders(account, this.#o.installationId);
  }

  /** The enrollment key, once the client name is known. */
  async #key(account: RelayAccount): Promise<EnrollmentKey | undefined> {
    const name = await knownName(this.#o.clientName);
    if (name === undefined) return undefined;
    return { websocketUrl: this.#o.urls.websocket, accountId: account.accountId, clientName: name };
  }

  async #ownEnvironmentId(account: RelayAccount): Promise<string | undefined> {
    if (this.#enrollment?.accountId === account.accountId) return this.#enrollment.environmentId;
    const key = await this.#key(account);
    return key && this.#o.store.load(key)?.environmentId;
  }

  /** The named environment, or this server's own (in memory or stored; undefined when not enrolled). */
  async #environment(
    environmentId?: string | null,
  ): Promise<{ account: RelayAccount; environmentId: string | undefined }> {
    const account = requireUserAccount(await this.#o.getAccount());
    return { account, environmentId: environmentId || await this.#ownEnvironmentId(account) };
  }

  /** The enrollment with a fresh server token for the device calls: reused or made now, without connecting. */
  async #ready(): Promise<{ account: RelayAccount; enrollment: Enrollment }> {
    const signal = this.#o.closed;
    if (signal.aborted) throw errors.internal("remote control session is closed");
    const account = requireUserAccount(await this.#o.getAccount());
    const clientName = await knownName(this.#o.clientName);
    if (clientName === undefined) {
      throw errors.validation("remote control pairing is unavailable until enrollment completes", {
        hint: "the first local client's initialize names the enrollment; initialize, then pair",
      });
    }
    const enrollment = await this.#serialized(() => this.#prepare(account, clientName, signal));
    return { account, enrollment };
  }

  /** Runs enrollment work one at a time: the connect loop and a pairing never enroll twice at once. */
  #serialized<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#turn.then(fn, fn);
    this.#turn = run.catch(() => {});
    return run;
  }

  /** What identifies this server to the relay: its token (or the account headers without tokens) and its id. */
  #serverHeaders(enrollment: Enrollment, account: RelayAccount): Record<string, string> {
    const headers: Record<string, string> = this.#accountHandshake || !this.#token
      ? accountHeaders(account, this.#o.installationId)
      : { authorization: `Bearer ${this.#token.value}`, "x-svc-installation-id": this.#o.installationId };
    headers["x-svc-server-id"] = enrollment.serverId;
    return headers;
  }

  #forget(why: string): void {
    if (!this.#enrollment) return;
    this.#o.log(`remote control: ${why}`);
    this.#o.store.delete(this.#enrollment);
    this.#enrollment = undefined;
    this.#token = undefined;
    this.#o.status.update({ environmentId: null });
  }

  async #prepare(account: RelayAccount, clientName: string, signal: AbortSignal): Promise<Enrollment> {
    if (
      this.#enrollment &&
      (this.#enrollment.accountId !== account.accountId || this.#enrollment.clientName !== clientName)
    ) {
      this.#o.log("remote control: account changed; clearing the in-memory enrollment");
      this.#enrollment = undefined;
      this.#token = undefined;
      this.#o.status.update({ environmentId: null });
    }
    if (!this.#enrollment) {
      const key: EnrollmentKey = {
        websocketUrl: this.#o.urls.websocket,
        accountId: account.accountId,
        clientName,
      };
      const stored = this.#o.store.load(key);
      if (stored) {
        this.#o.log(`remote control: reusing persisted enrollment ${stored.serverId}`);
        this.#enrollment = { ...stored, serverName: this.#o.server.name };
        this.#token = undefined;
        this.#accountHandshake = false;
        if (this.#preference !== undefined && stored.remoteControlEnabled !== this.#preference) {
          this.#o.store.setEnabled(key, this.#preference, Math.floor(this.#o.clock.now() / 1000));
        }
      } else {
        await this.#enroll(account, key, signal);
      }
    }
    let enrollment = this.#enrollment as Enrollment;
    if (!this.#accountHandshake && !this.#tokenFresh()) {
      try {
        this.#token = await refreshServerToken(
          this.#o.fetch,
          this.#o.urls.refresh,
          account,
          enrollment,
          this.#o.installationId,
          signal,
        );
      } catch (e) {
        if (!(toLarkitError(e).subtype === "not_found")) throw e;
        this.#forget("the relay no longer knows this enrollment (refresh HTTP 404); enrolling again");
        await this.#enroll(account, enrollment, signal);
        enrollment = this.#enrollment as Enrollment;
      }
    }
    this.#o.status.update({ environmentId: enrollment.environmentId });
    return enrollment;
  }

  #tokenFresh(): boolean {
    return this.#token !== undefined &&
      this.#token.expiresAt - this.#o.clock.now() > this.#o.tokenRefreshSkewMs;
  }

  async #enroll(account: RelayAccount, key: EnrollmentKey, signal: AbortSignal): Promise<void> {
    const { server } = this.#o;
    const result = await enrollServer(this.#o.fetch, this.#o.urls.enroll, account, {
      name: server.name,
      os: server.os,
      arch: server.arch,
      appServerVersion: server.appServerVersion,
      installationId: this.#o.installationId,
    }, signal);
    this.#enrollment = {
      websocketUrl: key.websocketUrl,
      accountId: key.accountId,
      clientName: key.clientName,
      serverId: result.serverId,
      environmentId: result.environmentId,
      serverName: server.name,
      updatedAt: Math.floor(this.#o.clock.now() / 1000),
      remoteControlEnabled: this.#preference ?? null,
    };
    this.#token = result.token;
    this.#accountHandshake = result.token === undefined;
    this.#o.store.upsert(this.#enrollment);
    this.#o.log(`remote control: created new enrollment ${result.serverId}`);
  }
}
