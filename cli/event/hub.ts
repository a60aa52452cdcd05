/**
 * The event hub: the one background process per app that holds the suite's long connection (the suite hands
 * each event to only one connection of an app, so two would split the stream) and fans events out to local
 * consumers over a Unix socket (0600) under the state directory.
 *
 * Delivery rules:
 * - each event goes to every subscribed consumer whose filter matches, once;
 * - it is acknowledged to the suite only when a consumer acks it (after printing it or writing its file);
 *   until then it stays pending, and a consumer that subscribes later receives the pending events it matches,
 *   so an event that arrived while no consumer was listening, or whose only consumer exited, is not lost;
 * - events are de-duplicated by event_id: a redelivery of an acknowledged event is acknowledged again at
 *   once, a redelivery of a pending one only refreshes how to acknowledge it (the newest socket).
 * Memory is bounded: at most MAX_PENDING unacknowledged events (the oldest is forgotten, unacknowledged, so
 * the suite redelivers it), and the last MAX_SEEN acknowledged ids for de-duplication.
 *
 * Starting: consumers that find no hub at the same moment each launch one. Under a cross-process lock the first
 * to get there listens and notes when (`<socket>.listened`); a launched hub that finds a live hub, or a note
 * newer than its launch (the winner listened and may have been stopped since, while this one was slow to
 * start), exits without listening, so `event stop` is never followed by a hub nobody asked for.
 *
 * The hub exits on `stop`, shortly after the long connection failed for good (telling every consumer why),
 * after `idleMs` without a consumer, or at once when an event arrives after its last consumer left: it never
 * takes an event it cannot deliver (unacknowledged, the suite hands it to another of the app's connections).
 */
import { type Clock, untilAborted } from "../provider.ts";
import { type EventEnvelope, type EventFilter, matches } from "./catalog.ts";
import type { ConnectionStatus } from "./connection.ts";
import {
  type ClientMessage,
  ClientMessageSchema,
  type HubMessage,
  type HubStatus,
  lastListened,
  lines,
  noteListened,
  probeHub,
  writeAll,
} from "./protocol.ts";
import { errors } from "../output/errors.ts";
import { listenPrivateUnix } from "../files.ts";

export const MAX_PENDING = 1_000;
export const MAX_SEEN = 10_000;
/** A consumer this many lines behind is cut off (its pending events stay for others). */
export const MAX_CONSUMER_BACKLOG = 10_000;
/**
 * How long a hub keeps the app's long connection after its last consumer left. The suite hands each event to
 * one connection of the app: a hub holding it for no one takes events from the app's other clients (the SDK's,
 * another machine's). Long enough for a script's next consumer in a loop, short enough to give them back.
 */
export const DEFAULT_IDLE_MS = 5_000;
/** How long closing a consumer waits for the lines queued to it. */
export const FLUSH_MS = 1_000;
/** How long a hub whose long connection failed for good still answers, with the failure, before it exits. */
export const FAILED_LINGER_MS = 5_000;

export interface HubConnection {
  readonly status: ConnectionStatus;
  stop(): Promise<void>;
}

export interface HubOptions {
  appId: string;
  socketPath: string;
  clock: Clock;
  pid: number;
  idleMs: number;
  /** The larkit version running the hub, in its status: a newer larkit replaces a hub of another version. */
  version?: string;
  log(line: string): void;
  /**
   * Runs the check-for-a-live-hub-then-listen step under a cross-process lock, so two hubs starting at once
   * cannot both take the socket path (one removing the other's socket as stale). None: no other process.
   */
  exclusive?<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * When the consumer that launched this hub decided to (`HUB_LAUNCHED_ENV`); none when it was started by
   * hand. A hub so launched that finds another hub live, or finds that one listened at or after this moment
   * (it won the race and may have stopped since), exits without listening: the consumer that launched it uses
   * the winner, and a hub listening after `event stop` stopped the winner would be one nobody asked for.
   */
  launchedAt?: number;
  /** Starts the long connection with the hub's handlers. */
  connect(handlers: {
    onEvent(event: EventEnvelope, ack: () => void): void;
    onStatus(status: ConnectionStatus): void;
  }): HubConnection;
}

interface Consumer {
  conn: Deno.UnixConn;
  filter?: EventFilter;
  ready: boolean;
  chain: Promise<void>;
  backlog: number;
  closed: boolean;
}

interface Pending {
  event: EventEnvelope;
  ack: () => void;
  sentTo: Set<Consumer>;
}

export class EventHub {
  readonly #o: HubOptions;
  readonly #consumers = new Set<Consumer>();
  readonly #pending = new Map<string, Pending>();
  readonly #seen = new Set<string>();
  readonly #stopped = new AbortController();
  readonly #startedAt: string;
  #listener: Deno.Listener | undefined;
  #connection: HubConnection | undefined;
  #status: ConnectionStatus = { state: "connecting", connects: 0 };
  #stats = { received: 0, delivered: 0, acked: 0, duplicates: 0 };
  #idle: AbortController | undefined;
  /** A consumer has subscribed (and may have gone): before that, events wait for the one that launched the hub. */
  #served = false;
  #reason = "stopped";

