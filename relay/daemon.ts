/**
 * The background remote-control daemon: `larkit app-server --listen unix:PATH --remote-control` started
 * detached by `larkit remote-control start`, so remote control outlives the command that asked for it. Every
 * later `remote-control` command reaches the same daemon through its Unix socket (under the state directory)
 * and speaks ordinary JSON-RPC to it: `remoteControl/enable|disable|status/read`, and `daemon/shutdown`.
 */
import { join } from "node:path";
import * as z from "zod";
import { ERROR_SUBTYPE_NAMES, errors, type LarkitError, larkitError } from "../cli/output/errors.ts";
import { startDetached, waitFor } from "../cli/detached.ts";
import type { Clock, Env, Paths } from "../cli/provider.ts";
import { rpcErrors } from "../rpc/errors.ts";
import { lineSplitter } from "../rpc/framing.ts";
import { experimental, type MethodHandler, parseParams, ReplyThen } from "../rpc/server.ts";
import { type RemoteControlStatusView, RemoteControlStatusViewSchema } from "../rpc/protocol.ts";
import { probeSocket } from "../rpc/transports/unix.ts";
import type { SessionTiming } from "./session.ts";

export const SHUTDOWN_METHOD = "daemon/shutdown";

/** How long a freshly spawned daemon may take to answer on its socket (a cold `deno run` type-checks first). */
export const DAEMON_START_TIMEOUT_MS = 60_000;
/** How often a starting or stopping daemon's socket is looked at. */
const DAEMON_POLL_MS = 50;

/**
 * The first reconnect delay in milliseconds (doubling from there, capped at 30 s). A process's timing can only
 * be set from outside through its environment: end-to-end tests of the daemon shorten the wait with it.
 */
export const RELAY_BACKOFF_ENV = "LARKIT_RELAY_BACKOFF_MS";

/** The relay session timing the environment sets; a missing or non-positive value keeps the defaults. */
export function relayTimingFromEnv(env: Env): Partial<SessionTiming> {
  const base = Number(env.get(RELAY_BACKOFF_ENV) ?? "");
  return Number.isInteger(base) && base > 0 ? { backoffBaseMs: base } : {};
}

export function daemonSocketPath(paths: Paths): string {
  return join(paths.stateDir, "remote-control.sock");
}

/** Where the detached daemon writes what it would have said on stderr (nobody reads its streams). */
export function daemonLogPath(paths: Paths): string {
  return join(paths.stateDir, "remote-control.log");
}

/**
 * The daemon's own command line: the app server on the socket, with the remote-control methods, under the
 * profile the starting command used (the daemon's credentials come from it).
 */
export function daemonArgv(
  selfCommand: string[],
  socketPath: string,
  relayUrl: string,
  profile?: string,
  logFile?: string,
): string[] {
  return [
    ...selfCommand,
    ...(profile ? ["--profile", profile] : []),
    "app-server",
    "--listen",
    `unix:${socketPath}`,
    "--remote-control",
    "--relay-url",
    relayUrl,
    ...(logFile ? ["--log-file", logFile] : []),
  ];
}

/**
 * `daemon/shutdown`: stops the daemon after the reply is on its way. Remote devices must not be able to switch
 * this machine's daemon off, so only local connections may call it.
 */
export function shutdownMethods(shutdown: () => void): Record<string, MethodHandler> {
  return {
    [SHUTDOWN_METHOD]: experimental(SHUTDOWN_METHOD, (params, ctx) => {
      parseParams(z.nullish(z.object({})), params);
      if (ctx.connection.origin === "RemoteControl") {
        throw rpcErrors.invalidRequest(`${SHUTDOWN_METHOD} is not available to remote-control connections`);
      }
      return new ReplyThen({}, () => Promise.resolve(shutdown()));
    }),
  };
}

/** The daemon reports remote control in the app server's own status shape. */
export type StatusView = RemoteControlStatusView;

const RpcErrorData = z.object({ subtype: z.enum(ERROR_SUBTYPE_NAMES), hint: z.optional(z.string()) });

const IncomingSchema = z.union([
  z.object({
    id: z.union([z.number(), z.string()]),
    result: z.optional(z.unknown()),
    error: z.optional(z.object({ code: z.number(), message: z.string(), data: z.optional(z.unknown()) })),
  }),
  z.object({ method: z.string(), params: z.optional(z.unknown()) }),
]);

