/**
 * A remote client of the dev relay (the phone's side): it opens streams, numbers and segments what it sends,
 * reassembles and de-duplicates what the local server sends, and acks every envelope so the server can free
 * its buffer. Used by the end-to-end tests, the benchmark and `larkit relay client`. It uses `npm:ws` like the
 * relay client, for the same reason: its socket runs without Nagle's algorithm, so an ack followed by the next
 * request is not held back ~40 ms by the peer's delayed ACK (the native client managed 22 round trips/s).
 */
// Before ws: it picks its masking function when it loads.
import "./ws_mask.ts";
// @ts-types="@types/ws"
import WebSocket from "ws";
import * as z from "zod";
import { LarkitError } from "../cli/output/errors.ts";
import type { FetchFn } from "../cli/provider.ts";
import { parseServerEnvelope } from "./envelopes.ts";
import { frameMessage, parseParts, Reassembler, type WireFrame } from "./segments.ts";
import { frameText } from "./ws_socket.ts";

const WRITE_AHEAD_CHARS = 1024 * 1024;
/** An ack goes out once this many envelopes or segments wait for one (a quarter of the server's window)... */
const ACK_EVERY = 32;
/**
 * ...or this long after the first of them. At 2 ms a one-at-a-time client (a round trip every ~0.5 ms) still
 * sent an ack every few round trips, each a frame through all three processes; at 20 ms `ACK_EVERY` decides
 * while traffic flows (bench rtt: 605 -> 405 µs of CPU per round trip), and a quiet stream is acked soon.
 */
const ACK_DELAY_MS = 20;

export type MessageListener = (message: unknown, seqId: number) => void;

const responseSchema = z.object({
  id: z.union([z.number(), z.string()]),
  result: z.optional(z.unknown()),
  error: z.optional(z.looseObject({ code: z.number(), message: z.string() })),
});
type Response = z.infer<typeof responseSchema>;

/**
 * A result response (`id` and `result`, no `error`) is the hot shape and is checked by hand; everything else
 * goes through zod. The hand check accepts only what the schema accepts, and returns what it returns.
 */
function asResponse(message: unknown): Response | undefined {
  if (typeof message === "object" && message !== null && !Array.isArray(message)) {
    const m = message as Record<string, unknown>;
    if ((typeof m.id === "number" || typeof m.id === "string") && "result" in m && !("error" in m)) {
      return { id: m.id, result: m.result };
    }
  }
  const parsed = responseSchema.safeParse(message);
  return parsed.success ? parsed.data : undefined;
}

/** What a device tells the relay when it redeems a pairing code (the dev relay's `POST /dev/pair`). */
export interface PairingRedemption {
  pairing_code?: string;
  manual_pairing_code?: string;
  display_name?: string;
  device_type?: string;
  platform?: string;
  os_version?: string;
  device_model?: string;
  app_version?: string;
}

const redeemedSchema = z.object({
  client_id: z.string(),
  client_token: z.string(),
  environment_id: z.string(),
});

/** Redeems a pairing code as a new device does: its client id and the token its socket presents. */
export async function redeemPairingCode(
  fetch: FetchFn,
  pairUrl: string,
  redemption: PairingRedemption,
): Promise<z.infer<typeof redeemedSchema>> {
  const res = await fetch(pairUrl, { method: "POST", body: JSON.stringify(redemption) });
  const text = await res.text();
  if (!res.ok) throw new Error(`pairing refused: HTTP ${res.status} ${text}`);
  return redeemedSchema.parse(JSON.parse(text));
}

/** The relay answered a device's handshake with a status instead of letting it in. */
export class HandshakeRefused extends Error {
  constructor(readonly status: number, readonly body: string) {
    super(`the relay refused the handshake: HTTP ${status} ${body}`.trim());
  }
}

export class RemoteClient {
  readonly clientId: string;
  readonly #ws: WebSocket;
  readonly #streams = new Map<string, RemoteStream>();
  readonly #reassembler = new Reassembler({ plainRuns: true });
  /** Frames not yet handed to the socket: a large message enters the relay as the network takes it. */
  #queue: (string | WireFrame)[] = [];
  #queued = 0;
  #aheadChars = 0;

