/**
 * The agent server: owns the connections, the method table, the thread hub and the server→client requests.
 * Transports call `connect(origin, outbound)` and feed frames to the returned connection; nothing here knows
 * about bytes, sockets or the relay. Extra methods (the relay's `remoteControl/*`) are handed in as options.
 */
import type { DatabaseSync } from "node:sqlite";
import { z } from "zod";
import { runCli } from "../cli/run.ts";
import type { Provider } from "../cli/provider.ts";
import type { AppServer, Connection, Origin, Outbound } from "./connection.ts";
import type { Runner } from "./command_run.ts";
import { rpcErrors } from "./errors.ts";
import type { Response } from "./messages.ts";
import { DEFAULT_QUEUE_LIMITS, type QueueLimits } from "./outbound_queue.ts";
import { DEFAULT_POLICY, type RemotePolicy } from "./policy.ts";
import { ServerRequests } from "./server_requests.ts";
import { type ConnectionInfo, type InitializeParams, Session, type SessionHost } from "./session.ts";
import { ThreadStore } from "./store.ts";
import {
  CommandExecParams,
  ThreadHub,
  ThreadIdParams,
  ThreadListParams,
  ThreadReadParams,
  ThreadStartParams,
  TurnInterruptParams,
  TurnStartParams,
} from "./threads.ts";

export { ReplyThen } from "./session.ts";
export type { ConnectionInfo } from "./session.ts";

export interface MethodContext {
  connection: ConnectionInfo;
  /** Sends a notification to every initialized connection (e.g. `remoteControl/status/changed`). */
  broadcast(method: string, params?: unknown): Promise<void>;
}

/** Returns the result, or a `ReplyThen` to do more after the response is sent; throws `RpcError` to fail. */
export type MethodHandler = (params: unknown, ctx: MethodContext) => unknown | Promise<unknown>;

export interface AppServerOptions {
  provider: Provider;
  /** An open state database; by default `<provider.paths.stateDir>/state.db` is opened (and closed on close()). */
  db?: DatabaseSync;
  /** Restrictions for remote origins; approvals apply to every origin regardless. */
  policy?: RemotePolicy;
  /** Extra methods, e.g. `remoteControl/enable` from relay/. They cannot replace built-in methods. */
  methods?: Record<string, MethodHandler>;
  /** Runs one argv in-process; `runCli` unless a test substitutes it. */
  runner?: Runner;
  queueLimits?: QueueLimits;
  maxInFlight?: number;
  /** How long an approval waits for any client before it counts as "cancel". */
  approvalTimeoutMs?: number;
  /** Called after a connection's `initialize` succeeded, e.g. to send it the remote-control status. */
  onInitialized?: (
    connection: ConnectionInfo,
    notify: (method: string, params?: unknown) => Promise<void>,
  ) => void;
  /** Structured log lines (connection open/close with origin, turns, approvals). */
  log?: (event: string, fields: Record<string, unknown>) => void;
}

/** A connection made by rpc's own transports, which can also report frames they had to drop. */
export interface LocalConnection extends Connection {
  rejectFrame(detail: string): Promise<void>;
  /** Input ended but the peer still reads: finish owed replies before `close()`. */
  drain(): Promise<void>;
}

export interface LarkitAppServer extends AppServer {
  connect(origin: Origin, out: Outbound, label?: string): LocalConnection;
  broadcast(method: string, params?: unknown): Promise<void>;
  /** Live connections, for status and tests. */
  readonly connections: readonly ConnectionInfo[];
}

export const DEFAULT_MAX_IN_FLIGHT = 32;
export const DEFAULT_APPROVAL_TIMEOUT_MS = 15 * 60 * 1000;

/** Wraps a handler so only connections that initialized with `capabilities.experimentalApi` may call it. */
export function experimental(method: string, handler: MethodHandler): MethodHandler {
  return (params, ctx) => {
    if (!ctx.connection.experimentalApi) {
      throw rpcErrors.invalidRequest(`${method} requires experimentalApi capability`);
    }
    return handler(params, ctx);
  };
}