const ServerInfoSchema = z.object({ serverInfo: z.object({ version: z.string() }) });

/** An RPC error from the daemon as the larkit error it stands for (the daemon sends the type along). */
function larkitErrorOf(
  method: string,
  error: { code: number; message: string; data?: unknown },
): LarkitError {
  const data = RpcErrorData.safeParse(error.data);
  if (data.success) return larkitError(data.data.subtype, error.message, { hint: data.data.hint });
  return errors.internal(`the remote-control daemon answered ${method} with ${error.code}: ${error.message}`);
}

type Reply = { result?: unknown; error?: LarkitError };

/** One JSON-RPC connection to the daemon's socket, initialized with the experimental API. */
export class DaemonClient {
  /** Settles when the daemon closed the connection (or `close()` was called). */
  readonly closed: Promise<void>;
  readonly #conn: Deno.UnixConn;
  readonly #pending = new Map<string, { method: string; settle: (reply: Reply) => void }>();
  readonly #listeners = new Set<(method: string, params: unknown) => void>();
  #nextId = 1;

  private constructor(conn: Deno.UnixConn) {
    this.#conn = conn;
    this.closed = this.#read().finally(() => {
      for (const { settle } of this.#pending.values()) {
        settle({ error: errors.network("the remote-control daemon closed the connection") });
      }
      this.#pending.clear();
    });
  }

  /** The larkit version the daemon runs, from its initialize answer (undefined: it did not say). */
  serverVersion: string | undefined;

  /** `listener` hears notifications from the start, including the status the daemon sends on initialize. */
  static async connect(
    socketPath: string,
    version: string,
    listener?: (method: string, params: unknown) => void,
  ): Promise<DaemonClient> {
    const client = new DaemonClient(await Deno.connect({ transport: "unix", path: socketPath }));
    if (listener) client.onNotification(listener);
    const init = ServerInfoSchema.safeParse(
      await client.call("initialize", {
        clientInfo: { name: "larkit-remote-control", version },
        capabilities: { experimentalApi: true },
      }),
    );
    client.serverVersion = init.success ? init.data.serverInfo.version : undefined;
    await client.#write({ jsonrpc: "2.0", method: "initialized" });
    return client;
  }

  /** Hears every notification; returns the unsubscribe function. */
  onNotification(listener: (method: string, params: unknown) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Sends a request; rejects with the larkit error the daemon reported. */
  async call(method: string, params?: unknown): Promise<unknown> {
    const id = this.#nextId++;
    const reply = new Promise<Reply>((settle) => this.#pending.set(String(id), { method, settle }));
    await this.#write({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    const { result, error } = await reply;
    if (error) throw error;
    return result;
  }

  close(): void {
    try {
      this.#conn.close();
    } catch {
      // Already closed by the daemon.
    }
  }

  async #write(message: unknown): Promise<void> {
    const bytes = new TextEncoder().encode(JSON.stringify(message) + "\n");
    try {
      for (let at = 0; at < bytes.length;) at += await this.#conn.write(bytes.subarray(at));
    } catch (e) {
      throw errors.network(
        `cannot write to the remote-control daemon: ${e instanceof Error ? e.message : e}`,
      );
    }
  }

  async #read(): Promise<void> {
    const split = lineSplitter();
    try {
      for await (const chunk of this.#conn.readable) {
        for (const event of split.push(chunk)) if (event.kind === "line") this.#take(event.text);
      }
    } catch {
      // The daemon went away mid-read: same as the end of the stream.
    }
  }

  #take(text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return;
    }
    const parsed = IncomingSchema.safeParse(json);
    if (!parsed.success) return;
    const m = parsed.data;
    if ("id" in m) {
      const waiter = this.#pending.get(String(m.id));
      if (!waiter) return;
      this.#pending.delete(String(m.id));
      waiter.settle(m.error ? { error: larkitErrorOf(waiter.method, m.error) } : { result: m.result });
    } else {
      for (const l of this.#listeners) l(m.method, m.params);
    }
  }
}

