/**
 * Assembles a remote-controllable agent server from a provider: the state database (shared by threads and
 * enrollments), the app server with the `remoteControl/*` methods, and the relay session wired to it. Every
 * app server is built here, so every one can be enabled at run time; the relay URL is resolved and checked
 * only when remote control is (or becomes) enabled, and the session is created then.
 *
 * Start-up: once the enrollment key's client name is known (the first local `initialize`, or '' for larkit's
 * own daemon and foreground mode), the persisted preference of (relay, account, client name) decides whether
 * to connect by itself; `enableAtStart` (`--remote-control`) connects regardless.
 */
import { toLarkitError } from "../cli/output/errors.ts";
import type { Provider } from "../cli/provider.ts";
import type { RemotePolicy } from "../rpc/policy.ts";
import { createAppServer, type LarkitAppServer, type MethodHandler } from "../rpc/server.ts";
import type { Runner } from "../rpc/command_run.ts";
import { openStateDb } from "../rpc/state_db.ts";
import {
  RemoteControlMethods,
  type RemoteControlSwitch,
  STATUS_CHANGED,
  statusView,
} from "./control_methods.ts";
import type { ClientListQuery, PairingCode, RemoteDevice, RemoteHost } from "./devices.ts";
import type { GetAccount } from "./enroll.ts";
import { RemoteControlSession, type SessionTiming } from "./session.ts";
import type { OpenSocket } from "./socket.ts";
import { type RemoteControlStatus, StatusBoard } from "./status.ts";
import { EnrollmentStore } from "./store.ts";
import { normalizeRelayBaseUrl } from "./url.ts";

export interface RemoteControlHostOptions {
  provider: Provider;
  /** The relay base URL, or how to find it (resolved on first enable); checked against the allow-list. */
  baseUrl: string | (() => Promise<string>);
  getAccount: GetAccount;
  /** The enrollment key's client name when fixed ('' for the daemon and foreground mode); otherwise the first local `initialize`'s. */
  clientName?: string;
  /** Enable (without touching the persisted preference) as soon as the client name is known. */
  enableAtStart?: boolean;
  /**
   * Connect by itself when the persisted preference says enabled (the default); false for a one-off command
   * (`remote-control pair|clients|hosts` without a daemon) that must never start serving remote devices.
   */
  followPreference?: boolean;
  timing?: Partial<SessionTiming>;
  runner?: Runner;
  /** Restrictions for remote origins (`--remote-read-only`, `--remote-forbid-service`). */
  policy?: RemotePolicy;
  /** More methods beside `remoteControl/*`, e.g. the daemon's `daemon/shutdown`. */
  methods?: Record<string, MethodHandler>;
  /** The session's diagnostics (never tokens). */
  log?: (line: string) => void;
  /** The app server's structured log (connections with their origin, turns, approvals). */
  serverLog?: (event: string, fields: Record<string, unknown>) => void;
  openSocket?: OpenSocket;
}

export interface RemoteControlHost {
  appServer: LarkitAppServer;
  remote: RemoteControl;
  close(): Promise<void>;
}

/** One app server's remote control: the lazily created session behind the `remoteControl/*` methods. */
export class RemoteControl implements RemoteControlSwitch {
  readonly status: StatusBoard;
  readonly #opts: RemoteControlHostOptions;
  readonly #store: EnrollmentStore;
  readonly #clientName: Promise<string>;
  #nameKnown: ((name: string) => void) | undefined;
  #session: Promise<RemoteControlSession> | undefined;
  #closed = false;

