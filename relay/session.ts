/**
 * The remote-control session: one outbound WebSocket to the relay, kept alive across drops, that turns every
 * remote (client_id, stream_id) into an ordinary app-server connection with origin `RemoteControl`.
 *
 * Connect cycle: account (user login only) → enrollment (memory, then the state DB, then enroll) → handshake
 * → resend every unacked envelope in order → serve frames until the socket drops or the peer goes silent →
 * back off (capped exponential with jitter, reset after a stable connection) → again. A handshake 404 means
 * the relay forgot this server: the stored enrollment is deleted and the next attempt enrolls anew. An auth
 * failure refreshes the account token once; a second one stops the loop in `errored` with a login hint.
 */
import { errors, type LarkitError, toLarkitError } from "../cli/output/errors.ts";
import type { Clock, FetchFn, Random } from "../cli/provider.ts";
import type { AppServer, Connection } from "../rpc/connection.ts";
import { OutboundBuffer, STREAM_BUFFER_CAPACITY, type StreamAddress } from "./buffer.ts";
import {
  accountHeaders,
  enrollServer,
  type GetAccount,
  LOGIN_HINT,
  type RelayAccount,
  requireUserAccount,
} from "./enroll.ts";
import {
  type ClientEnvelope,
  isInitializeRequest,
  parseClientEnvelope,
  parseKeepAlive,
} from "./envelopes.ts";
import { frameMessage, Reassembler, SEGMENT_MAX_BYTES, type WireFrame } from "./segments.ts";
import { type RemoteControlStatus, StatusBoard } from "./status.ts";
import type { Enrollment, EnrollmentKey, EnrollmentStore } from "./store.ts";
import type { RelayUrls } from "./url.ts";

export const PROTOCOL_VERSION = "3";

export interface SessionTiming {
  backoffBaseMs: number;
  backoffCapMs: number;
  /** A connection up at least this long resets the backoff. */
  stableMs: number;
  keepAliveMs: number;
  /** No frame from the relay for this long: the peer is considered dead and the socket is recycled. */
  deadPeerMs: number;
  connectTimeoutMs: number;
}

export const DEFAULT_TIMING: SessionTiming = {
  backoffBaseMs: 200,
  backoffCapMs: 30_000,
  stableMs: 10_000,
  keepAliveMs: 10_000,
  deadPeerMs: 60_000,
  connectTimeoutMs: 30_000,
};

export type OpenSocket = (url: string, headers: Record<string, string>) => WebSocket;

export interface SessionOptions {
  urls: RelayUrls;
  appServer: AppServer;
  getAccount: GetAccount;
  store: EnrollmentStore;
  clock: Clock;
  random: Random;
  fetch: FetchFn;
  server: { name: string; os: string; arch: string; appServerVersion: string };
  /** The first local client's name (part of the enrollment key); "" when none. */
  clientName?: string;
  timing?: Partial<SessionTiming>;
  bufferCapacity?: number;
  /** Diagnostics (stderr); never receives tokens. */
  log?: (line: string) => void;
  openSocket?: OpenSocket;
}

interface RemoteStream extends StreamAddress {
  connection: Connection;
  /** Last accepted client seq_id; inbound duplicates at or below it are ignored. */
  lastSeq: number;
}

const nativeSocket: OpenSocket = (url, headers) => new WebSocket(url, { headers });

/** Capped exponential backoff with ±10% jitter; `unit` is a uniform random number in [0, 1). */
export function backoffDelay(attempt: number, timing: SessionTiming, unit: number): number {
  const raw = Math.min(timing.backoffCapMs, timing.backoffBaseMs * 2 ** Math.min(attempt, 30));
  return Math.round(raw * (0.9 + 0.2 * unit));
}