export function parseStatus(value: unknown): StatusView {
  const parsed = RemoteControlStatusViewSchema.safeParse(value);
  if (!parsed.success) {
    throw errors.internal(
      `the remote-control daemon sent a malformed status: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}

/** Connected, errored, or still connecting after a failed attempt (the daemon keeps retrying): worth reporting. */
function isSettled(s: StatusView): boolean {
  return s.status === "connected" || s.status === "errored" || (s.status === "connecting" && !!s.error);
}

/**
 * Enables remote control on the daemon and waits (bounded) until the connection settles: connected, errored,
 * or connecting with the error of a failed first attempt. Listening starts before the enable request and a status read follows its reply, so a change that
 * raced the reply is never missed.
 */
export async function enableAndSettle(
  client: DaemonClient,
  clock: Clock,
  waitMs: number,
): Promise<{ status: StatusView; timedOut: boolean }> {
  const abort = new AbortController();
  let unsubscribe = () => {};
  const settled = new Promise<StatusView>((resolve) => {
    unsubscribe = client.onNotification((method, params) => {
      if (method !== "remoteControl/status/changed") return;
      const status = RemoteControlStatusViewSchema.safeParse(params);
      if (status.success && isSettled(status.data)) resolve(status.data);
    });
  });
  try {
    await client.call("remoteControl/enable");
    const now = parseStatus(await client.call("remoteControl/status/read"));
    if (now.status !== "connecting" || isSettled(now)) return { status: now, timedOut: false };
    const timedOut = clock.sleep(waitMs, abort.signal).then(() => undefined, () => undefined);
    const first = await Promise.race([settled, timedOut]);
    if (first) return { status: first, timedOut: false };
    return { status: parseStatus(await client.call("remoteControl/status/read")), timedOut: true };
  } finally {
    abort.abort();
    unsubscribe();
  }
}

/** Asks the daemon to exit and waits until its socket is gone. */
export async function shutdownDaemon(client: DaemonClient, socketPath: string, clock: Clock): Promise<void> {
  // The reply may be cut off by the shutdown itself; the closed connection and the removed socket are the proof.
  await Promise.race([client.call(SHUTDOWN_METHOD).catch(() => undefined), client.closed]);
  await client.closed;
  await waitFor(
    clock,
    DAEMON_START_TIMEOUT_MS,
    DAEMON_POLL_MS,
    async () => await probeSocket(socketPath) !== "live",
  );
}

export interface ReachOptions {
  socketPath: string;
  version: string;
  clock: Clock;
  /** The daemon's command line; when absent an absent daemon is not started (status, stop). */
  spawn?: string[];
  startTimeoutMs?: number;
  /** The daemon's log file, named in the error when it fails to start. */
  logFile?: string;
}

export interface Reached {
  client: DaemonClient;
  spawnedPid?: number;
  /** A daemon of another larkit version was running: with `spawn` it was replaced, else it is what answers. */
  stale?: { version?: string; restarted: boolean };
}

/**
 * The daemon's connection, starting the daemon first when asked to; undefined when none runs. A daemon run by
 * another larkit version is shut down and started again when asked to start one (an upgrade never leaves the
 * old code serving), and reported as stale otherwise.
 */
export async function reachDaemon(opts: ReachOptions): Promise<Reached | undefined> {
  let stale: Reached["stale"];
  if (await probeSocket(opts.socketPath) === "live") {
    const client = await DaemonClient.connect(opts.socketPath, opts.version);
    if (client.serverVersion === opts.version) return { client };
    if (!opts.spawn) return { client, stale: { version: client.serverVersion, restarted: false } };
    await shutdownDaemon(client, opts.socketPath, opts.clock);
    stale = { version: client.serverVersion, restarted: true };
  }
  if (!opts.spawn) return undefined;
  const started = await startDetached(
    opts.spawn,
    opts.clock,
    opts.startTimeoutMs ?? DAEMON_START_TIMEOUT_MS,
    DAEMON_POLL_MS,
    async () => await probeSocket(opts.socketPath) === "live",
  );
  if (started.live) {
    return {
      client: await DaemonClient.connect(opts.socketPath, opts.version),
      spawnedPid: started.runningPid,
      ...(stale ? { stale } : {}),
    };
  }
  throw errors.internal(
    started.exitCode === undefined
      ? `the remote-control daemon did not answer on ${opts.socketPath} in time`
      : `the remote-control daemon exited with code ${started.exitCode} before listening on ${opts.socketPath}`,
    {
      hint: `see ${
        opts.logFile ?? "its log"
      }, or run \`larkit remote-control --no-daemon\` to see why it cannot start`,
    },
  );
}
