/**
 * The remote-control session: one outbound WebSocket to the relay, kept alive across drops, that turns every
 * remote (client_id, stream_id) into an ordinary app-server connection with origin `RemoteControl`.
 *
 * Connect cycle: client name (the first local `initialize`'s, or '' for larkit's own daemon) -> account (user
 * login only) -> enrollment (memory, then the state DB, then enroll) -> server token (refreshed when missing or
 * expiring within 30 s; tokens live in memory only) -> handshake with `Authorization: Bearer <server token>`
 * (or the account headers when the relay issues no tokens) -> resend every unacked envelope in order -> serve
 * frames, pinging every 10 s, until the socket drops or 60 s pass without a pong or data frame (the relay's
 * own pings do not count) -> back off (capped exponential with jitter, reset after a stable connection) ->
 * again. The loop never gives up: every failure leaves the status `connecting` with the last error, until
 * `disable`.
 *
 * Handshake answers: 401/403 forget the server token (the next attempt refreshes it) or, without tokens,
 * refresh the account login; a 404 whose body is exactly `{"detail":"Remote app server not found"}` deletes
 * the enrollment and enrolls again at once; any other 404 keeps it. A refresh answered 404 means a stale
 * enrollment: it is deleted and enrolled again in the same attempt.
 */
import { errors, LarkitError, toLarkitError } from "../cli/output/errors.ts";
import { RPC_CODES } from "../rpc/errors.ts";
import type { Clock, FetchFn, Random } from "../cli/provider.ts";
import type { AppServer, Connection } from "../rpc/connection.ts";
import { BUFFER_CAPACITY, OutboundBuffer, type StreamAddress } from "./buffer.ts";
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
  badToken,
  type ClientEnvelope,
  isInitializeRequest,
  isPlainToken,
  parseClientEnvelope,
} from "./envelopes.ts";
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
import { frameMessage, Reassembler, SEGMENT_MAX_BYTES, type WireFrame } from "./segments.ts";
import { HandshakeRefused, type OpenSocket, openWsSocket, type RelaySocket } from "./socket.ts";
import { type RemoteControlStatus, StatusBoard } from "./status.ts";
import type { Enrollment, EnrollmentKey, EnrollmentStore } from "./store.ts";
import { type RemoteStream, type StreamLimits, StreamTracker } from "./streams.ts";
import type { RelayUrls } from "./url.ts";

export const PROTOCOL_VERSION = "3";

/** The one handshake 404 body that means "the relay forgot this server"; any other 404 keeps the enrollment. */
export const SERVER_NOT_FOUND_DETAIL = "Remote app server not found";

export interface SessionTiming {
  backoffBaseMs: number;
  backoffCapMs: number;
  /** A connection up at least this long resets the backoff. */
  stableMs: number;
  /** A WebSocket ping goes out this often while connected. */
  pingIntervalMs: number;
  /** No pong nor any data frame for this long (the relay's pings do not count): the socket is dropped. */
  pongTimeoutMs: number;
  connectTimeoutMs: number;
  /** A server token expiring within this margin is refreshed before connecting. */
  tokenRefreshSkewMs: number;
  /** A remote stream without a message or ping for this long is closed as if `client_closed`. */
  streamIdleMs: number;
  /** How often idle streams are looked for. */
  idleSweepMs: number;
}

export const DEFAULT_TIMING: SessionTiming = {
  backoffBaseMs: 200,
  backoffCapMs: 30_000,
  stableMs: 10_000,
  pingIntervalMs: 10_000,
  pongTimeoutMs: 60_000,
  connectTimeoutMs: 30_000,
  tokenRefreshSkewMs: 30_000,
  streamIdleMs: 10 * 60_000,
  idleSweepMs: 30_000,
};

