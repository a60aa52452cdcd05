/**
 * The agent server: owns the connections, the method table, the thread hub and the server->client requests.
 * Transports call `connect(origin, outbound)` and feed frames to the returned connection; nothing here knows
 * about bytes, sockets or the relay. Extra methods (the relay's `remoteControl/*`) are handed in as options.
 */
import type { DatabaseSync } from "node:sqlite";
import * as z from "zod";
import type { Provider } from "../cli/provider.ts";
import type { AppServer, Connection, Origin, Outbound, Peer } from "./connection.ts";
import type { Runner } from "./command_run.ts";
import { rpcErrors } from "./errors.ts";
import type { Response } from "./messages.ts";
import {
  type InitializeParams,
  isMethodName,
  type MethodName,
  METHODS,
  type MethodSpec,
  type NotificationParams,
  type Notify,
  type ParamsOf,
  type ResultOf,
} from "./protocol.ts";
import { DEFAULT_QUEUE_LIMITS, type QueueLimits } from "./outbound_queue.ts";
import { DEFAULT_POLICY, type RemotePolicy } from "./policy.ts";
import { ServerRequests } from "./server_requests.ts";
import { type ConnectionInfo, type ReplyThen, Session, type SessionHost } from "./session.ts";
import { ThreadStore } from "./store.ts";
import { ThreadHub } from "./threads.ts";

export { ReplyThen } from "./session.ts";
export type { ConnectionInfo } from "./session.ts";

export interface MethodContext {
  connection: ConnectionInfo;
  /** Sends a notification to every initialized connection (e.g. `remoteControl/status/changed`). */
  broadcast: Notify;
  /** Sends a notification to this connection only (`event/received`); rejects when it was not delivered. */
  notify: Notify;
}

type Reply<M extends MethodName> = ResultOf<M> | ReplyThen<ResultOf<M>>;

/**
 * The handler of method M: gets M's params (already parsed by the protocol's schema) and returns M's result,
 * or a `ReplyThen` to do more after the response is sent; throws `RpcError` to fail.
 */
export type Handler<M extends MethodName> = (
  params: ParamsOf<M>,
  ctx: MethodContext,
) => Reply<M> | Promise<Reply<M>>;

/** A registered handler as the server stores it; build one with `defineMethod` to get the protocol's types. */
export type MethodHandler = (params: unknown, ctx: MethodContext) => unknown | Promise<unknown>;

/** Registers `handler` for the protocol's method `name`: params arrive parsed, the result is type-checked. */
export function defineMethod<M extends MethodName>(name: M, handler: Handler<M>): Record<M, MethodHandler> {
  return { [name]: (params: unknown, ctx: MethodContext) => handler(params as ParamsOf<M>, ctx) } as Record<
    M,
    MethodHandler
  >;
}

