/**
 * The remote-control session: one outbound WebSocket to the relay, kept alive across drops, that turns every
 * remote (client_id, stream_id) into an ordinary app-server connection with origin `RemoteControl`. This module
 * only wires the parts, each with one job:
 *
 * - `enrollment.ts`: credentials -- the enrollment (memory, state DB, or enroll), the server token and its
 *   refresh, what a refused handshake means for them (re-enroll on the relay's 404), pairing and devices;
 * - `link.ts`: the socket and its liveness -- connect, ping/pong, dead-peer detection, reconnect with backoff;
 * - `streams.ts`: the stream tracker -- each (client, stream)'s connection, inbound de-duplication and chunks,
 *   outbound numbering and unacked frames, pongs, idle expiry;
 * - `writer.ts`: the write pump -- frames to the socket, streams taking turns, a bounded write-ahead.
 *
 * Connect cycle: client name (the first local `initialize`'s, or '' for larkit's own daemon) -> account (user
 * login only) -> enrollment -> server token -> handshake -> resend every unacked envelope in order -> serve
 * frames until the socket drops or goes silent -> back off -> again, until `disable`.
 */
import { errors } from "../cli/output/errors.ts";
import type { Clock, FetchFn, Random } from "../cli/provider.ts";
import type { AppServer } from "../rpc/connection.ts";
import { type GetAccount, requireUserAccount } from "./enroll.ts";
import { badToken, parseClientEnvelope, scanClientMessage } from "./envelopes.ts";
import type { ClientListQuery, PairingCode, RemoteDevice, RemoteHost } from "./devices.ts";
import { RelayEnrollment } from "./enrollment.ts";
import { type LinkTiming, RelayLink } from "./link.ts";
import { type OpenSocket, openWsSocket } from "./socket.ts";
import { type RemoteControlStatus, StatusBoard } from "./status.ts";
import type { EnrollmentStore } from "./store.ts";
import { type StreamLimits, StreamTracker } from "./streams.ts";
import type { RelayUrls } from "./url.ts";
import { FramePump } from "./writer.ts";

export { PROTOCOL_VERSION, reportsServerNotFound, SERVER_NOT_FOUND_DETAIL } from "./enrollment.ts";
export { backoffDelay } from "./link.ts";

/** The link's timing (backoff, pings, liveness) and the session's own. */
export interface SessionTiming extends LinkTiming {
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

export class RemoteControlSession {
  readonly status: StatusBoard;
  readonly #o: SessionOptions;
  readonly #closed = new AbortController();
  readonly #enrollment: RelayEnrollment;
  readonly #link: RelayLink;
  readonly #streams: StreamTracker;
  readonly #pump = new FramePump();
  #cursor: string | undefined;