/** Parses params with a schema; a mismatch is -32602 with zod's issues as data. */
export function parseParams<T extends z.ZodType>(schema: T, params: unknown): z.infer<T> {
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) {
    throw rpcErrors.invalidParams(z.prettifyError(parsed.error).replace(/\n/g, " "), {
      issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })),
    });
  }
  return parsed.data;
}

export function createAppServer(opts: AppServerOptions): LarkitAppServer {
  const p = opts.provider;
  const log = opts.log ?? (() => {});
  const store = new ThreadStore(opts.db ? { db: opts.db } : { stateDir: p.paths.stateDir });
  const orphaned = store.interruptOrphanedTurns(p.clock.now());
  if (orphaned > 0) log("orphaned_turns_interrupted", { count: orphaned });
  const requests = new ServerRequests(p.clock);
  const sessions = new Map<string, Session>();

  const broadcast = async (method: string, params?: unknown) => {
    await Promise.all(
      [...sessions.values()].filter((s) => s.initialized).map((s) => s.notify(method, params)),
    );
  };

  const hub = new ThreadHub({
    provider: p,
    store,
    runner: opts.runner ?? runCli,
    policy: opts.policy ?? DEFAULT_POLICY,
    requests,
    approvalTimeoutMs: opts.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
    broadcast,
    log,
  });

  type Builtin = (params: unknown, session: Session) => unknown;
  const builtins: Record<string, Builtin> = {
    "thread/start": (params, s) => {
      parseParams(ThreadStartParams, params);
      return hub.startThread(s);
    },
    "thread/list": (params) => hub.list(parseParams(ThreadListParams, params)),
    "thread/read": (params) => hub.read(parseParams(ThreadReadParams, params)),
    "thread/resume": (params, s) => hub.resume(s, parseParams(ThreadIdParams, params)),
    "turn/start": (params, s) => hub.startTurn(s, parseParams(TurnStartParams, params)),
    "turn/interrupt": (params) => hub.interrupt(parseParams(TurnInterruptParams, params)),
    "command/exec": (params, s) => hub.exec(s, parseParams(CommandExecParams, params)),
  };
  const extra = opts.methods ?? {};
  for (const name of Object.keys(extra)) {
    if (name in builtins || name === "initialize") throw new Error(`method ${name} is built in`);
  }

  const host: SessionHost = {
    initialize(session: Session, params: InitializeParams) {
      opts.onInitialized?.(session, async (method, params) => {
        await session.notify(method, params);
      });
      return {
        userAgent: `larkit/${p.version}`,
        serverInfo: { name: "larkit", version: p.version },
        platformFamily: p.system.os === "windows" ? "windows" : "unix",
        platformOs: p.system.os,
        connection: { id: session.id, origin: session.origin },
        clientInfo: params.clientInfo,
      };
    },
    async dispatch(session, method, params) {
      const builtin = builtins[method];
      if (builtin) return await builtin(params, session);
      const handler = extra[method];
      if (!handler) throw rpcErrors.methodNotFound(method);
      return await handler(params, { connection: session, broadcast });
    },
    onResponse(session, response: Response) {
      const settled = requests.answer(response);
      if (!settled) log("stray_response", { connection: session.id, id: response.id });
    },
    onClosed(session, reason) {
      sessions.delete(session.id);
      hub.unsubscribeAll(session);
      log("connection_closed", { connection: session.id, origin: session.origin, reason });
    },
    log,
  };

  let closed = false;
  return {
    connect(origin: Origin, out: Outbound, label?: string) {
      const session = new Session({
        id: p.random.uuid(),
        origin,
        label,
        out,
        queueLimits: opts.queueLimits ?? DEFAULT_QUEUE_LIMITS,
        maxInFlight: opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
      }, host);
      if (closed) {
        session.close();
        return session;
      }
      sessions.set(session.id, session);
      log("connection_opened", { connection: session.id, origin, label });
      return session;
    },
    broadcast,
    get connections() {
      return [...sessions.values()];
    },
    async close() {
      if (closed) return;
      closed = true;
      await hub.closeAll();
      for (const s of [...sessions.values()]) s.close();
      store.close();
    },
  };
}
