/**
 * One connection as the server sees it: the handshake state, the JSON-RPC dispatch of each incoming frame
 * (single messages and batches), and the ordered outbound queue. Methods themselves live with the server;
 * this module only knows the protocol rules.
 */
import * as z from "zod";
import type { Connection, Origin, Outbound } from "./connection.ts";
import { type RpcError, rpcErrors, toRpcError } from "./errors.ts";
import {
  classify,
  errorObject,
  type Notification,
  notificationObject,
  type OutMessage,
  type Request,
  type RequestId,
  requestObject,
  type Response,
  resultObject,
} from "./messages.ts";
import { OutboundQueue, type QueueLimits } from "./outbound_queue.ts";
import {
  type InitializeParams,
  InitializeParamsSchema,
  type NotificationName,
  type NotificationParams,
} from "./protocol.ts";

/** What handlers and logs may know about a connection. */
export interface ConnectionInfo {
  readonly id: string;
  readonly origin: Origin;
  readonly label?: string;
  /** The remote device (relay client id) of a `RemoteControl` connection. */
  readonly device?: string;
  readonly clientInfo?: InitializeParams["clientInfo"];
  readonly experimentalApi: boolean;
  /** The connection completed `initialize`; before that nothing it sends (not even an answer) counts. */
  readonly initialized: boolean;
}

/** A handler's result plus work that must happen after the response is on its way (e.g. the turn's events). */
export class ReplyThen<T = unknown> {
  constructor(readonly result: T, readonly afterReply: () => Promise<void>) {}
}

/** The server side the session calls into. */
export interface SessionHost {
  initialize(session: Session, params: InitializeParams): unknown;
  dispatch(session: Session, method: string, params: unknown): Promise<unknown>;
  onResponse(session: Session, response: Response): void;
  onClosed(session: Session, reason: string): void;
  log(event: string, fields: Record<string, unknown>): void;
}

export interface SessionOptions {
  id: string;
  origin: Origin;
  label?: string;
  device?: string;
  out: Outbound;
  queueLimits: QueueLimits;
  /** Requests being handled at once; past it new requests get -32002 instead of queueing without bound. */
  maxInFlight: number;
}

export class Session implements Connection, ConnectionInfo {
  readonly id: string;
  readonly origin: Origin;
  readonly label?: string;
  readonly device?: string;
  readonly queue: OutboundQueue;
  #host: SessionHost;
  #out: Outbound;
  #maxInFlight: number;
  #inFlight = 0;
  /** Handlers and follow-ups still running, so an input that ended can still get its replies (`drain`). */
  #pending = new Set<Promise<unknown>>();
  #init?: InitializeParams;
  #clientReady = false;
  #closed = false;

  constructor(opts: SessionOptions, host: SessionHost) {
    this.id = opts.id;
    this.origin = opts.origin;
    this.label = opts.label;
    this.device = opts.device;
    this.#host = host;
    this.#out = opts.out;
    this.#maxInFlight = opts.maxInFlight;
    this.queue = new OutboundQueue(opts.out, opts.queueLimits, (reason) => this.#finish(reason));
  }

  get clientInfo(): InitializeParams["clientInfo"] | undefined {
    return this.#init?.clientInfo;
  }
  get experimentalApi(): boolean {
    return this.#init?.capabilities?.experimentalApi === true;
  }
  get initialized(): boolean {
    return this.#init !== undefined;
  }
  /** The client sent the `initialized` notification. */
  get clientReady(): boolean {
    return this.#clientReady;
  }
  get closed(): boolean {
    return this.#closed;
  }
  get inFlight(): number {
    return this.#inFlight;
  }

  async receive(message: string): Promise<void> {
    if (this.#closed) return;
    let value: unknown;
    try {
      value = JSON.parse(message);
    } catch (e) {
      await this.#send(
        errorObject(null, rpcErrors.parse(e instanceof Error ? e.message : undefined).toBody()),
      );
      return;
    }
    if (Array.isArray(value)) {
      if (value.length === 0) {
        await this.#send(
          errorObject(null, rpcErrors.invalidRequest("Invalid request: empty batch").toBody()),
        );
        return;
      }
      this.#handleBatch(value);
    } else {
      this.#handleSingle(value);
    }
    // Reading pauses while this client is not draining its replies: the transport stops pulling bytes.
    await this.queue.ready();
  }