  constructor(options: SessionOptions) {
    this.#o = options;
    const timing = { ...DEFAULT_TIMING, ...options.timing };
    const log = options.log ?? (() => {});
    const installationId = options.store.installationId(() => options.random.uuid());
    this.status = options.status ?? new StatusBoard({
      status: "disabled",
      serverName: options.server.name,
      installationId,
      environmentId: null,
    });
    this.#enrollment = new RelayEnrollment({
      urls: options.urls,
      getAccount: options.getAccount,
      store: options.store,
      clock: options.clock,
      fetch: options.fetch,
      server: options.server,
      clientName: options.clientName,
      installationId,
      tokenRefreshSkewMs: timing.tokenRefreshSkewMs,
      status: this.status,
      log,
      closed: this.#closed.signal,
    });
    this.#streams = new StreamTracker({
      appServer: options.appServer,
      clock: options.clock,
      random: options.random,
      timing,
      limits: options.streamLimits,
      bufferCapacity: options.bufferCapacity,
      sink: (frames, stream) => this.#pump.write(frames, stream),
      log,
    });
    this.#link = new RelayLink({
      url: options.urls.websocket,
      clock: options.clock,
      random: options.random,
      timing,
      openSocket: options.openSocket ?? openWsSocket,
      status: this.status,
      log,
      credentials: async (auth, signal) => {
        const clientName = await abortable(Promise.resolve(options.clientName), signal);
        return await this.#enrollment.handshake(clientName, auth, this.#cursor, signal);
      },
      classify: (e) => this.#enrollment.classify(e),
      onText: (text) => this.#onFrame(text, log),
      // Everything unacked goes first, in order per stream, then new traffic.
      onUp: (socket) => this.#pump.attach(socket, this.#streams.backlog()),
      onDown: () => this.#pump.detach(),
    });
  }

  /**
   * Starts connecting (idempotent) and, unless ephemeral, persists "enabled" for this enrollment key. Fails at
   * once, without starting, when the account is not a user login.
   */
  async enable(opts: ToggleOptions = {}): Promise<RemoteControlStatus> {
    if (this.#closed.signal.aborted) throw errors.internal("remote control session is closed");
    if (!this.#link.running) requireUserAccount(await this.#o.getAccount());
    if (!opts.ephemeral) await this.#enrollment.persistPreference(true);
    if (this.#link.running) return this.status.current;
    this.status.update({
      status: "connecting",
      environmentId: this.#enrollment.environmentId,
      error: undefined,
    });
    this.#link.start();
    return this.status.current;
  }

  /**
   * Stops this process's remote control: closes the socket and stops reconnecting; unless ephemeral, persists
   * "disabled". Streams and their buffers stay (remote connections survive a disable/enable cycle).
   */
  async disable(opts: ToggleOptions = {}): Promise<RemoteControlStatus> {
    await this.#link.stop();
    if (!opts.ephemeral) await this.#enrollment.persistPreference(false);
    this.status.update({ status: "disabled" });
    return this.status.current;
  }

  /** Disables (ephemerally) and closes every remote stream's connection. */
  async close(): Promise<void> {
    await this.disable({ ephemeral: true });
    this.#closed.abort();
    this.#streams.close(errors.network("remote control session closed"));
  }

  /** A pairing code a new device redeems at the relay (see `RelayEnrollment.pair`). */
  pair(opts: { manualCode?: boolean } = {}): Promise<PairingCode> {
    return this.#enrollment.pair(opts);
  }

  /** Whether a device redeemed the pairing code. */
  pairingClaimed(code: { pairingCode?: string | null; manualPairingCode?: string | null }): Promise<boolean> {
    return this.#enrollment.pairingClaimed(code);
  }

  /** The devices paired with an environment (this server's by default), with their last-seen time. */
  listClients(
    q: ClientListQuery & { environmentId?: string | null },
  ): Promise<{ data: RemoteDevice[]; nextCursor: string | null }> {
    return this.#enrollment.listClients(q);
  }

  /** Revokes a device: the relay refuses it from then on and closes its open streams at once. */
  revokeClient(clientId: string, environmentId?: string | null): Promise<void> {
    return this.#enrollment.revokeClient(clientId, environmentId);
  }

  /** The account's enrolled machines; `current` marks this server's own enrollment. */
  listHosts(): Promise<(RemoteHost & { current: boolean })[]> {
    return this.#enrollment.listHosts();
  }

  /** Deletes an enrolled machine at the relay; this server's own one is forgotten here too. */
  deleteHost(environmentId: string): Promise<void> {
    return this.#enrollment.deleteHost(environmentId);
  }

  /** Unacked envelopes across all streams (tests, status). */
  pendingEnvelopes(): number {
    return this.#streams.pendingEnvelopes();
  }

  /** Open remote streams and streams holding an outbound buffer (tests check both are freed). */
  streamCounts(): { open: number; buffered: number } {
    return this.#streams.counts();
  }

  /** Clock time of the last pong or data frame (never the relay's pings), for tests of the liveness rule. */
  get lastInboundAt(): number | undefined {
    return this.#link.lastInboundAt;
  }

  #onFrame(text: string, log: (line: string) => void): void {
    const scanned = scanClientMessage(text);
    if (scanned) {
      // Its ids and cursor were read as plain tokens.
      if (scanned.env.cursor !== undefined) this.#cursor = scanned.env.cursor;
      return this.#streams.handle(scanned.env, text, scanned.messageText);
    }
    const env = parseClientEnvelope(text);
    if (!env) return log("remote control: dropping an unparseable frame");
    const bad = badToken(env);
    // Refused whole: a frame whose addressing is not plain data is not trusted for anything else either.
    if (bad) return log(`remote control: dropping a frame whose ${bad} is not a plain token`);
    if (env.cursor !== undefined) this.#cursor = env.cursor;
    this.#streams.handle(env, text);
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
