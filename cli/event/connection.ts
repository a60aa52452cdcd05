/**
 * The suite's event long connection for one app: an endpoint request with the app credentials
 * (`POST <open>/callback/ws/endpoint`) hands out a WebSocket URL and the client config (ping interval,
 * reconnect count, interval and jitter); frames on the socket are protobuf (`frame.ts`). Control frames carry
 * ping/pong (a pong may update the client config); data frames carry an event, possibly split into `sum`
 * fragments of one `message_id` that are reassembled here. Each event is acknowledged by sending its frame
 * back with a `{"code":200}` payload -- but only when the owner calls `ack`, so the hub can hold the
 * acknowledgement until a consumer has the event.
 *
 * When the socket drops, the client waits a random part of ReconnectNonce (so many clients do not reconnect
 * in lockstep), then retries every ReconnectInterval, at most ReconnectCount times (negative: forever).
 */
import * as z from "zod";
import { concatBytes } from "../files.ts";
import type { Clock, FetchFn } from "../provider.ts";
import { decodeFrame, encodeFrame, type Frame, FRAME_CONTROL, FRAME_DATA, header } from "./frame.ts";
import { type EventEnvelope, EventEnvelopeSchema } from "./catalog.ts";

export const ENDPOINT_PATH = "/callback/ws/endpoint";

/** Endpoint answers the SDKs retry (the suite's "internal error"); every other non-zero code is final. */
const RETRYABLE_CODES = new Set([1000040343]);
/** Endpoint answers that mean the app's credentials were refused (auth failed, forbidden). */
const AUTH_CODES = new Set([514, 403]);

const ClientConfigSchema = z.object({
  PingInterval: z.number().check(z.positive()),
  ReconnectCount: z.number().check(z.int()),
  ReconnectInterval: z.number().check(z.nonnegative()),
  ReconnectNonce: z.number().check(z.nonnegative()),
});

// A refusal carries its code with an empty `data` object, so `data` is read only once `code` says success.
const EndpointReplySchema = z.object({
  code: z.number(),
  msg: z.optional(z.string()),
  data: z.optional(z.unknown()),
});

const EndpointDataSchema = z.object({
  URL: z.string().check(z.minLength(1)),
  ClientConfig: ClientConfigSchema,
});

const PongSchema = z.partial(ClientConfigSchema);

export interface ClientConfig {
  pingIntervalMs: number;
  reconnectCount: number;
  reconnectIntervalMs: number;
  reconnectNonceMs: number;
}

/** Until the endpoint says otherwise: the SDKs' defaults. */
const DEFAULT_CONFIG: ClientConfig = {
  pingIntervalMs: 120_000,
  reconnectCount: -1,
  reconnectIntervalMs: 120_000,
  reconnectNonceMs: 30_000,
};

/** Fragments of one event not completed within this window are dropped (the suite redelivers the event). */
export const FRAGMENT_TTL_MS = 10_000;

export type ConnectionState = "connecting" | "connected" | "reconnecting" | "failed" | "stopped";

export interface ConnectionStatus {
  state: ConnectionState;
  /** Successful connects so far (the first one and every reconnect). */
  connects: number;
  /** Why the connection failed for good, or the last reconnect failure. */
  error?: string;
  /** For a final failure: `auth` when the suite refused the app's credentials, else `network`. */
  errorType?: "auth" | "network";
}

export interface LongConnectionOptions {
  openOrigin: string;
  appId: string;
  appSecret: string;
  fetch: FetchFn;
  /** Sent with the endpoint request and the socket's upgrade: `larkit/<version>`, as every request says. */
  userAgent?: string;
  clock: Clock;
  /** Uniform in [0, 1): the reconnect jitter. */
  random: () => number;
  /** Every complete event, in arrival order; `ack` sends its acknowledgement on the socket it came on. */
  onEvent(event: EventEnvelope, ack: () => void): void;
  onStatus?(status: ConnectionStatus): void;
  log?(line: string): void;
  openSocket?(url: string): WebSocket;
}

class EndpointError extends Error {
  constructor(message: string, readonly retryable: boolean, readonly auth = false) {
    super(message);
  }
}

interface Fragments {
  parts: (Uint8Array | undefined)[];
  firstAt: number;
}

export class LongConnection {
  readonly #o: LongConnectionOptions;
  #config: ClientConfig = { ...DEFAULT_CONFIG };
  #status: ConnectionStatus = { state: "connecting", connects: 0 };
  #socket: WebSocket | undefined;
  #serviceId = 0;
  #fragments = new Map<string, Fragments>();
  readonly #stop = new AbortController();
  /** Settles when the client stopped or failed for good. */
  readonly done: Promise<void>;

  constructor(opts: LongConnectionOptions) {
    this.#o = opts;
    this.done = this.#run();
  }