export interface AppServerOptions {
  provider: Provider;
  /** An open state database; by default `<provider.paths.stateDir>/state.db` is opened (and closed on close()). */
  db?: DatabaseSync;
  /** Restrictions for remote origins; approvals apply to every origin regardless. */
  policy?: RemotePolicy;
  /**
   * Extra methods, e.g. `remoteControl/enable` from relay/. Each must be a method of the protocol module
   * (`rpc/protocol.ts`) and cannot replace a built-in one.
   */
  methods?: Partial<Record<MethodName, MethodHandler>>;
  /**
   * Runs one argv in-process: `larkit app-server` hands over the CLI's runner, which resolves the command and
   * lets the server's gate refuse it before it runs. Without one, every turn is refused.
   */
  runner?: Runner;
  queueLimits?: QueueLimits;
  maxInFlight?: number;
  /** How long an approval waits for any client before it counts as "cancel". */
  approvalTimeoutMs?: number;
  /** Called after a connection's `initialize` succeeded, e.g. to send it the remote-control status. */
  onInitialized?: (connection: ConnectionInfo, notify: Notify) => void;
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
  connect(origin: Origin, out: Outbound, label?: string, peer?: Peer): LocalConnection;
  broadcast: Notify;
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
export function parseParams<T extends z.ZodMiniType>(schema: T, params: unknown): z.infer<T> {
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
  const requests = new ServerRequests(p.clock, p.random);
  const sessions = new Map<string, Session>();

  const broadcast: Notify = async (method, params) => {
    await Promise.all(
      [...sessions.values()].filter((s) => s.initialized).map((s) => s.notify(method, params)),
    );
  };
  /** `thread/started` goes to the connections that may see the thread (the hub decides, by owner). */
  const announce = async (
    method: "thread/started",
    params: NotificationParams<"thread/started">,
    to: (c: ConnectionInfo) => boolean,
  ) => {
    await Promise.all(
      [...sessions.values()].filter((s) => s.initialized && to(s)).map((s) => s.notify(method, params)),
    );
  };

  const hub = new ThreadHub({
    provider: p,
    store,
    runner: opts.runner,
    policy: opts.policy ?? DEFAULT_POLICY,
    requests,
    approvalTimeoutMs: opts.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
    announce,
    log,
  });

  type BuiltinName =
    | "thread/start"
    | "thread/list"
    | "thread/read"
    | "thread/resume"
    | "turn/start"
    | "turn/interrupt"
    | "command/exec";
  const builtins: {
    [M in BuiltinName]: (params: ParamsOf<M>, session: Session) => Reply<M> | Promise<Reply<M>>;
  } = {
    "thread/start": (_params, s) => hub.startThread(s),
    "thread/list": (params, s) => hub.list(s, params),
    "thread/read": (params, s) => hub.read(s, params),
    "thread/resume": (params, s) => hub.resume(s, params),
    "turn/start": (params, s) => hub.startTurn(s, params),
    "turn/interrupt": (params, s) => hub.interrupt(s, params),
    "command/exec": (params, s) => hub.exec(s, params),
  };
  const extra: Partial<Record<MethodName, MethodHandler>> = opts.methods ?? {};
  for (const name of Object.keys(extra)) {
    if (!isMethodName(name)) {
      throw new Error(`method ${name} is not in the protocol module (rpc/protocol.ts)`);
    }
    if (name in builtins || name === "initialize") throw new Error(`method ${name} is built in`);
  }

  const host: SessionHost = {
    initialize(session: Session, params: InitializeParams): ResultOf<"initialize"> {
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
    async dispatch(session, method, raw) {
      if (!isMethodName(method) || method === "initialize") throw rpcErrors.methodNotFound(method);
      const builtin = builtins[method as BuiltinName] as
        | ((params: unknown, session: Session) => unknown)
        | undefined;
      const handler = extra[method];
      if (!builtin && !handler) throw rpcErrors.methodNotFound(method);
      const spec: MethodSpec = METHODS[method];
      if (spec.experimental && !session.experimentalApi) {
        throw rpcErrors.invalidRequest(`${method} requires experimentalApi capability`);
      }
      const params = parseParams(METHODS[method].params, raw);
      if (builtin) return await builtin(params, session);
      const notify: Notify = async (m, p) => {
        if (!(await session.notify(m, p))) throw new Error(`connection ${session.id} is closed`);
      };
      return await handler?.(params, { connection: session, broadcast, notify });
    },
    onResponse(session, response: Response) {
      const fields = { connection: session.id, origin: session.origin, id: response.id };
      if (!session.initialized) return log("response_ignored", { ...fields, reason: "not initialized" });
      const outcome = requests.answer(response, session);
      if (outcome.kind === "unknown") log("stray_response", fields);
      if (outcome.kind === "refused") {
        log("response_ignored", {
          ...fields,
          reason: "this connection was not asked",
          method: outcome.request.method,
        });
      }
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
    connect(origin: Origin, out: Outbound, label?: string, peer?: Peer) {
      const session = new Session({
        id: p.random.uuid(),
        origin,
        label,
        device: peer?.device,
        out,
        queueLimits: opts.queueLimits ?? DEFAULT_QUEUE_LIMITS,
        maxInFlight: opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
      }, host);
      if (closed) {
        session.close();
        return session;
      }
      sessions.set(session.id, session);
      log("connection_opened", { connection: session.id, origin, label, device: peer?.device });
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