  constructor(opts: RemoteControlHostOptions, store: EnrollmentStore) {
    this.#opts = opts;
    this.#store = store;
    const p = opts.provider;
    this.status = new StatusBoard({
      status: "disabled",
      serverName: p.system.hostname,
      installationId: store.installationId(() => p.random.uuid()),
      environmentId: null,
    });
    this.#clientName = opts.clientName !== undefined
      ? Promise.resolve(opts.clientName)
      : new Promise((resolve) => this.#nameKnown = resolve);
    void this.#clientName.then((name) => this.#atStart(name));
  }

  get current(): RemoteControlStatus {
    return this.status.current;
  }

  localClientInitialized(name: string): void {
    const known = this.#nameKnown;
    this.#nameKnown = undefined;
    known?.(name);
  }

  async enable(): Promise<RemoteControlStatus> {
    return await (await this.#sessionNow()).enable();
  }

  async disable(): Promise<RemoteControlStatus> {
    if (!this.#session) return this.status.current;
    return await (await this.#session).disable();
  }

  pair(opts: { manualCode?: boolean } = {}): Promise<PairingCode> {
    return this.#sessionNow().then((s) => s.pair(opts));
  }

  pairingClaimed(code: { pairingCode?: string | null; manualPairingCode?: string | null }): Promise<boolean> {
    return this.#sessionNow().then((s) => s.pairingClaimed(code));
  }

  listClients(
    q: ClientListQuery & { environmentId?: string | null },
  ): Promise<{ data: RemoteDevice[]; nextCursor: string | null }> {
    return this.#sessionNow().then((s) => s.listClients(q));
  }

  revokeClient(clientId: string, environmentId?: string | null): Promise<void> {
    return this.#sessionNow().then((s) => s.revokeClient(clientId, environmentId));
  }

  listHosts(): Promise<(RemoteHost & { current: boolean })[]> {
    return this.#sessionNow().then((s) => s.listHosts());
  }

  deleteHost(environmentId: string): Promise<void> {
    return this.#sessionNow().then((s) => s.deleteHost(environmentId));
  }

  /** The session, once one was created (tests, the foreground command). */
  session(): Promise<RemoteControlSession> {
    return this.#sessionNow();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#session) await (await this.#session.catch(() => undefined))?.close();
  }

  #sessionNow(): Promise<RemoteControlSession> {
    if (!this.#session) {
      const attempt = this.#createSession();
      this.#session = attempt;
      // A URL that does not resolve or is refused is reported to this caller; the next enable tries again.
      attempt.catch(() => {
        if (this.#session === attempt) this.#session = undefined;
      });
    }
    return this.#session;
  }

  async #createSession(): Promise<RemoteControlSession> {
    const o = this.#opts;
    const p = o.provider;
    const urls = normalizeRelayBaseUrl(typeof o.baseUrl === "string" ? o.baseUrl : await o.baseUrl());
    return new RemoteControlSession({
      urls,
      appServer: this.#appServer(),
      getAccount: o.getAccount,
      store: this.#store,
      clock: p.clock,
      random: p.random,
      fetch: p.fetch,
      server: { name: p.system.hostname, os: p.system.os, arch: p.system.arch, appServerVersion: p.version },
      clientName: this.#clientName,
      timing: o.timing,
      log: o.log,
      openSocket: o.openSocket,
      status: this.status,
    });
  }

  #appServer: () => LarkitAppServer = () => {
    throw new Error("remote control used before its app server exists");
  };

  /** Set once by the host: the session's remote streams become connections of this server. */
  bind(appServer: LarkitAppServer): void {
    this.#appServer = () => appServer;
  }

  /** Connects by itself when asked to at start, or when the persisted preference of this key says enabled. */
  async #atStart(clientName: string): Promise<void> {
    const log = this.#opts.log ?? (() => {});
    try {
      if (this.#closed) return;
      if (!this.#opts.enableAtStart && this.#opts.followPreference === false) return;
      if (!this.#opts.enableAtStart) {
        // Without a user login there is no enrollment key, so no preference: nothing to say.
        const account = await this.#opts.getAccount().catch(() => undefined);
        if (account?.kind !== "user") return;
        const o = this.#opts;
        const base = typeof o.baseUrl === "string" ? o.baseUrl : await o.baseUrl();
        const key = {
          websocketUrl: normalizeRelayBaseUrl(base).websocket,
          accountId: account.accountId,
          clientName,
        };
        if (this.#store.load(key)?.remoteControlEnabled !== true) return;
        log("remote control: enabled by the persisted preference; connecting");
      }
      if (this.#closed) return;
      await (await this.#sessionNow()).enable({ ephemeral: true });
    } catch (e) {
      log(`remote control: not enabled at start: ${toLarkitError(e).message}`);
    }
  }
}

export function createRemoteControlHost(opts: RemoteControlHostOptions): RemoteControlHost {
  const p = opts.provider;
  const db = openStateDb(p.paths.stateDir);
  const store = new EnrollmentStore(db);
  const remote = new RemoteControl(opts, store);
  const methods = new RemoteControlMethods(remote);
  const appServer = createAppServer({
    provider: p,
    db,
    methods: { ...methods.handlers(), ...opts.methods },
    onInitialized: methods.onInitialized,
    runner: opts.runner,
    policy: opts.policy,
    log: opts.serverLog,
  });
  remote.bind(appServer);
  remote.status.subscribe((s) => void appServer.broadcast(STATUS_CHANGED, statusView(s)).catch(() => {}));
  return {
    appServer,
    remote,
    async close() {
      await remote.close();
      await appServer.close();
      db.close();
    },
  };
}
