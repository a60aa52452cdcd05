/**
 * The relay socket's lifecycle (the reference's websocket module, without the frames' meaning): connect with
 * the credentials of the moment, serve the socket while it lives, and reconnect when it drops.
 *
 * Liveness: a WebSocket ping goes out every interval; a socket over which nothing arrived (no pong, no data
 * frame: the relay's own pings do not count) for the pong timeout is dropped as a dead peer. Reconnect backs
 * off (capped exponential with jitter, reset after a stable connection); a failure the credentials say needs
 * no wait (the relay forgot the server) is retried at once, at most once in a row. The loop never gives up:
 * every failure leaves the status `connecting` with the last error, until it is stopped.
 */
import type { Clock, Random } from "../cli/provider.ts";
import type { Failure } from "./enrollment.ts";
import type { OpenSocket, RelaySocket } from "./socket.ts";
import type { StatusBoard } from "./status.ts";

export interface LinkTiming {
  backoffBaseMs: number;
  backoffCapMs: number;
  /** A connection up at least this long resets the backoff. */
  stableMs: number;
  /** A WebSocket ping goes out this often while connected. */
  pingIntervalMs: number;
  /** No pong nor any data frame for this long (the relay's pings do not count): the socket is dropped. */
  pongTimeoutMs: number;
  connectTimeoutMs: number;
}

/** Capped exponential backoff with ±10% jitter; `unit` is a uniform random number in [0, 1). */
export function backoffDelay(attempt: number, timing: LinkTiming, unit: number): number {
  const raw = Math.min(timing.backoffCapMs, timing.backoffBaseMs * 2 ** Math.min(attempt, 30));
  return Math.round(raw * (0.9 + 0.2 * unit));
}

export interface LinkOptions {
  url: string;
  clock: Clock;
  random: Random;
  timing: LinkTiming;
  openSocket: OpenSocket;
  status: StatusBoard;
  log: (line: string) => void;
  /**
   * One attempt's handshake headers and the environment they connect (`auth.recover`: refresh the account
   * login first; cleared once it was).
   */
  credentials(auth: { recover: boolean }, signal: AbortSignal): Promise<{
    headers: Record<string, string>;
    environmentId: string;
  }>;
  /** What a failed attempt means (see `RelayEnrollment.classify`). */
  classify(e: unknown): Failure;
  /** A text frame from the relay. */
  onText(text: string): void;
  /** The socket is up and heard: outbound traffic may go to it until `onDown`. */
  onUp(socket: RelaySocket): void;
  onDown(socket: RelaySocket): void;
}

export class RelayLink {
  readonly #o: LinkOptions;
  #socket: RelaySocket | undefined;
  #lastInboundAt: number | undefined;
  #loop: { abort: AbortController; done: Promise<void> } | undefined;

  constructor(options: LinkOptions) {
    this.#o = options;
  }

  get running(): boolean {
    return this.#loop !== undefined;
  }

  /** Clock time of the last pong or data frame (never the relay's pings). */
  get lastInboundAt(): number | undefined {
    return this.#lastInboundAt;
  }

  /** Starts the connect loop (the caller published `connecting`); no-op while running. */
  start(): void {
    if (this.#loop) return;
    const abort = new AbortController();
    this.#loop = { abort, done: this.#run(abort.signal) };
  }

  /** Stops reconnecting and drops the socket at once: a relay that never answers the close must not hold it up. */
  async stop(): Promise<void> {
    const loop = this.#loop;
    this.#loop = undefined;
    if (!loop) return;
    loop.abort.abort();
    this.#socket?.terminate();
    await loop.done;
  }

  #failed(f: Failure): void {
    const { error } = f;
    this.#o.log(`remote control: ${error.message}`);
    this.#o.status.update({
      status: "connecting",
      error: { message: error.message, hint: error.hint, type: error.type, subtype: error.subtype },
    });
  }

  async #run(signal: AbortSignal): Promise<void> {
    const { clock, timing } = this.#o;
    let attempt = 0;
    const auth = { recover: false };
    let lastImmediate = false;
    while (!signal.aborted) {
      let connectedAt: number | undefined;
      let immediate = false;
      try {
        const { headers, environmentId } = await this.#o.credentials(auth, signal);
        const socket = await this.#o.openSocket(this.#o.url, headers, {
          timeoutMs: timing.connectTimeoutMs,
          signal,
        });
        connectedAt = clock.now();
        this.#o.status.update({ status: "connected", environmentId });
        await this.#serve(socket, signal);
        if (!signal.aborted) this.#o.status.update({ status: "connecting", error: undefined });
      } catch (e) {
        if (signal.aborted) break;
        const failure = this.#o.classify(e);
        auth.recover ||= failure.recoverAuth === true;
        // At most one immediate retry in a row: a relay that keeps forgetting the server still gets backoff.
        immediate = failure.immediate === true && !lastImmediate;
        this.#failed(failure);
      }
      lastImmediate = immediate;
      if (immediate) continue;
      if (connectedAt !== undefined && clock.now() - connectedAt >= timing.stableMs) attempt = 0;
      const unit = new DataView(this.#o.random.bytes(4).buffer).getUint32(0) / 2 ** 32;
      try {
        await clock.sleep(backoffDelay(attempt++, timing, unit), signal);
      } catch {
        break;
      }
    }
  }

  /** Serves one socket until it closes, the loop stops, or the relay goes silent. */
  #serve(socket: RelaySocket, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const { clock } = this.#o;
      this.#lastInboundAt = clock.now();
      const stop = new AbortController();
      const finish = () => {
        if (this.#socket === socket) {
          this.#socket = undefined;
          this.#o.onDown(socket);
        }
        stop.abort();
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => socket.terminate();
      signal.addEventListener("abort", onAbort, { once: true });
      socket.listen({
        onActivity: () => this.#lastInboundAt = clock.now(),
        onText: (text) => this.#o.onText(text),
        onBinary: () => this.#o.log("remote control: dropping a binary frame"),
        onClose: finish,
      });
      this.#socket = socket;
      this.#o.onUp(socket);
      void this.#liveness(socket, stop.signal);
    });
  }

  /** Pings every interval; drops the socket once nothing (pong or frame) arrived within the pong timeout. */
  async #liveness(socket: RelaySocket, signal: AbortSignal): Promise<void> {
    const { clock, timing: t } = this.#o;
    let nextPing = clock.now() + t.pingIntervalMs;
    while (!signal.aborted) {
      const deadline = (this.#lastInboundAt ?? clock.now()) + t.pongTimeoutMs;
      try {
        await clock.sleep(Math.max(0, Math.min(nextPing, deadline) - clock.now()), signal);
      } catch {
        return;
      }
      const now = clock.now();
      if (now - (this.#lastInboundAt ?? now) >= t.pongTimeoutMs) {
        this.#o.log("remote control: websocket pong timeout; reconnecting");
        socket.terminate();
        return;
      }
      if (now >= nextPing) {
        socket.ping();
        nextPing = now + t.pingIntervalMs;
      }
    }
  }
}