  constructor(opts: HubOptions) {
    this.#o = opts;
    this.#startedAt = new Date(opts.clock.now()).toISOString();
  }

  /**
   * Listens on the socket and starts the long connection; resolves with why the hub stopped, or at once with
   * why it did not start (it lost the start race).
   */
  async run(): Promise<string> {
    const path = this.#o.socketPath;
    const listen = () => this.#listen();
    const taken = this.#o.exclusive ? await this.#o.exclusive(listen) : await listen();
    if (typeof taken === "string") {
      this.#o.log(`not starting: ${taken}`);
      return taken;
    }
    this.#listener = taken;
    this.#connection = this.#o.connect({
      onEvent: (e, ack) => this.#onEvent(e, ack),
      onStatus: (s) => this.#onStatus(s),
    });
    this.#armIdle();
    const accepting = this.#accept(this.#listener);
    // stop() may have come while this hub was still taking the socket (a signal, `event stop`).
    await untilAborted(this.#stopped.signal);
    this.#idle?.abort();
    await this.#connection.stop();
    try {
      this.#listener.close();
    } catch {
      // Already closed.
    }
    await accepting;
    for (const c of this.#consumers) await this.#close(c);
    try {
      await Deno.remove(path);
    } catch {
      // Removed already (a new hub may own the path by now only after this one stopped listening).
    }
    return this.#reason;
  }

  /** Takes the socket path, or says why this hub must not: another hub won the start race. */
  async #listen(): Promise<Deno.Listener | string> {
    const path = this.#o.socketPath;
    const launchedAt = this.#o.launchedAt;
    const state = await probeHub(path);
    if (state === "live") {
      if (launchedAt !== undefined) return `another event hub answers on ${path}`;
      throw errors.config(`another event hub already answers on ${path}`, {
        hint: "larkit event status shows it; larkit event stop stops it",
      });
    }
    const last = launchedAt === undefined ? undefined : await lastListened(path);
    if (last !== undefined && launchedAt !== undefined && last >= launchedAt) {
      return `another event hub listened on ${path} since this one was launched, and stopped since`;
    }
    if (state === "stale") await Deno.remove(path);
    const listener = listenPrivateUnix(path);
    await noteListened(path, this.#o.pid, this.#o.clock.now());
    return listener;
  }

  stop(reason: string): void {
    if (this.#stopped.signal.aborted) return;
    this.#reason = reason;
    this.#o.log(`stopping: ${reason}`);
    this.#stopped.abort();
  }

  status(): HubStatus {
    return {
      app_id: this.#o.appId,
      pid: this.#o.pid,
      started_at: this.#startedAt,
      connection: this.#status.state,
      connects: this.#status.connects,
      consumers: [...this.#consumers].filter((c) => c.filter).length,
      pending: this.#pending.size,
      ...this.#stats,
      ...(this.#status.error ? { error: this.#status.error } : {}),
      ...(this.#o.version ? { version: this.#o.version } : {}),
    };
  }

  async #accept(listener: Deno.Listener): Promise<void> {
    try {
      for await (const conn of listener) void this.#serve(conn as Deno.UnixConn);
    } catch {
      // The listener was closed by stop().
    }
  }

  async #serve(conn: Deno.UnixConn): Promise<void> {
    const c: Consumer = { conn, ready: false, chain: Promise.resolve(), backlog: 0, closed: false };
    this.#consumers.add(c);
    this.#idle?.abort();
    try {
      for await (const line of lines(conn.readable)) {
        let msg: ClientMessage;
        try {
          msg = ClientMessageSchema.parse(JSON.parse(line));
        } catch {
          this.#send(c, { op: "error", message: "the hub could not parse a line from this consumer" });
          break;
        }
        if (this.#handle(c, msg) === "close") break;
      }
    } catch {
      // The consumer went away mid-line.
    }
    await this.#close(c);
  }

  #handle(c: Consumer, msg: ClientMessage): "close" | void {
    switch (msg.op) {
      case "subscribe":
        try {
          c.filter = {
            keys: msg.keys,
            params: msg.params,
            ...(msg.pattern !== undefined ? { pattern: new RegExp(msg.pattern) } : {}),
          };
        } catch {
          this.#send(c, { op: "error", message: `not a regular expression: ${msg.pattern}` });
          return "close";
        }
        this.#served = true;
        this.#o.log(`consumer subscribed to ${msg.keys.join(",") || "every event"}`);
        if (this.#status.state === "connected") this.#makeReady(c);
        if (this.#status.state === "failed") this.#send(c, this.#failure());
        return;
      case "ack":
        return this.#acked(msg.event_id);
      case "status":
        this.#send(c, { op: "status", status: this.status() });
        return;
      case "stop":
        this.#send(c, { op: "stopping" });
        this.stop("asked to stop");
        return;
    }
  }

  /** `ready`, then every pending event the consumer's filter matches, in arrival order. */
  #makeReady(c: Consumer): void {
    if (c.ready || !c.filter) return;
    c.ready = true;
    this.#send(c, { op: "ready" });
    for (const p of this.#pending.values()) this.#offer(c, p);
  }

  #offer(c: Consumer, p: Pending): void {
    if (!c.ready || !c.filter || p.sentTo.has(c) || !matches(c.filter, p.event)) return;
    p.sentTo.add(c);
    this.#stats.delivered++;
    this.#send(c, { op: "event", event: p.event });
  }

  #onStatus(s: ConnectionStatus): void {
    this.#status = s;
    this.#o.log(`long connection ${s.state}${s.error ? `: ${s.error}` : ""}`);
    if (s.state === "connected") { for (const c of this.#consumers) this.#makeReady(c); }
    if (s.state === "failed") {
      for (const c of this.#consumers) this.#send(c, this.#failure());
      // Linger a moment so the consumer that started this hub, which may connect only now, learns why.
      this.#o.clock.sleep(FAILED_LINGER_MS, this.#stopped.signal).then(
        () => this.stop(`the long connection failed: ${s.error ?? ""}`),
        () => {},
      );
    }
  }

  #failure(): HubMessage {
    const s = this.#status;
    return {
      op: "error",
      message: `the long connection failed: ${s.error ?? ""}`,
      type: s.errorType,
      ...(s.errorType === "auth"
        ? { hint: "check the app id and secret: larkit config show, or LARKIT_APP_ID and LARKIT_APP_SECRET" }
        : {}),
    };
  }

  #onEvent(event: EventEnvelope, ack: () => void): void {
    const id = event.header.event_id;
    this.#stats.received++;
    if (this.#seen.has(id)) {
      this.#stats.duplicates++;
      ack();
      return;
    }
    const known = this.#pending.get(id);
    if (known) {
      this.#stats.duplicates++;
      known.ack = ack;
      for (const c of this.#consumers) this.#offer(c, known);
      return;
    }
    // A connection asking for status or a stop is no consumer: only subscriptions count.
    if (this.#served && ![...this.#consumers].some((c) => c.filter)) {
      this.stop(`event ${id} arrived after the last consumer left; released for the app's other connections`);
      return;
    }
    const p: Pending = { event, ack, sentTo: new Set() };
    this.#pending.set(id, p);
    if (this.#pending.size > MAX_PENDING) {
      const oldest = this.#pending.keys().next().value as string;
      this.#pending.delete(oldest);
      this.#o.log(
        `forgot unacknowledged event ${oldest} (more than ${MAX_PENDING} pending); the suite redelivers it`,
      );
    }
    for (const c of this.#consumers) this.#offer(c, p);
  }

  #acked(id: string): void {
    const p = this.#pending.get(id);
    if (!p) return;
    p.ack();
    this.#pending.delete(id);
    this.#seen.add(id);
    this.#stats.acked++;
    if (this.#seen.size > MAX_SEEN) this.#seen.delete(this.#seen.values().next().value as string);
  }

  #send(c: Consumer, msg: HubMessage): void {
    if (c.closed) return;
    if (++c.backlog > MAX_CONSUMER_BACKLOG) {
      this.#o.log(`cut off a consumer more than ${MAX_CONSUMER_BACKLOG} lines behind`);
      void this.#close(c);
      return;
    }
    const line = JSON.stringify(msg) + "\n";
    c.chain = c.chain.then(async () => {
      if (c.closed) return;
      try {
        await writeAll(c.conn, line);
        c.backlog--;
      } catch {
        await this.#close(c);
      }
    });
  }

  async #close(c: Consumer): Promise<void> {
    if (!this.#consumers.delete(c)) return;
    // Let what was queued reach the consumer first (the `stopping` reply, a final error), but not wait on a
    // consumer that stopped reading.
    const flushed = new AbortController();
    await Promise.race([c.chain, this.#o.clock.sleep(FLUSH_MS, flushed.signal).catch(() => {})]);
    flushed.abort();
    c.closed = true;
    try {
      c.conn.close();
    } catch {
      // Closed by the peer.
    }
    // Its unacknowledged events stay pending for the other consumers and the next one.
    for (const p of this.#pending.values()) p.sentTo.delete(c);
    if (this.#consumers.size === 0) this.#armIdle();
  }

  #armIdle(): void {
    this.#idle?.abort();
    if (this.#stopped.signal.aborted) return;
    const idle = this.#idle = new AbortController();
    this.#o.clock.sleep(this.#o.idleMs, idle.signal).then(
      () => {
        if (this.#consumers.size === 0 && !this.#stopped.signal.aborted) {
          this.stop(`no consumer for ${this.#o.idleMs} ms`);
        }
      },
      () => {},
    );
  }
}