  private constructor(ws: WebSocket, clientId: string) {
    this.#ws = ws;
    this.clientId = clientId;
    ws.on("message", (data, isBinary) => {
      if (!isBinary) this.#onFrame(frameText(data));
    });
  }

  /**
   * Opens the device's socket; a paired device presents its `client_token`. A handshake the relay answers
   * with a status (401 bad token, 403 not paired or revoked) rejects with `HandshakeRefused` carrying it.
   */
  static connect(url: string, clientId: string, opts: { token?: string } = {}): Promise<RemoteClient> {
    const ws = new WebSocket(url, opts.token ? { headers: { authorization: `Bearer ${opts.token}` } } : {});
    return new Promise((resolve, reject) => {
      ws.onopen = () => resolve(new RemoteClient(ws, clientId));
      ws.onerror = (ev) => reject(new Error(ev.message || "remote client connect failed"));
      ws.on("unexpected-response", (_req, res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => body = (body + chunk).slice(0, 1000));
        res.on("end", () => {
          ws.terminate();
          reject(new HandshakeRefused(res.statusCode ?? 0, body));
        });
      });
    });
  }

  stream(streamId: string): RemoteStream {
    let s = this.#streams.get(streamId);
    if (!s) {
      s = new RemoteStream(streamId, (frame) => this.#send(frame), this.clientId);
      this.#streams.set(streamId, s);
    }
    return s;
  }

  /** Sends a raw envelope (tests of malformed or hand-made frames). */
  sendRaw(envelope: Record<string, unknown>): void {
    this.#send(JSON.stringify(envelope));
  }

  /** Queues a frame; at most `WRITE_AHEAD_CHARS` wait in the socket, so other clients' frames interleave. */
  #send(frame: string | WireFrame): void {
    this.#queue.push(frame);
    this.#pump();
  }

  #pump(): void {
    while (this.#aheadChars < WRITE_AHEAD_CHARS && this.#queued < this.#queue.length) {
      const item = this.#queue[this.#queued++];
      // A segment is written as the UTF-8 bytes it builds, as the relay client does: no string of the frame
      // or its byte length, only ws's masked copy (head-of-line bench: the sending client's CPU competes with
      // the relay and the server on a small machine).
      const data = typeof item === "string" ? item : item.bytes?.() ?? item.text;
      const size = data.length;
      this.#aheadChars += size;
      const written = () => {
        this.#aheadChars -= size;
        this.#pump();
      };
      if (typeof data === "string") this.#ws.send(data, written);
      else this.#ws.send(data, { binary: false }, written);
    }
    if (this.#queued === this.#queue.length) {
      this.#queue = [];
      this.#queued = 0;
    }
  }

  close(): void {
    for (const s of this.#streams.values()) s.cancelAck();
    this.#ws.close();
  }

  #onFrame(text: string): void {
    const env = parseServerEnvelope(text);
    if (!env) return;
    const stream = this.#streams.get(env.stream_id);
    if (!stream) return;
    if (env.type === "server_message_chunk") {
      // Each segment is acked as it arrives, so the server frees a large message's buffer as it goes.
      stream.segmentArrived(env.seq_id, env.segment_id);
      const seen = this.#reassembler.observe(env.stream_id, env, text.length);
      if (seen.kind !== "complete") return;
      stream.accept(env.seq_id, parseParts(seen.parts, seen.plain));
    } else if (env.type === "server_message") {
      stream.accept(env.seq_id, env.message);
    } else {
      stream.accept(env.seq_id, { pong: env.status });
    }
  }
}

export class RemoteStream {
  readonly streamId: string;
  readonly #send: (frame: string | WireFrame) => void;
  readonly #clientId: string;
  #nextSeq = 1;
  #nextId = 1;
  #lastSeq = 0;
  /** The furthest cursor to acknowledge, sent once per turn of the event loop. */
  #ackCursor: { seq: number; segment?: number } = { seq: 0 };
  /** Envelopes and segments received since the last ack, and the timer that acks them if no more come. */
  #unacked = 0;
  #ackTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #listeners = new Set<MessageListener>();
  readonly #pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();