  /** A frame the transport could not even hand over (e.g. a line over the size limit): answered as -32700. */
  async rejectFrame(detail: string): Promise<void> {
    if (this.#closed) return;
    await this.#send(errorObject(null, rpcErrors.parse(detail).toBody()));
    await this.queue.ready();
  }

  /** Sends a notification unless the client opted out of that method. Resolves false when not delivered. */
  notify<N extends NotificationName>(method: N, params: NotificationParams<N>): Promise<boolean> {
    if (this.#init?.capabilities?.optOutNotificationMethods?.includes(method)) return Promise.resolve(true);
    return this.#send(notificationObject(method, params));
  }

  /** Sends a server->client request; the host correlates the response by id. */
  request(id: RequestId, method: string, params?: unknown): Promise<boolean> {
    return this.#send(requestObject(id, method, params));
  }

  /** The peer stopped sending but still reads (stdin at EOF): finish the replies owed, then hand them over. */
  async drain(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
    await this.queue.drained();
  }

  close(): void {
    this.queue.close("peer closed");
  }

  #track(work: Promise<unknown>): void {
    this.#pending.add(work);
    work.finally(() => this.#pending.delete(work));
  }

  #finish(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#out.close();
    this.#host.onClosed(this, reason);
  }

  #send(msg: OutMessage | OutMessage[]): Promise<boolean> {
    return this.queue.push(JSON.stringify(msg));
  }

  #handleSingle(value: unknown): void {
    const work = this.#handle(value);
    if (work === undefined) return;
    this.#track(
      work.then(async ({ reply, followUp }) => {
        if (reply) await this.#send(reply);
        await followUp?.();
      }).catch((e) => this.#host.log("handler_followup_failed", { connection: this.id, error: String(e) })),
    );
  }

  #handleBatch(values: unknown[]): void {
    const works = values.map((v) => this.#handle(v)).filter((w) => w !== undefined);
    if (works.length === 0) return;
    this.#track(
      Promise.all(works).then(async (done) => {
        const replies = done.flatMap((d) => d.reply ? [d.reply] : []);
        // A batch of only notifications gets no reply at all (JSON-RPC 2.0 §6).
        if (replies.length > 0) await this.#send(replies);
        for (const d of done) await d.followUp?.();
      }).catch((e) => this.#host.log("handler_followup_failed", { connection: this.id, error: String(e) })),
    );
  }

  /** Starts handling one message; state changes (handshake) happen synchronously, in arrival order. */
  #handle(value: unknown): Promise<{ reply?: OutMessage; followUp?: () => Promise<void> }> | undefined {
    const incoming = classify(value);
    switch (incoming.kind) {
      case "invalid":
        return Promise.resolve({
          reply: errorObject(
            incoming.id,
            rpcErrors.invalidRequest(`Invalid request: ${incoming.reason}`).toBody(),
          ),
        });
      case "response":
        this.#host.onResponse(this, incoming.msg);
        return undefined;
      case "notification":
        this.#onNotification(incoming.msg);
        return undefined;
      case "request":
        return this.#onRequest(incoming.msg);
    }
  }

  #onNotification(msg: Notification): void {
    if (msg.method === "initialized" && this.initialized) this.#clientReady = true;
    // Other client notifications carry nothing this server acts on; JSON-RPC forbids replying to them.
  }

  #onRequest(msg: Request): Promise<{ reply: OutMessage; followUp?: () => Promise<void> }> {
    const fail = (e: RpcError) => Promise.resolve({ reply: errorObject(msg.id, e.toBody()) });
    if (msg.method === "initialize") {
      if (this.initialized) return fail(rpcErrors.invalidRequest("Already initialized"));
      const parsed = InitializeParamsSchema.safeParse(msg.params ?? {});
      if (!parsed.success) return fail(rpcErrors.invalidParams(z.prettifyError(parsed.error)));
      this.#init = parsed.data;
      this.#host.log("initialized", {
        connection: this.id,
        origin: this.origin,
        client: parsed.data.clientInfo.name,
      });
      try {
        return Promise.resolve({ reply: resultObject(msg.id, this.#host.initialize(this, parsed.data)) });
      } catch (e) {
        return fail(toRpcError(e));
      }
    }
    if (!this.initialized) return fail(rpcErrors.invalidRequest("Not initialized"));
    if (this.#inFlight >= this.#maxInFlight) return fail(rpcErrors.overloaded(this.#maxInFlight));
    this.#inFlight++;
    return this.#host.dispatch(this, msg.method, msg.params).then(
      (result) =>
        result instanceof ReplyThen
          ? { reply: resultObject(msg.id, result.result), followUp: result.afterReply }
          : { reply: resultObject(msg.id, result) },
      (e) => ({ reply: errorObject(msg.id, toRpcError(e).toBody()) }),
    ).finally(() => this.#inFlight--);
  }
}