export interface SessionOptions {
  urls: RelayUrls;
  appServer: AppServer;
  getAccount: GetAccount;
  store: EnrollmentStore;
  clock: Clock;
  random: Random;
  fetch: FetchFn;
  server: { name: string; os: string; arch: string; appServerVersion: string };
  /**
   * The enrollment key's client name: the first local connection's `clientInfo.name` ('' for larkit's own
   * daemon or foreground mode). Nothing is connected before it is known.
   */
  clientName: string | Promise<string>;
  timing?: Partial<SessionTiming>;
  bufferCapacity?: number;
  /** Open streams per device and in total (defaults: `DEFAULT_STREAM_LIMITS`). */
  streamLimits?: Partial<StreamLimits>;
  /** Diagnostics (stderr); never receives tokens. */
  log?: (line: string) => void;
  openSocket?: OpenSocket;
  /** The status board to publish on (the host's, which exists before the session); a new one by default. */
  status?: StatusBoard;
}

export interface ToggleOptions {
  /** Leave the persisted preference as it is (start-up resolution, `--remote-control`). */
  ephemeral?: boolean;
}

/** Capped exponential backoff with ±10% jitter; `unit` is a uniform random number in [0, 1). */
export function backoffDelay(attempt: number, timing: SessionTiming, unit: number): number {
  const raw = Math.min(timing.backoffCapMs, timing.backoffBaseMs * 2 ** Math.min(attempt, 30));
  return Math.round(raw * (0.9 + 0.2 * unit));
}

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

/** How much frame text may wait in the socket's own buffers (about 30 segments). */
const WRITE_AHEAD_CHARS = 4 * 1024 * 1024;

/** Initialize requests are small; a megabyte-sized message on a live stream is not parsed twice to check. */
const INITIALIZE_CHECK_MAX_CHARS = 1024 * 1024;

const encoder = new TextEncoder();

const frameScratch = new Uint8Array(3 * SEGMENT_MAX_BYTES);

/** A frame's UTF-8 size where it matters for the 150 KiB limit (longer texts are over it either way). */
function utf8Length(text: string): number {
  if (text.length * 3 <= SEGMENT_MAX_BYTES || text.length > SEGMENT_MAX_BYTES) return text.length;
  return encoder.encodeInto(text, frameScratch).written;
}

/** What one failed attempt means for the loop. */
interface Failure {
  error: LarkitError;
  /** Enroll again without waiting (the relay forgot the server). */
  immediate?: boolean;
  /** Refresh the account login before the next attempt. */
  recoverAuth?: boolean;
}

export class RemoteControlSession {
  readonly status: StatusBoard;
  readonly #o: SessionOptions;
  readonly #timing: SessionTiming;
  readonly #buffer: OutboundBuffer;
  readonly #reassembler = new Reassembler();
  readonly #streams: StreamTracker;
  readonly #installationId: string;
  readonly #log: (line: string) => void;
  readonly #closed = new AbortController();
  #socket: RelaySocket | undefined;
  /**
   * Frames waiting for the socket, per stream in order; streams take turns, a frame each, so one stream's
   * 100 MiB does not hold up another's answer. `#writing` is the current socket's write-ahead.
   */
  #writeQueues = new Map<string, WireFrame[]>();
  #writing: { chars: number } | undefined;
  #cursor: string | undefined;
  #enrollment: Enrollment | undefined;
  /** The relay-issued server token (memory only); undefined: refresh before the next handshake. */
  #token: ServerToken | undefined;
  /** The relay issued no token at enroll: handshakes carry the account headers (the seed's simpler relay). */
  #accountHandshake = false;
  /** The preference to persist for the current key (set by non-ephemeral enable/disable). */
  #preference: boolean | undefined;
  #lastInboundAt: number | undefined;
  #sweeping = false;
  #loop: { abort: AbortController; done: Promise<void> } | undefined;
  #enrollmentTurn: Promise<unknown> = Promise.resolve();