/** The native client exposes a refused handshake's status only inside the error text. */
export function handshakeStatus(message: string): number | undefined {
  const m = /Invalid status code:? (\d{3})/.exec(message);
  return m ? Number(m[1]) : undefined;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

function utf8Length(text: string): number {
  return text.length * 3 <= SEGMENT_MAX_BYTES ? text.length : encoder.encode(text).length;
}

export class RemoteControlSession {
  readonly status: StatusBoard;
  readonly #o: SessionOptions;
  readonly #timing: SessionTiming;
  readonly #buffer: OutboundBuffer;
  readonly #reassembler = new Reassembler();
  readonly #streams = new Map<string, RemoteStream>();
  readonly #installationId: string;
  readonly #log: (line: string) => void;
  #socket: WebSocket | undefined;
  #cursor: string | undefined;
  #enrollment: Enrollment | undefined;
  #loop: { abort: AbortController; done: Promise<void> } | undefined;

  constructor(options: SessionOptions) {
    this.#o = options;
    this.#timing = { ...DEFAULT_TIMING, ...options.timing };
    this.#log = options.log ?? (() => {});
    this.#buffer = new OutboundBuffer(
      (frames) => this.#write(frames),
      options.bufferCapacity ?? STREAM_BUFFER_CAPACITY,
    );
    this.#installationId = options.store.installationId(() => options.random.uuid());
    this.status = new StatusBoard({
      status: "disabled",
      serverName: options.server.name,
      installationId: this.#installationId,
      environmentId: null,
    });
  }

  /** Starts connecting (idempotent). Fails at once, without starting, when the account is not a user login. */
  async enable(): Promise<RemoteControlStatus> {
    if (this.#loop) return this.status.current;
    requireUserAccount(await this.#o.getAccount());
    const abort = new AbortController();
    this.status.update({ status: "connecting", environmentId: this.#enrollment?.environmentId ?? null });
    this.#loop = { abort, done: this.#run(abort.signal) };
    return this.status.current;
  }

  /** Stops this process's remote control: closes the socket and stops reconnecting. Streams and buffers stay. */
  async disable(): Promise<RemoteControlStatus> {
    const loop = this.#loop;
    this.#loop = undefined;
    if (loop) {
      loop.abort.abort();
      this.#socket?.close();
      await loop.done;
    }
    this.status.update({ status: "disabled" });
    return this.status.current;
  }

  /** Disables and closes every remote stream's connection. */
  async close(): Promise<void> {
    await this.disable();
    this.#buffer.close(errors.network("remote control session closed"));
    for (const s of this.#streams.values()) s.connection.close();
    this.#streams.clear();
  }

  /** Unacked envelopes across all streams (tests, status). */
  pendingEnvelopes(): number {
    return this.#buffer.totalPending();
  }

  async #run(signal: AbortSignal): Promise<void> {
    let attempt = 0;
    let refreshAccount = false;
    while (!signal.aborted) {
      let connectedAt: number | undefined;
      try {
        const account = requireUserAccount(
          await this.#o.getAccount(refreshAccount ? { refresh: true } : undefined),
        );
        const enrollment = await this.#prepareEnrollment(account, signal);
        const ws = await this.#handshake(enrollment, account, signal);
        refreshAccount = false;
        connectedAt = this.#o.clock.now();
        this.status.update({ status: "connected", environmentId: enrollment.environmentId });
        await this.#serve(ws, signal);
        if (!signal.aborted) this.status.update({ status: "connecting" });
      } catch (e) {
        if (signal.aborted) break;
        const err = toLarkitError(e);
        if (err.type === "auth") {
          if (!refreshAccount) {
            this.#log(`remote control: authentication failed (${err.message}); refreshing the account token`);
            refreshAccount = true;
            continue;
          }
          this.status.update({
            status: "errored",
            error: { message: err.message, hint: err.hint ?? LOGIN_HINT, type: err.type },
          });
          this.#loop = undefined;
          return;
        }
        if (err.type === "not_found" && err.body.code === 404 && this.#enrollment) {
          this.#log("remote control: relay no longer knows this server (HTTP 404); enrolling again");
          this.#o.store.delete(this.#enrollment);
          this.#enrollment = undefined;
          this.status.update({ environmentId: null });
        } else {
          this.#log(`remote control: ${err.message}`);
          this.status.update({
            status: "errored",
            error: { message: err.message, hint: err.hint, type: err.type },
          });
        }
      }
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

  async #prepareEnrollment(account: RelayAccount, signal: AbortSignal): Promise<Enrollment> {
    if (this.#enrollment && this.#enrollment.accountId !== account.accountId) {
      this.#log("remote control: account changed; clearing the in-memory enrollment");
      this.#enrollment = undefined;
      this.status.update({ environmentId: null });
    }
    if (this.#enrollment) return this.#enrollment;
    const key: EnrollmentKey = {
      websocketUrl: this.#o.urls.websocket,
      accountId: account.accountId,
      clientName: this.#o.clientName ?? "",
    };
    const stored = this.#o.store.load(key);
    const nowSeconds = Math.floor(this.#o.clock.now() / 1000);
    if (stored) {
      this.#enrollment = { ...stored, serverName: this.#o.server.name };
    } else {
      const { server } = this.#o;
      const result = await enrollServer(this.#o.fetch, this.#o.urls.enroll, account, {
        name: server.name,
        os: server.os,
        arch: server.arch,
        appServerVersion: server.appServerVersion,
        installationId: this.#installationId,
      }, signal);
      this.#enrollment = { ...key, ...result, serverName: server.name, updatedAt: nowSeconds };
      this.#o.store.upsert(this.#enrollment);
    }
    this.status.update({ environmentId: this.#enrollment.environmentId });
    return this.#enrollment;
  }

  #handshake(enrollment: Enrollment, account: RelayAccount, signal: AbortSignal): Promise<WebSocket> {
    const headers: Record<string, string> = {
      ...accountHeaders(account, this.#installationId),
      "x-svc-server-id": enrollment.serverId,
      "x-svc-name": encoder.encode(enrollment.serverName).toBase64(),
      "x-svc-protocol-version": PROTOCOL_VERSION,
    };
    if (this.#cursor !== undefined) headers["x-svc-subscribe-cursor"] = this.#cursor;
    const ws = (this.#o.openSocket ?? nativeSocket)(this.#o.urls.websocket, headers);
    return new Promise((resolve, reject) => {
      const fail = (err: LarkitError) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        ws.onopen = ws.onerror = ws.onclose = null;
        if (ws.readyState !== WebSocket.CLOSED) ws.close();
        reject(err);
      };
      const timer = setTimeout(
        () =>
          fail(errors.timeout(`timed out connecting to the relay after ${this.#timing.connectTimeoutMs} ms`)),
        this.#timing.connectTimeoutMs,
      );
      const onAbort = () => fail(errors.network("remote control disabled while connecting"));
      signal.addEventListener("abort", onAbort, { once: true });
      ws.onopen = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        ws.onopen = ws.onerror = ws.onclose = null;
        resolve(ws);
      };
      ws.onerror = (ev) => fail(this.#handshakeError(ev instanceof ErrorEvent ? ev.message : String(ev)));
      ws.onclose = () => fail(errors.network("relay closed the connection during the handshake"));
    });
  }

  #handshakeError(message: string): LarkitError {
    const status = handshakeStatus(message);
    const where = `remote control handshake with ${this.#o.urls.websocket}`;
    if (status === 401 || status === 403) return errors.auth(`${where}: HTTP ${status}`, { code: status });
    if (status === 404) return errors.notFound(`${where}: HTTP 404 (server not found)`, { code: 404 });
    return errors.network(`${where} failed: ${message}`, status ? { code: status } : {});
  }

  /** Resends the unacked backlog, then serves frames until the socket closes or the peer goes silent. */
  #serve(ws: WebSocket, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let lastSeen = this.#o.clock.now();
      const stop = new AbortController();
      const finish = () => {
        if (this.#socket === ws) this.#socket = undefined;
        stop.abort();
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => ws.close();
      signal.addEventListener("abort", onAbort, { once: true });
      ws.onmessage = (ev) => {
        lastSeen = this.#o.clock.now();
        if (typeof ev.data !== "string") return this.#log("remote control: dropping a binary frame");
        this.#onFrame(ev.data);
      };
      ws.onclose = finish;
      ws.onerror = () => {};
      for (const frame of this.#buffer.unacked()) ws.send(frame.text);
      this.#socket = ws;
      this.#keepAlive(ws, () => lastSeen, stop.signal);
    });
  }

  async #keepAlive(ws: WebSocket, lastSeen: () => number, signal: AbortSignal): Promise<void> {
    const { clock } = this.#o;
    while (!signal.aborted) {
      try {
        await clock.sleep(this.#timing.keepAliveMs, signal);
      } catch {
        return;
      }
      if (clock.now() - lastSeen() >= this.#timing.deadPeerMs) {
        this.#log("remote control: no frame from the relay within the dead-peer timeout; reconnecting");
        ws.close();
        return;
      }
      if (ws.readyState === WebSocket.OPEN) {
        ws.send(JSON.stringify({ type: "keepalive", sent_at_ms: clock.now() }));
      }
    }
  }

  #write(frames: WireFrame[]): void {
    const ws = this.#socket;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    for (const f of frames) ws.send(f.text);
  }

  #onFrame(text: string): void {
    const env = parseClientEnvelope(text);
    if (!env) {
      if (!parseKeepAlive(text)) this.#log("remote control: dropping an unparseable frame");
      return;
    }
    if (env.cursor !== undefined) this.#cursor = env.cursor;
    switch (env.type) {
      case "client_message":
        return this.#deliver(env, env.message);
      case "client_message_chunk": {
        const seen = this.#reassembler.observe(env.client_id, env, utf8Length(text));
        if (seen.kind === "rejected" || seen.kind === "ignored") {
          return this.#log(`remote control: segment ${seen.kind}: ${seen.reason}`);
        }
        if (seen.kind === "pending") return;
        let message: unknown;
        try {
          message = JSON.parse(decoder.decode(seen.bytes));
        } catch {
          return this.#log("remote control: reassembled message is not JSON; dropped");
        }
        return this.#deliver(env, message);
      }
      case "ack":
        if (env.stream_id !== undefined && env.seq_id !== undefined) {
          this.#buffer.ack({ clientId: env.client_id, streamId: env.stream_id }, env.seq_id, env.segment_id);
        }
        return;
      case "ping": {
        const address = { clientId: env.client_id, streamId: env.stream_id ?? this.#o.random.uuid() };
        const live = this.#streams.has(streamKey(address));
        this.#enqueue(address, (seq) => [{
          seqId: seq,
          text: JSON.stringify({
            type: "pong",
            status: live ? "active" : "unknown",
            client_id: address.clientId,
            stream_id: address.streamId,
            seq_id: seq,
          }),
        }]).catch((e) => this.#log(`remote control: pong not sent: ${toLarkitError(e).message}`));
        return;
      }
      case "client_closed": {
        if (env.stream_id === undefined) return;
        const address = { clientId: env.client_id, streamId: env.stream_id };
        this.#reassembler.invalidate(env.client_id, env.stream_id);
        const stream = this.#streams.get(streamKey(address));
        this.#streams.delete(streamKey(address));
        stream?.connection.close();
        return;
      }
    }
  }

  /** Routes one complete client JSON-RPC message: `initialize` opens a stream, others need an open one. */
  #deliver(env: ClientEnvelope, message: unknown): void {
    if (env.stream_id === undefined) return this.#log("remote control: message without stream_id dropped");
    const address = { clientId: env.client_id, streamId: env.stream_id };
    const key = streamKey(address);
    let stream = this.#streams.get(key);
    if (isInitializeRequest(message)) {
      stream?.connection.close();
      stream = { ...address, lastSeq: env.seq_id ?? -1, connection: this.#openConnection(address) };
      this.#streams.set(key, stream);
    } else if (!stream) {
      return;
    } else if (env.seq_id !== undefined) {
      if (env.seq_id <= stream.lastSeq) return;
      stream.lastSeq = env.seq_id;
    }
    stream.connection.receive(JSON.stringify(message)).catch((e) =>
      this.#log(`remote control: stream ${address.clientId}/${address.streamId}: ${toLarkitError(e).message}`)
    );
  }

  #openConnection(address: StreamAddress): Connection {
    const connection = this.#o.appServer.connect("RemoteControl", {
      send: async (message) => {
        await this.#enqueue(address, (seq) =>
          frameMessage("server", message, {
            client_id: address.clientId,
            stream_id: address.streamId,
            seq_id: seq,
          }));
      },
      close: () => {
        const key = streamKey(address);
        if (this.#streams.get(key)?.connection === connection) this.#streams.delete(key);
      },
    }, `${address.clientId}/${address.streamId}`);
    return connection;
  }

  #enqueue(address: StreamAddress, frame: (seq: number) => WireFrame[] | LarkitError): Promise<WireFrame[]> {
    return this.#buffer.enqueue(address, frame);
  }
}

function streamKey(a: StreamAddress): string {
  return `${a.clientId}\u0000${a.streamId}`;
}
