/**
 * Assembles a remote-controllable agent server from a provider: the state database (shared by threads and
 * enrollments), the app server with the `remoteControl/*` methods, and the relay session wired to it.
 * The foreground `larkit remote-control --no-daemon` and the end-to-end tests run exactly this.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Provider } from "../cli/provider.ts";
import type { RemotePolicy } from "../rpc/policy.ts";
import { createAppServer, type LarkitAppServer, type MethodHandler } from "../rpc/server.ts";
import type { Runner } from "../rpc/command_run.ts";
import { RemoteControlMethods } from "./control_methods.ts";
import type { GetAccount } from "./enroll.ts";
import { RemoteControlSession, type SessionTiming } from "./session.ts";
import { EnrollmentStore } from "./store.ts";
import { normalizeRelayBaseUrl } from "./url.ts";

export interface RemoteControlHostOptions {
  provider: Provider;
  /** The relay base URL; checked against the allow-list before anything is opened. */
  baseUrl: string;
  getAccount: GetAccount;
  clientName?: string;
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
}

export interface RemoteControlHost {
  appServer: LarkitAppServer;
  session: RemoteControlSession;
  close(): Promise<void>;
}

export function createRemoteControlHost(opts: RemoteControlHostOptions): RemoteControlHost {
  const p = opts.provider;
  const urls = normalizeRelayBaseUrl(opts.baseUrl);
  mkdirSync(p.paths.stateDir, { recursive: true, mode: 0o700 });
  const db = new DatabaseSync(join(p.paths.stateDir, "state.db"));
  const store = new EnrollmentStore(db);
  const methods = new RemoteControlMethods({
    status: "disabled",
    serverName: p.system.hostname,
    installationId: "",
    environmentId: null,
  });
  const appServer = createAppServer({
    provider: p,
    db,
    methods: { ...methods.handlers(), ...opts.methods },
    onInitialized: methods.onInitialized,
    runner: opts.runner,
    policy: opts.policy,
    log: opts.serverLog,
  });
  const session = new RemoteControlSession({
    urls,
    appServer,
    getAccount: opts.getAccount,
    store,
    clock: p.clock,
    random: p.random,
    fetch: p.fetch,
    server: { name: p.system.hostname, os: p.system.os, arch: p.system.arch, appServerVersion: p.version },
    clientName: opts.clientName,
    timing: opts.timing,
    log: opts.log,
  });
  methods.attach(session, (method, params) => appServer.broadcast(method, params));
  return {
    appServer,
    session,
    async close() {
      await session.close();
      await appServer.close();
      db.close();
    },
  };
}