  constructor(options: SessionOptions) {
    this.#o = options;
    this.#timing = { ...DEFAULT_TIMING, ...options.timing };
    this.#streams = new StreamTracker(options.streamLimits);
    this.#log = options.log ?? (() => {});
    const capacity = options.bufferCapacity ?? BUFFER_CAPACITY;
    this.#buffer = new OutboundBuffer(
      (frames, stream) => this.#write(frames, stream),
      capacity,
      // Half the window per device: one that never acks stalls only its own streams.
      Math.max(1, Math.floor(capacity / 2)),
    );
    this.#installationId = options.store.installationId(() => options.random.uuid());
    this.status = options.status ?? new StatusBoard({
      status: "disabled",
      serverName: options.server.name,
      installationId: this.#installationId,
      environmentId: null,
    });
  }

  /**
   * Starts connecting (idempotent) and, unless ephemeral, persists "enabled" for this enrollment key. Fails at
   * once, without starting, when the account is not a user login.
   */
  async enable(opts: ToggleOptions = {}): Promise<RemoteControlStatus> {
    if (this.#closed.signal.aborted) throw errors.internal("remote control session is closed");
    if (!this.#loop) requireUserAccount(await this.#o.getAccount());
    if (!opts.ephemeral) {
      this.#preference = true;
      await this.#persistPreference();
    }
    if (this.#loop) return this.status.current;
    const abort = new AbortController();
    this.status.update({
      status: "connecting",
      environmentId: this.#enrollment?.environmentId ?? null,
      error: undefined,
    });
    this.#loop = { abort, done: this.#run(abort.signal) };
    return this.status.current;
  }

  /**
   * Stops this process's remote control: closes the socket and stops reconnecting; unless ephemeral, persists
   * "disabled". Streams and their buffers stay (remote connections survive a disable/enable cycle).
   */
  async disable(opts: ToggleOptions = {}): Promise<RemoteControlStatus> {
    const loop = this.#loop;
    this.#loop = undefined;
    if (loop) {
      loop.abort.abort();
      // At once: a relay that never answers the close handshake must not hold disable up.
      this.#socket?.terminate();
      await loop.done;
    }
    if (!opts.ephemeral) {
      this.#preference = false;
      await this.#persistPreference();
    }
    this.status.update({ status: "disabled" });
    return this.status.current;
  }

  /** Disables (ephemerally) and closes every remote stream's connection. */
  async close(): Promise<void> {
    await this.disable({ ephemeral: true });
    this.#closed.abort();
    this.#buffer.close(errors.network("remote control session closed"));
    for (const s of this.#streams.values()) s.connection.close();
    this.#streams.clear();
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
          this.#forgetEnrollment(
            "pairing: the relay no longer knows this server (HTTP 404); enrolling again",
          );
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
      this.#forgetEnrollment("this machine's enrollment was deleted at the relay");
      return;
    }
    const key = await this.#key(account);
    const stored = key && this.#o.store.load(key);
    if (stored && stored.environmentId === environmentId) this.#o.store.delete(stored);
  }

  #accountHeaders(account: RelayAccount): Record<string, string> {
    return accountHeaders(account, this.#installationId);
  }

  /** The enrollment key, once the client name is known. */
  async #key(account: RelayAccount): Promise<EnrollmentKey | undefined> {
    const name = await Promise.race([this.#o.clientName, Promise.resolve(undefined)]);
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
    if (this.#closed.signal.aborted) throw errors.internal("remote control session is closed");
    const account = requireUserAccount(await this.#o.getAccount());
    const clientName = await Promise.race([this.#o.clientName, Promise.resolve(undefined)]);
    if (clientName === undefined) {
      throw errors.validation("remote control pairing is unavailable until enrollment completes", {
        hint: "the first local client's initialize names the enrollment; initialize, then pair",
      });
    }
    const signal = this.#closed.signal;
    const enrollment = await this.#serialized(() => this.#prepareEnrollment(account, clientName, signal));
    return { account, enrollment };
  }

  /** Runs enrollment work one at a time: the connect loop and a pairing never enroll twice at once. */
  #serialized<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#enrollmentTurn.then(fn, fn);
    this.#enrollmentTurn = run.catch(() => {});
    return run;
  }

  /** Unacked envelopes across all streams (tests, status). */
  pendingEnvelopes(): number {
    return this.#buffer.totalPending();
  }

  /** Open remote streams and streams holding an outbound buffer (tests check both are freed). */
  streamCounts(): { open: number; buffered: number } {
    return { open: this.#streams.size, buffered: this.#buffer.streams() };
  }

  /** Clock time of the last pong or data frame (never the relay's pings), for tests of the liveness rule. */
  get lastInboundAt(): number | undefined {
    return this.#lastInboundAt;
  }

  async #persistPreference(): Promise<void> {
    if (this.#preference === undefined) return;
    const now = Math.floor(this.#o.clock.now() / 1000);
    if (this.#enrollment) {
      this.#o.store.setEnabled(this.#enrollment, this.#preference, now);
      return;
    }
    // Not enrolled in this process yet: update the stored row of this key if there is one; an enrollment made
    // later carries the preference in its insert. The client name is used only if already known (a settled
    // promise wins the race against the equally settled `undefined` because it is listed first).
    const name = await Promise.race([this.#o.clientName, Promise.resolve(undefined)]);
    if (name === undefined) return;
    let account: RelayAccount;
    try {
      account = await this.#o.getAccount();
    } catch {
      return;
    }
    this.#o.store.setEnabled(
      { websocketUrl: this.#o.urls.websocket, accountId: account.accountId, clientName: name },
      this.#preference,
      now,
    );
  }

  #failed(f: Failure): void {
    const { error } = f;
    this.#log(`remote control: ${error.message}`);
    this.status.update({
      status: "connecting",
      error: { message: error.message, hint: error.hint, type: error.type, subtype: error.subtype },
    });
  }

  async #run(signal: AbortSignal): Promise<void> {
    let attempt = 0;
    let recoverAuth = false;
    let lastImmediate = false;
    while (!signal.aborted) {
      let connectedAt: number | undefined;
      let immediate = false;
      try {
        const clientName = await abortable(Promise.resolve(this.#o.clientName), signal);
        const account = requireUserAccount(
          await this.#o.getAccount(recoverAuth ? { refresh: true } : undefined),
        );
        recoverAuth = false;
        const enrollment = await this.#serialized(() => this.#prepareEnrollment(account, clientName, signal));
        const socket = await this.#handshake(enrollment, account, signal);
        connectedAt = this.#o.clock.now();
        this.status.update({ status: "connected", environmentId: enrollment.environmentId });
        await this.#serve(socket, signal);
        if (!signal.aborted) this.status.update({ status: "connecting", error: undefined });
      } catch (e) {
        if (signal.aborted) break;
        const failure = this.#classify(e);
        recoverAuth ||= failure.recoverAuth === true;
        // At most one immediate retry in a row: a relay that keeps forgetting the server still gets backoff.
        immediate = failure.immediate === true && !lastImmediate;
        this.#failed(failure);
      }
      lastImmediate = immediate;
      if (immediate) continue;
      if (connectedAt !== undefined && this.#o.clock.now() - connectedAt >= this.#timing.stableMs) {
        attempt = 0;
      }
      const unit = new DataView(this.#o.random.bytes(4).buffer).getUint32(0) / 2 ** 32;
      try {
        await this.#o.clock.sleep(backoffDelay(attempt++, this.#timing, unit), signal);
      } catch {
        break;
      }
    }
  }

  /** Turns a failed attempt into what the loop does next (the session state is adjusted here). */
  #classify(e: unknown): Failure {
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
        this.#forgetEnrollment("the relay no longer knows this server (HTTP 404); enrolling again");
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

  #forgetEnrollment(why: string): void {
    if (!this.#enrollment) return;
    this.#log(`remote control: ${why}`);
    this.#o.store.delete(this.#enrollment);
    this.#enrollment = undefined;
    this.#token = undefined;
    this.status.update({ environmentId: null });
  }

  async #prepareEnrollment(
    account: RelayAccount,
    clientName: string,
    signal: AbortSignal,
  ): Promise<Enrollment> {
    if (
      this.#enrollment &&
      (this.#enrollment.accountId !== account.accountId || this.#enrollment.clientName !== clientName)
    ) {
      this.#log("remote control: account changed; clearing the in-memory enrollment");
      this.#enrollment = undefined;
      this.#token = undefined;
      this.status.update({ environmentId: null });
    }
    if (!this.#enrollment) {
      const key: EnrollmentKey = {
        websocketUrl: this.#o.urls.websocket,
        accountId: account.accountId,
        clientName,
      };
      const stored = this.#o.store.load(key);
      if (stored) {
        this.#log(`remote control: reusing persisted enrollment ${stored.serverId}`);
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
          this.#installationId,
          signal,
        );
      } catch (e) {
        if (!(toLarkitError(e).subtype === "not_found")) throw e;
        this.#forgetEnrollment(
          "the relay no longer knows this enrollment (refresh HTTP 404); enrolling again",
        );
        await this.#enroll(account, enrollment, signal);
        enrollment = this.#enrollment as Enrollment;
      }
    }
    this.status.update({ environmentId: enrollment.environmentId });
    return enrollment;
  }

  #tokenFresh(): boolean {
    return this.#token !== undefined &&
      this.#token.expiresAt - this.#o.clock.now() > this.#timing.tokenRefreshSkewMs;
  }

  async #enroll(account: RelayAccount, key: EnrollmentKey, signal: AbortSignal): Promise<void> {
    const { server } = this.#o;
    const result = await enrollServer(this.#o.fetch, this.#o.urls.enroll, account, {
      name: server.name,
      os: server.os,
      arch: server.arch,
      appServerVersion: server.appServerVersion,
      installationId: this.#installationId,
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
    this.#log(`remote control: created new enrollment ${result.serverId}`);
  }

  /** What identifies this server to the relay: its token (or the account headers without tokens) and its id. */
  #serverHeaders(enrollment: Enrollment, account: RelayAccount): Record<string, string> {
    const headers: Record<string, string> = this.#accountHandshake || !this.#token
      ? accountHeaders(account, this.#installationId)
      : { authorization: `Bearer ${this.#token.value}`, "x-svc-installation-id": this.#installationId };
    headers["x-svc-server-id"] = enrollment.serverId;
    return headers;
  }

  #handshake(enrollment: Enrollment, account: RelayAccount, signal: AbortSignal): Promise<RelaySocket> {
    const headers = this.#serverHeaders(enrollment, account);
    headers["x-svc-name"] = encoder.encode(enrollment.serverName).toBase64();
    headers["x-svc-protocol-version"] = PROTOCOL_VERSION;
    // Checked again where it becomes a header: only a plain token is ever sent back.
    if (this.#cursor !== undefined && isPlainToken(this.#cursor)) {
      headers["x-svc-subscribe-cursor"] = this.#cursor;
    }
    return (this.#o.openSocket ?? openWsSocket)(this.#o.urls.websocket, headers, {
      timeoutMs: this.#timing.connectTimeoutMs,
      signal,
    });
  }

  /** Resends the unacked backlog, then serves frames until the socket closes or the relay goes silent. */
  #serve(socket: RelaySocket, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const { clock } = this.#o;
      this.#lastInboundAt = clock.now();
      const stop = new AbortController();
      const finish = () => {
        if (this.#socket === socket) {
          this.#socket = undefined;
          this.#writing = undefined;
          this.#writeQueues = new Map();
        }
        stop.abort();
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => socket.terminate();
      signal.addEventListener("abort", onAbort, { once: true });
      socket.listen({
        onActivity: () => this.#lastInboundAt = clock.now(),
        onText: (text) => this.#onFrame(text),
        onBinary: () => this.#log("remote control: dropping a binary frame"),
        onClose: finish,
      });
      // Everything unacked goes first, in order per stream, then new traffic (queued behind it by #write).
      this.#writeQueues = this.#buffer.unackedByStream();
      this.#writing = { chars: 0 };
      this.#socket = socket;
      this.#pump();
      void this.#liveness(socket, stop.signal);
    });
  }

  /** Pings every interval; drops the socket once nothing (pong or frame) arrived within the pong timeout. */
  async #liveness(socket: RelaySocket, signal: AbortSignal): Promise<void> {
    const { clock } = this.#o;
    const t = this.#timing;
    let nextPing = clock.now() + t.pingIntervalMs;
    while (!signal.aborted) {
      const deadline = (this.#lastInboundAt ?? clock.now()) + t.pongTimeoutMs;
      try {
        await clock.sleep(Math.max(0, Math.min(nextPing, deadline) - clock.now()), signal);
      } catch {
        return;
      }
      const now = clock.now();
      if (now - (this.#lastInboundAt ?? now) >= t.pongTimeoutMs) {
        this.#log("remote control: websocket pong timeout; reconnecting");
        socket.terminate();
        return;
      }
      if (now >= nextPing) {
        socket.ping();
        nextPing = now + t.pingIntervalMs;
      }
    }
  }

  /**
   * Queues frames for the socket. At most `WRITE_AHEAD_CHARS` are handed to it before they are written out, so a
   * 100 MiB message is encoded segment by segment as the network takes it instead of all at once.
   */
  #write(frames: readonly WireFrame[], stream: string): void {
    const queue = this.#writeQueues.get(stream);
    if (queue) { for (const f of frames) queue.push(f); }
    else this.#writeQueues.set(stream, [...frames]);
    this.#pump();
  }

  #pump(): void {
    const socket = this.#socket;
    const writing = this.#writing;
    if (!socket?.isOpen || !writing) return;
    while (writing.chars < WRITE_AHEAD_CHARS && this.#writeQueues.size > 0) {
      // The stream first in line writes one frame and goes to the back of the line.
      const [stream, queue] = this.#writeQueues.entries().next().value as [string, WireFrame[]];
      this.#writeQueues.delete(stream);
      const frame = queue.shift() as WireFrame;
      if (queue.length > 0) this.#writeQueues.set(stream, queue);
      const written = (size: number) => () => {
        writing.chars -= size;
        if (this.#writing === writing) this.#pump();
      };
      if (frame.bytes && socket.sendBytes) {
        const utf8 = frame.bytes();
        writing.chars += utf8.length;
        socket.sendBytes(utf8, written(utf8.length));
      } else {
        const text = frame.text;
        writing.chars += text.length;
        socket.send(text, written(text.length));
      }
    }
  }

  #onFrame(text: string): void {
    const env = parseClientEnvelope(text);
    if (!env) return this.#log("remote control: dropping an unparseable frame");
    const bad = badToken(env);
    // Refused whole: a frame whose addressing is not plain data is not trusted for anything else either.
    if (bad) return this.#log(`remote control: dropping a frame whose ${bad} is not a plain token`);
    if (env.cursor !== undefined) this.#cursor = env.cursor;
    switch (env.type) {
      case "client_message":
        return this.#deliver(env, env.message);
      case "client_message_chunk": {
        const seen = this.#reassembler.observe(env.client_id, env, utf8Length(text));
        if (seen.kind === "rejected") {
          return this.#log(
            `remote control: dropping chunked message ${env.client_id}/${env.stream_id}#${env.seq_id}: ${seen.reason}`,
          );
        }
        if (seen.kind !== "complete") return;
        return this.#deliver(env, undefined, seen.text);
      }
      case "ack": {
        if (env.stream_id === undefined || env.seq_id === undefined) return;
        const address = { clientId: env.client_id, streamId: env.stream_id };
        this.#buffer.ack(address, env.seq_id, env.segment_id);
        // Messages a closed stream's connection still sent leave a buffer behind; once acked it is freed.
        if (!this.#streams.has(address) && this.#buffer.pending(address) === 0) {
          this.#buffer.drop(address);
        }
        return;
      }
      case "ping": {
        const streamId = env.stream_id ?? this.#streams.legacyStream(env.client_id) ?? this.#o.random.uuid();
        const address = { clientId: env.client_id, streamId };
        const stream = this.#streams.get(address);
        const pong = (seq: number) => [{
          seqId: seq,
          text: JSON.stringify({
            type: "pong",
            status: stream ? "active" : "unknown",
            client_id: address.clientId,
            stream_id: address.streamId,
            seq_id: seq,
          }),
        }];
        if (!stream) {
          // Nothing is kept for a stream that does not exist (seq 1, as the reference's): pings to made-up
          // stream ids cost no memory and no share of the window.
          const failed = this.#buffer.sendUnkept(address, pong);
          if (failed) this.#log(`remote control: pong not sent: ${failed.message}`);
          return;
        }
        stream.lastActivity = this.#o.clock.now();
        // While the device's share of the window is full, one waiting pong is enough: a device that pings
        // without acking does not pile them up.
        const waits = !this.#buffer.hasRoom(address.clientId);
        if (waits && stream.pongWaiting) return;
        if (waits) stream.pongWaiting = true;
        this.#buffer.enqueue(address, pong)
          .catch((e) => this.#log(`remote control: pong not sent: ${toLarkitError(e).message}`))
          .finally(() => {
            if (waits) stream.pongWaiting = false;
          });
        return;
      }
      case "client_closed": {
        const streamId = env.stream_id ?? this.#streams.legacyStream(env.client_id);
        if (streamId !== undefined) this.#closeStream({ clientId: env.client_id, streamId }, "client_closed");
        return;
      }
    }
  }

  /**
   * Routes one complete client JSON-RPC message (parsed, or as JSON text when it was reassembled):
   * `initialize` opens a stream, others need an open one. Without `stream_id` (legacy clients) the message
   * goes to the stream the server generated for that client.
   */
  #deliver(env: ClientEnvelope, message: unknown, text?: string): void {
    const legacy = env.stream_id === undefined;
    const known = env.stream_id ?? this.#streams.legacyStream(env.client_id);
    const stream = known === undefined
      ? undefined
      : this.#streams.get({ clientId: env.client_id, streamId: known });
    if (text !== undefined && (!stream || text.length <= INITIALIZE_CHECK_MAX_CHARS)) {
      try {
        message = JSON.parse(text);
      } catch {
        return this.#log("remote control: reassembled message is not JSON; dropped");
      }
    }
    const now = this.#o.clock.now();
    if (message !== undefined && isInitializeRequest(message)) {
      const streamId = known ?? this.#o.random.uuid();
      const address = { clientId: env.client_id, streamId };
      const refused = this.#streams.admit(address);
      if (refused) return this.#refuse(address, message, refused.message, refused.log);
      // A re-initialize replaces the connection; the outbound numbering continues, inbound starts afresh.
      // Unlisted first, so the old connection's close does not close the stream itself.
      if (stream) {
        this.#streams.remove(address);
        stream.connection.close();
      }
      // After the removal, which forgets the legacy mapping of the stream it removes.
      if (legacy) this.#streams.setLegacyStream(env.client_id, streamId);
      this.#reassembler.restart(env.client_id, streamId, text !== undefined ? env.seq_id : undefined);
      const opened: RemoteStream = {
        ...address,
        lastSeq: env.seq_id ?? -1,
        lastActivity: now,
        connection: this.#openConnection(address),
      };
      this.#streams.add(opened);
      void this.#sweepIdle();
      this.#receive(opened, text ?? JSON.stringify(message));
      return;
    }
    if (!stream) return;
    if (env.seq_id !== undefined) {
      if (env.seq_id <= stream.lastSeq) return;
      stream.lastSeq = env.seq_id;
    }
    stream.lastActivity = now;
    this.#receive(stream, text ?? JSON.stringify(message));
  }

  /**
   * Answers an `initialize` past a stream bound with a JSON-RPC error on its stream; no connection opens. The
   * answer is not kept for acks: a device refused in a loop takes no share of the unacked window that every
   * device's answers wait for, and leaves no state behind.
   */
  #refuse(address: StreamAddress, message: unknown, why: string, log: boolean): void {
    if (log) this.#log(`remote control: refusing new streams of ${address.clientId}: ${why}`);
    const id = (message as { id: unknown }).id;
    const reply = JSON.stringify({ id, error: { code: RPC_CODES.overloaded, message: why } });
    const failed = this.#buffer.sendUnkept(
      address,
      (seq) =>
        frameMessage("server", reply, {
          client_id: address.clientId,
          stream_id: address.streamId,
          seq_id: seq,
        }),
    );
    if (failed) this.#log(`remote control: refusal not sent: ${failed.message}`);
  }

  #receive(stream: RemoteStream, text: string): void {
    stream.connection.receive(text).catch((e) =>
      this.#log(`remote control: stream ${stream.clientId}/${stream.streamId}: ${toLarkitError(e).message}`)
    );
  }

  /** Closes a remote stream: its connection, partial assembly and outbound buffer go away. */
  #closeStream(address: StreamAddress, why: string): void {
    const stream = this.#streams.remove(address);
    this.#reassembler.invalidate(address.clientId, address.streamId);
    this.#buffer.drop(address);
    if (stream) {
      this.#log(`remote control: stream ${address.clientId}/${address.streamId} closed (${why})`);
      stream.connection.close();
    }
  }

  /** Closes streams idle past the timeout; runs while any stream is open (one loop at a time). */
  async #sweepIdle(): Promise<void> {
    if (this.#sweeping) return;
    this.#sweeping = true;
    try {
      while (this.#streams.size > 0 && !this.#closed.signal.aborted) {
        try {
          await this.#o.clock.sleep(this.#timing.idleSweepMs, this.#closed.signal);
        } catch {
          return;
        }
        const now = this.#o.clock.now();
        for (const s of this.#streams.values()) {
          if (now - s.lastActivity >= this.#timing.streamIdleMs) this.#closeStream(s, "idle");
        }
      }
    } finally {
      this.#sweeping = false;
    }
  }

  #openConnection(address: StreamAddress): Connection {
    const label = `${address.clientId}/${address.streamId}`;
    const connection = this.#o.appServer.connect(
      "RemoteControl",
      {
        send: async (message) => {
          try {
            await this.#buffer.enqueue(address, (seq) =>
              frameMessage("server", message, {
                client_id: address.clientId,
                stream_id: address.streamId,
                seq_id: seq,
              }));
          } catch (e) {
            const err = toLarkitError(e);
            // Too large to send (over 100 MiB or 1024 segments): this message is dropped, the stream goes on.
            if (err.type !== "validation") throw err;
            this.#log(`remote control: dropping a server message on ${label}: ${err.message}`);
          }
        },
        close: () => {
          if (this.#streams.get(address)?.connection === connection) {
            this.#closeStream(address, "server closed");
          }
        },
      },
      label,
      { device: address.clientId },
    );
    return connection;
  }
}

/** Awaits `p` unless `signal` aborts first. */
function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new DOMException("aborted", "AbortError"));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new DOMException("aborted", "AbortError"));
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