  get status(): ConnectionStatus {
    return { ...this.#status };
  }

  get config(): ClientConfig {
    return { ...this.#config };
  }

  /** Closes the socket and ends the reconnect loop. */
  stop(): Promise<void> {
    this.#stop.abort();
    this.#socket?.close();
    return this.done;
  }

  #setStatus(next: Partial<ConnectionStatus>): void {
    this.#status = { ...this.#status, ...next };
    this.#o.onStatus?.(this.status);
  }

  async #run(): Promise<void> {
    const signal = this.#stop.signal;
    let attempts = 0;
    let firstRound = true;
    while (!signal.aborted) {
      if (!firstRound) {
        // After a drop: jitter first, then the interval between failed attempts.
        const wait = attempts === 0
          ? this.#o.random() * this.#config.reconnectNonceMs
          : this.#config.reconnectIntervalMs;
        try {
          await this.#o.clock.sleep(wait, signal);
        } catch {
          break;
        }
      }
      firstRound = false;
      let closed: Promise<void>;
      try {
        ({ closed } = await this.#connectOnce());
      } catch (e) {
        if (signal.aborted) break;
        const message = e instanceof Error ? e.message : String(e);
        attempts++;
        const fatal = e instanceof EndpointError && !e.retryable;
        const exhausted = this.#config.reconnectCount >= 0 && attempts >= this.#config.reconnectCount;
        if (fatal || exhausted) {
          this.#setStatus({
            state: "failed",
            error: exhausted && !fatal ? `gave up after ${attempts} attempts: ${message}` : message,
            errorType: e instanceof EndpointError && e.auth ? "auth" : "network",
          });
          return;
        }
        this.#o.log?.(`connect attempt ${attempts} failed: ${message}`);
        this.#setStatus({ state: "reconnecting", error: message });
        continue;
      }
      attempts = 0;
      this.#setStatus({ state: "connected", connects: this.#status.connects + 1, error: undefined });
      await closed;
      this.#socket = undefined;
      if (signal.aborted) break;
      this.#o.log?.("the long connection dropped; reconnecting");
      this.#setStatus({ state: "reconnecting" });
    }
    this.#setStatus({ state: "stopped" });
  }

  async #endpoint(): Promise<string> {
    let res: Response;
    try {
      res = await this.#o.fetch(`${this.#o.openOrigin}${ENDPOINT_PATH}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          locale: "zh",
          ...(this.#o.userAgent ? { "User-Agent": this.#o.userAgent } : {}),
        },
        body: JSON.stringify({ AppID: this.#o.appId, AppSecret: this.#o.appSecret }),
        signal: this.#stop.signal,
      });
    } catch (e) {
      throw new EndpointError(`endpoint request failed: ${e instanceof Error ? e.message : e}`, true);
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new EndpointError(`endpoint answered HTTP ${res.status} without JSON`, res.status >= 500);
    }
    const parsed = EndpointReplySchema.safeParse(body);
    if (!parsed.success) {
      throw new EndpointError(
        `endpoint answered an unexpected shape: ${z.prettifyError(parsed.error)}`,
        false,
      );
    }
    const { code, msg } = parsed.data;
    if (code !== 0) {
      throw new EndpointError(
        `endpoint refused the app: code ${code}: ${msg ?? ""}`,
        RETRYABLE_CODES.has(code),
        AUTH_CODES.has(code),
      );
    }
    const reply = EndpointDataSchema.safeParse(parsed.data.data);
    if (!reply.success) {
      throw new EndpointError(
        `endpoint answered an unexpected shape: ${z.prettifyError(reply.error)}`,
        false,
      );
    }
    const data = reply.data;
    const c = data.ClientConfig;
    this.#config = {
      pingIntervalMs: c.PingInterval * 1000,
      reconnectCount: c.ReconnectCount,
      reconnectIntervalMs: c.ReconnectInterval * 1000,
      reconnectNonceMs: c.ReconnectNonce * 1000,
    };
    this.#serviceId = Number(new URL(data.URL).searchParams.get("service_id") ?? 0) || 0;
    return data.URL;
  }

  /** Opens one socket; resolves once open with a promise that settles when it closes. */
  async #connectOnce(): Promise<{ closed: Promise<void> }> {
    const url = await this.#endpoint();
    const ua = this.#o.userAgent;
    const ws = this.#o.openSocket
      ? this.#o.openSocket(url)
      : new WebSocket(url, ua ? { headers: { "User-Agent": ua } } : undefined);
    ws.binaryType = "arraybuffer";
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        ws.close();
        reject(new Error("stopped"));
      };
      this.#stop.signal.addEventListener("abort", onAbort, { once: true });
      ws.onopen = () => {
        this.#stop.signal.removeEventListener("abort", onAbort);
        resolve();
      };
      ws.onerror = (e) => reject(new Error(`WebSocket failed: ${(e as ErrorEvent).message ?? "error"}`));
      ws.onclose = () => reject(new Error("WebSocket closed during the handshake"));
    });
    this.#socket = ws;
    const pingStop = new AbortController();
    const closed = new Promise<void>((resolve) => {
      ws.onclose = () => {
        pingStop.abort();
        resolve();
      };
      ws.onerror = () => {};
    });
    ws.onmessage = (m) => {
      if (!(m.data instanceof ArrayBuffer)) return;
      try {
        this.#onFrame(ws, decodeFrame(new Uint8Array(m.data)));
      } catch (e) {
        this.#o.log?.(`dropped an undecodable frame: ${e instanceof Error ? e.message : e}`);
      }
    };
    void this.#pingLoop(ws, pingStop.signal);
    return { closed };
  }

  async #pingLoop(ws: WebSocket, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      if (ws.readyState === WebSocket.OPEN) {
        ws.send(encodeFrame({
          seqId: 0n,
          logId: 0n,
          service: this.#serviceId,
          method: FRAME_CONTROL,
          headers: [{ key: "type", value: "ping" }],
        }));
      }
      try {
        await this.#o.clock.sleep(this.#config.pingIntervalMs, signal);
      } catch {
        return;
      }
    }
  }

  #onFrame(ws: WebSocket, f: Frame): void {
    const type = header(f, "type");
    if (f.method === FRAME_CONTROL) {
      if (type === "pong" && f.payload && f.payload.length > 0) this.#onPong(f.payload);
      return;
    }
    if (f.method !== FRAME_DATA || type !== "event") return;
    const whole = this.#reassemble(f);
    if (!whole) return;
    const respond = (code: number) => {
      if (ws.readyState !== WebSocket.OPEN) return;
      ws.send(encodeFrame({
        ...f,
        headers: [...f.headers, { key: "biz_rt", value: "0" }],
        payload: new TextEncoder().encode(JSON.stringify({ code })),
      }));
    };
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(whole));
    } catch {
      this.#o.log?.(`event ${header(f, "message_id")} is not JSON; answered 500`);
      return respond(500);
    }
    const event = EventEnvelopeSchema.safeParse(json);
    if (!event.success) {
      this.#o.log?.(`event ${header(f, "message_id")} is not a v2 event envelope; answered 500`);
      return respond(500);
    }
    let acked = false;
    this.#o.onEvent(event.data, () => {
      if (acked) return;
      acked = true;
      respond(200);
    });
  }

  #onPong(payload: Uint8Array): void {
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(payload));
    } catch {
      return this.#o.log?.("ignored a pong whose payload is not JSON");
    }
    const pong = PongSchema.safeParse(json);
    if (!pong.success) return this.#o.log?.("ignored a pong with an unexpected client config");
    const c = pong.data;
    this.#config = {
      pingIntervalMs: c.PingInterval !== undefined ? c.PingInterval * 1000 : this.#config.pingIntervalMs,
      reconnectCount: c.ReconnectCount ?? this.#config.reconnectCount,
      reconnectIntervalMs: c.ReconnectInterval !== undefined
        ? c.ReconnectInterval * 1000
        : this.#config.reconnectIntervalMs,
      reconnectNonceMs: c.ReconnectNonce !== undefined
        ? c.ReconnectNonce * 1000
        : this.#config.reconnectNonceMs,
    };
  }

  /** The whole payload once every fragment of the frame's message is in; undefined while some are missing. */
  #reassemble(f: Frame): Uint8Array | undefined {
    const payload = f.payload ?? new Uint8Array();
    const sum = Number(header(f, "sum") ?? "1");
    const seq = Number(header(f, "seq") ?? "0");
    const id = header(f, "message_id") ?? "";
    if (!Number.isInteger(sum) || sum < 1 || !Number.isInteger(seq) || seq < 0 || seq >= sum) {
      this.#o.log?.(`dropped a fragment with sum ${sum}, seq ${seq} of ${id}`);
      return undefined;
    }
    if (sum === 1) return payload;
    const now = this.#o.clock.now();
    for (const [key, entry] of this.#fragments) {
      if (now - entry.firstAt > FRAGMENT_TTL_MS) this.#fragments.delete(key);
    }
    let entry = this.#fragments.get(id);
    if (entry && entry.parts.length !== sum) {
      this.#o.log?.(`fragments of ${id} disagree on their count; starting over`);
      entry = undefined;
    }
    if (!entry) {
      entry = { parts: new Array(sum).fill(undefined), firstAt: now };
      this.#fragments.set(id, entry);
    }
    entry.parts[seq] = payload;
    if (entry.parts.some((p) => p === undefined)) return undefined;
    this.#fragments.delete(id);
    return concatBytes(entry.parts as Uint8Array[]);
  }
}