  constructor(streamId: string, send: (frame: string | WireFrame) => void, clientId: string) {
    this.streamId = streamId;
    this.#send = send;
    this.#clientId = clientId;
  }

  /** Sends one JSON-RPC message, segmented when large. */
  send(message: unknown): void {
    const frames = frameMessage("client", JSON.stringify(message), {
      client_id: this.#clientId,
      stream_id: this.streamId,
      seq_id: this.#nextSeq++,
    });
    if (frames instanceof LarkitError) throw frames;
    for (const f of frames) this.#send(f);
  }

  /** Sends a request and resolves with its result (rejects with the JSON-RPC error). */
  request(method: string, params?: unknown): Promise<unknown> {
    const id = this.#nextId++;
    const done = new Promise<unknown>((resolve, reject) =>
      this.#pending.set(String(id), { resolve, reject })
    );
    this.send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    return done;
  }

  ping(): void {
    this.#send(JSON.stringify({ type: "ping", client_id: this.#clientId, stream_id: this.streamId }));
  }

  /** Closes the stream; the server frees its buffer, so a later initialize here starts again at seq 1. */
  closeStream(): void {
    this.cancelAck();
    this.#lastSeq = 0;
    this.#ackCursor = { seq: 0 };
    this.#send(
      JSON.stringify({ type: "client_closed", client_id: this.#clientId, stream_id: this.streamId }),
    );
  }

  /** Every new server message on this stream, in seq order, once each. Returns the unsubscribe function. */
  onMessage(listener: MessageListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Acks cumulatively (an ack of seq N covers everything up to N, one of (N, k) the segments up to k), and
   * lazily: once `ACK_EVERY` envelopes or segments wait, or `ACK_DELAY_MS` after the first of them. Every
   * frame costs each of the three processes a socket write or read, so one ack per response was a third of
   * a one-at-a-time round trip's frames; `ACK_EVERY` stays well under the server's 128-envelope window, so
   * a large result keeps flowing.
   */
  #ack(seqId: number, segmentId?: number): void {
    const cur = this.#ackCursor;
    const ahead = seqId > cur.seq ||
      (seqId === cur.seq && cur.segment !== undefined &&
        (segmentId === undefined || segmentId > cur.segment));
    if (ahead) this.#ackCursor = { seq: seqId, segment: segmentId };
    if (++this.#unacked >= ACK_EVERY) return this.#flushAck();
    this.#ackTimer ??= setTimeout(() => this.#flushAck(), ACK_DELAY_MS);
  }

  /** Forgets the ack in waiting (the stream or the socket is closing; a timer must not outlive it). */
  cancelAck(): void {
    clearTimeout(this.#ackTimer);
    this.#ackTimer = undefined;
    this.#unacked = 0;
  }

  #flushAck(): void {
    this.cancelAck();
    const { seq, segment } = this.#ackCursor;
    this.#send(
      JSON.stringify({
        type: "ack",
        client_id: this.#clientId,
        stream_id: this.streamId,
        seq_id: seq,
        ...(segment === undefined ? {} : { segment_id: segment }),
      }),
    );
  }

  /** A segment of a message arrived (acked before the message is complete). */
  segmentArrived(seqId: number, segmentId: number): void {
    if (seqId > this.#lastSeq) this.#ack(seqId, segmentId);
  }

  /** Called by the client for each complete server envelope: duplicates are acked again but not delivered. */
  accept(seqId: number, message: unknown): void {
    this.#ack(seqId);
    if (seqId <= this.#lastSeq) return;
    this.#lastSeq = seqId;
    const response = asResponse(message);
    if (response && ("result" in (message as object) || response.error)) {
      const waiter = this.#pending.get(String(response.id));
      this.#pending.delete(String(response.id));
      if (response.error) waiter?.reject(new Error(response.error.message));
      else waiter?.resolve(response.result);
    }
    for (const l of this.#listeners) l(message, seqId);
  }
}
