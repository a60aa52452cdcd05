/**
 * The dev relay: a loopback stand-in for the cloud relay, as strict as the production relay, for tests and for
 * driving a turn by hand. It serves
 *  - `POST /backend-api/wham/remote/control/server/enroll` (server and environment ids, plus a server token
 *    `remote_control_token` with `expires_at` unless started with `tokens: false`, the seed's simpler relay),
 *  - `POST .../server/refresh` (`{server_id, installation_id}` -> a new token; 404 for a forgotten server),
 *  - the server WebSocket `GET .../server` (one local server at a time), authenticated by the server token
 *    only (an account id header is refused), or by the account headers with `tokens: false`,
 *  - a remote-client WebSocket `GET /dev/client?client_id=...` whose frames are client envelopes (the relay
 *    stamps `client_id` and a `cursor`), and which receives the server envelopes addressed to that client;
 *    when it goes away the server gets `client_closed` for every stream it used,
 *  - pairing: `POST .../server/pair` (server token; `{manual_code}` -> a code valid 10 minutes) and
 *    `.../pair/status` (`{claimed}`); a device redeems the code at `POST /dev/pair` for its `client_id` and
 *    `client_token`, which its socket then presents as `Authorization: Bearer`; a client id never paired is
 *    refused as a revoked one is (403), unless started with `allowUnpaired` (`larkit relay dev
 *    --allow-unpaired`, an explicit opt-in for driving a server by hand without pairing),
 *  - the account's machines and devices (account headers): `GET .../environments`, `DELETE .../environments/{id}`
 *    (forgets the server and revokes its devices), `GET .../environments/{id}/clients` (with last-seen times)
 *    and `DELETE .../environments/{id}/clients/{client_id}` (revokes: the device's socket closes at once, so the
 *    server gets `client_closed` for its streams, and the device is refused from then on),
 *  - `POST /dev/faults` to inject faults by hand (the same switches tests call on `faults`).
 * Both WebSockets are pinged with control frames and closed when they stop answering (Deno's `idleTimeout`).
 * Client envelopes are logged with their cursor, so a server that reconnects with `x-svc-subscribe-cursor`
 * gets everything after it; envelopes never written to any server socket are replayed on the next one.
 */
import * as z from "zod";
import { abortableSleep, type Clock } from "../cli/provider.ts";
import { parseServerEnvelope, toClientEnvelope } from "./envelopes.ts";

const SERVER_PATH = "/backend-api/wham/remote/control/server";
const ENROLL_PATH = `${SERVER_PATH}/enroll`;
const REFRESH_PATH = `${SERVER_PATH}/refresh`;
const PAIR_PATH = `${SERVER_PATH}/pair`;
const PAIR_STATUS_PATH = `${PAIR_PATH}/status`;
const ENVIRONMENTS_PATH = "/backend-api/wham/remote/control/environments";
const PAIRING_TTL_MS = 10 * 60_000;
/** Pairing-code letters without look-alikes (no I, O, 0, 1). */
const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const NOT_FOUND_BODY = JSON.stringify({ detail: "Remote app server not found" });

const enrollRequestSchema = z.object({
  name: z.string(),
  os: z.string(),
  arch: z.string(),
  app_server_version: z.string(),
  installation_id: z.string(),
});

const refreshRequestSchema = z.object({ server_id: z.string(), installation_id: z.string() });

const pairRequestSchema = z.object({ manual_code: z.optional(z.boolean()) });
const pairStatusRequestSchema = z.object({
  pairing_code: z.optional(z.string()),
  manual_pairing_code: z.optional(z.string()),
});
const redeemRequestSchema = z.object({
  pairing_code: z.optional(z.string()),
  manual_pairing_code: z.optional(z.string()),
  display_name: z.optional(z.string()),
  device_type: z.optional(z.string()),
  platform: z.optional(z.string()),
  os_version: z.optional(z.string()),
  device_model: z.optional(z.string()),
  app_version: z.optional(z.string()),
});
type PairingRedemption = z.infer<typeof redeemRequestSchema>;

const faultRequestSchema = z.discriminatedUnion("fault", [
  z.object({ fault: z.literal("drop") }),
  z.object({ fault: z.literal("forget") }),
  z.object({ fault: z.literal("expire_tokens") }),
  z.object({
    fault: z.literal("reject_handshakes"),
    status: z.number().check(z.int(), z.minimum(200), z.maximum(599)),
    body: z.optional(z.string()),
    count: z.number().check(z.int(), z.minimum(1), z.maximum(1000)),
  }),
  z.object({ fault: z.literal("delay_acks"), ms: z.number().check(z.int(), z.nonnegative()) }),
  /** One text frame to the local server exactly as given (a hostile or broken relay's input). */
  z.object({ fault: z.literal("raw_frame"), text: z.string() }),
  z.object({
    fault: z.literal("oversized_segment"),
    client_id: z.string(),
    stream_id: z.string(),
    seq_id: z.number(),
  }),
  z.object({
    fault: z.literal("corrupt_segment"),
    client_id: z.string(),
    stream_id: z.string(),
    seq_id: z.number(),
  }),
]);
export type FaultRequest = z.infer<typeof faultRequestSchema>;

export interface DevRelayOptions {
  hostname?: string;
  port?: number;
  clock?: Clock;
  log?: (line: string) => void;
  /** Account bearer tokens accepted on enroll and refresh (and handshakes without tokens); any non-empty one by default. */
  acceptToken?: (token: string) => boolean;
  /** Issue server tokens (production); false: the seed's relay, whose handshake carries the account headers. */
  tokens?: boolean;
  /** Lifetime of an issued server token (default one hour). */
  tokenTtlMs?: number;
  /** Seconds of silence after which a socket is pinged, and closed if the pong does not follow (default 30). */
  idleTimeoutSeconds?: number;
  /**
   * Let a client id that was never paired connect without a token (driving a server by hand). Off by default:
   * as in production, only paired devices presenting their token connect.
   */
  allowUnpaired?: boolean;
}

/** What the relay saw, for assertions and for the by-hand log. */
export interface DevRelayStats {
  enrollments: number;
  refreshes: number;
  handshakes: number;
  /** Headers of every handshake request, in order (tokens included: this is a loopback test double). */
  handshakeHeaders: Record<string, string>[];
  /** Status of every refused handshake, in order. */
  refusals: number[];
  serverFramesRejected: number;
  /** Server chunk frames forwarded to remote clients (shows that a message travelled segmented). */
  chunkFramesForwarded: number;
  /** `client_closed` envelopes sent because a remote client's socket went away. */
  clientClosedSent: number;
}

interface LoggedClientFrame {
  cursor: number;
  clientId: string;
  text: string;
  written: boolean;
}

/** Client frames kept for subscribe-cursor replay; older ones already written to a server are forgotten. */
const CLIENT_LOG_MAX = 10_000;
/**
 * Bytes allowed to wait in the server socket before the next frame is chosen (round robin over clients): about
 * two segments. Another client's small request waits behind at most this much of a large message besides the
 * kernel's buffers (bench head-of-line, paired runs: B's worst round trip 181/116/126 ms at 1 MiB, 137/70/86 ms
 * here; 128 KiB was no better and cost the relay more wake-ups of its drain timer).
 */
const SERVER_WRITE_AHEAD = 256 * 1024;

interface IssuedToken {
  serverId: string;
  expiresAt: number;
}

interface ServerRecord {
  serverId: string;
  environmentId: string;
  accountId: string;
  name: string;
  os: string;
  arch: string;
  /** Unix seconds. */
  createdAt: number;
  lastSeenAt: number | null;
}

interface Pairing {
  serverId: string;
  code: string;
  manualCode: string | null;
  expiresAt: number;
  claimedBy?: string;
}

/** A paired device; revoked ones stay listed here (refused) but are no longer shown. */
interface DeviceRecord {
  clientId: string;
  token: string;
  serverId: string;
  environmentId: string;
  pairedAt: number;
  lastSeenAt: number | null;
  revoked: boolean;
  info: Omit<PairingRedemption, "pairing_code" | "manual_pairing_code">;
}

export class DevRelay {
  readonly stats: DevRelayStats = {
    enrollments: 0,
    refreshes: 0,
    handshakes: 0,
    handshakeHeaders: [],
    refusals: [],
    serverFramesRejected: 0,
    chunkFramesForwarded: 0,
    clientClosedSent: 0,
  };
  /** Every server token issued, in order (tests check which one a handshake used). */
  readonly issuedTokens: string[] = [];
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  readonly #clock: Clock;
  readonly #log: (line: string) => void;
  readonly #acceptToken: (token: string) => boolean;
  readonly #tokensOn: boolean;
  readonly #tokenTtlMs: number;
  readonly #idleTimeout: number;
  readonly #servers = new Map<string, ServerRecord>();
  readonly #pairings: Pairing[] = [];
  readonly #devices = new Map<string, DeviceRecord>();
  readonly #allowUnpaired: boolean;
  #nextDevice = 1;
  /** The server id of the connected server socket. */
  #serverSocketId: string | undefined;
  readonly #tokens = new Map<string, IssuedToken>();
  readonly #clients = new Map<string, WebSocket>();
  /** Server envelopes for clients not connected yet, in order. */
  readonly #toClients = new Map<string, string[]>();
  #clientLog: LoggedClientFrame[] = [];
  /** Frames waiting for the server socket, per client: one client's 100 MiB does not hold up another's request. */
  #toServer = new Map<string, LoggedClientFrame[]>();
  #pumpTimer: ReturnType<typeof setTimeout> | undefined;
  #trimAt = 2 * CLIENT_LOG_MAX;
  #nextCursor = 1;
  #nextServer = 1;
  #nextToken = 1;
  #serverSocket: WebSocket | undefined;
  #handshakeRejections: { status: number; body: string }[] = [];
  #ackDelayMs = 0;

  private constructor(options: DevRelayOptions) {
    this.#clock = options.clock ?? { now: () => Date.now(), sleep: abortableSleep };
    this.#log = options.log ?? (() => {});
    this.#acceptToken = options.acceptToken ?? ((t) => t.length > 0);
    this.#tokensOn = options.tokens ?? true;
    this.#tokenTtlMs = options.tokenTtlMs ?? 60 * 60_000;
    this.#idleTimeout = options.idleTimeoutSeconds ?? 30;
    this.#allowUnpaired = options.allowUnpaired ?? false;
    this.#server = Deno.serve({
      hostname: options.hostname ?? "127.0.0.1",
      port: options.port ?? 0,
      onListen: () => {},
    }, (req) => this.#route(req));
  }

  static start(options: DevRelayOptions = {}): DevRelay {
    return new DevRelay(options);
  }

  /** The base URL a local server is configured with. */
  get baseUrl(): string {
    const { hostname, port } = this.#server.addr;
    return `http://${hostname}:${port}/`;
  }

  /** Where a device redeems a pairing code (`POST`, JSON `PairingRedemption`). */
  get pairUrl(): string {
    const { hostname, port } = this.#server.addr;
    return `http://${hostname}:${port}/dev/pair`;
  }

  clientUrl(clientId: string): string {
    const { hostname, port } = this.#server.addr;
    return `ws://${hostname}:${port}/dev/client?client_id=${encodeURIComponent(clientId)}`;
  }

  /** The server WebSocket's URL (tests open raw sockets to it). */
  get serverUrl(): string {
    const { hostname, port } = this.#server.addr;
    return `ws://${hostname}:${port}${SERVER_PATH}`;
  }

  get serverConnected(): boolean {
    return this.#serverSocket?.readyState === WebSocket.OPEN;
  }

  /** Server ids the relay currently knows. */
  get knownServers(): string[] {
    return [...this.#servers.keys()];
  }

  /** Fault switches (tests call these directly; `POST /dev/faults` reaches the same code). */
  readonly faults = {
    /** Closes the local server's socket as if the network dropped it. */
    dropServerSocket: () => this.fault({ fault: "drop" }),
    /** Forgets every enrolled server: handshakes get 404 "Remote app server not found", refreshes 404. */
    forgetServers: () => this.fault({ fault: "forget" }),
    /** Every issued token expires now (the socket stays up, as in production; the next handshake needs a refresh). */
    expireTokens: () => this.fault({ fault: "expire_tokens" }),
    /** Answers the next `count` handshakes with this status and body. */
    rejectHandshakes: (status: number, opts: { body?: string; count?: number } = {}) =>
      this.fault({ fault: "reject_handshakes", status, body: opts.body, count: opts.count ?? 1 }),
    delayAcks: (ms: number) => this.fault({ fault: "delay_acks", ms }),
    sendRawFrame: (text: string) => this.fault({ fault: "raw_frame", text }),
    sendOversizedSegment: (clientId: string, streamId: string, seqId: number) =>
      this.fault({ fault: "oversized_segment", client_id: clientId, stream_id: streamId, seq_id: seqId }),
    sendCorruptSegment: (clientId: string, streamId: string, seqId: number) =>
      this.fault({ fault: "corrupt_segment", client_id: clientId, stream_id: streamId, seq_id: seqId }),
  };

  fault(f: FaultRequest): void {
    this.#log(`dev relay: fault ${JSON.stringify(f)}`);
    switch (f.fault) {
      case "drop":
        this.#serverSocket?.close();
        this.#serverSocket = undefined;
        return;
      case "forget":
        this.#servers.clear();
        this.#tokens.clear();
        this.#pairings.length = 0;
        return;
      case "expire_tokens":
        for (const t of this.#tokens.values()) t.expiresAt = this.#clock.now() - 1;
        return;
      case "reject_handshakes":
        for (let i = 0; i < f.count; i++) {
          this.#handshakeRejections.push({ status: f.status, body: f.body ?? "" });
        }
        return;
      case "delay_acks":
        this.#ackDelayMs = f.ms;
        return;
      case "raw_frame":
        this.#serverSocket?.send(f.text);
        return;
      case "oversized_segment":
      case "corrupt_segment": {
        const oversized = f.fault === "oversized_segment";
        const size = oversized ? 160 * 1024 : 12;
        this.#serverSocket?.send(JSON.stringify({
          type: "client_message_chunk",
          client_id: f.client_id,
          stream_id: f.stream_id,
          seq_id: f.seq_id,
          segment_id: 0,
          segment_count: oversized ? 2 : 1,
          message_size_bytes: oversized ? size * 2 : size,
          message_chunk_base64: oversized ? new Uint8Array(size).fill(0x61).toBase64() : "not*base64!",
        }));
        return;
      }
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.#pumpTimer);
    this.#toServer.clear();
    this.#serverSocket?.close();
    for (const ws of this.#clients.values()) ws.close();
    await this.#server.shutdown();
  }

  async #route(req: Request): Promise<Response> {
    const url = new URL(req.url);
    if (req.method === "POST" && url.pathname === ENROLL_PATH) return await this.#enroll(req);
    if (req.method === "POST" && url.pathname === REFRESH_PATH && this.#tokensOn) {
      return await this.#refresh(req);
    }
    if (req.method === "GET" && url.pathname === SERVER_PATH) return this.#serverHandshake(req);
    if (req.method === "GET" && url.pathname === "/dev/client") return this.#clientHandshake(req, url);
    if (req.method === "POST" && url.pathname === PAIR_PATH) return await this.#pair(req);
    if (req.method === "POST" && url.pathname === PAIR_STATUS_PATH) return await this.#pairStatus(req);
    if (req.method === "POST" && url.pathname === "/dev/pair") return await this.#redeem(req);
    if (url.pathname === ENVIRONMENTS_PATH || url.pathname.startsWith(`${ENVIRONMENTS_PATH}/`)) {
      return this.#environments(req, url);
    }
    if (req.method === "POST" && url.pathname === "/dev/faults") {
      const parsed = faultRequestSchema.safeParse(await req.json().catch(() => undefined));
      if (!parsed.success) return Response.json({ error: parsed.error.message }, { status: 400 });
      this.fault(parsed.data);
      return Response.json({ ok: true });
    }
    return Response.json({ detail: "Not Found" }, { status: 404 });
  }

  /** The account headers enroll and refresh carry (and handshakes of the token-less relay). */
  #accountAuthorized(req: Request): boolean {
    const auth = req.headers.get("authorization") ?? "";
    return auth.startsWith("Bearer ") && this.#acceptToken(auth.slice(7)) &&
      !!req.headers.get("svc-account-id") &&
      !!req.headers.get("x-svc-installation-id");
  }

  #issue(serverId: string): { remote_control_token: string; expires_at: string } | Record<string, never> {
    if (!this.#tokensOn) return {};
    const token = `rc_dev_${this.#nextToken++}_${crypto.randomUUID().slice(0, 8)}`;
    const expiresAt = this.#clock.now() + this.#tokenTtlMs;
    this.#tokens.set(token, { serverId, expiresAt });
    this.issuedTokens.push(token);
    return { remote_control_token: token, expires_at: new Date(expiresAt).toISOString() };
  }

  async #enroll(req: Request): Promise<Response> {
    if (!this.#accountAuthorized(req)) return Response.json({ detail: "unauthorized" }, { status: 401 });
    const body = enrollRequestSchema.safeParse(await req.json().catch(() => undefined));
    if (!body.success) return Response.json({ detail: body.error.message }, { status: 400 });
    const n = this.#nextServer++;
    const serverId = `srv_dev_${n}`;
    const environmentId = `env_dev_${n}`;
    this.#servers.set(serverId, {
      serverId,
      environmentId,
      accountId: req.headers.get("svc-account-id") ?? "",
      name: body.data.name,
      os: body.data.os,
      arch: body.data.arch,
      createdAt: this.#seconds(),
      lastSeenAt: null,
    });
    this.stats.enrollments++;
    this.#log(`dev relay: enrolled ${body.data.name} as ${serverId}`);
    return Response.json({ server_id: serverId, environment_id: environmentId, ...this.#issue(serverId) });
  }

  async #refresh(req: Request): Promise<Response> {
    if (!this.#accountAuthorized(req)) return Response.json({ detail: "unauthorized" }, { status: 401 });
    const body = refreshRequestSchema.safeParse(await req.json().catch(() => undefined));
    if (!body.success) return Response.json({ detail: body.error.message }, { status: 400 });
    const environmentId = this.#servers.get(body.data.server_id)?.environmentId;
    if (environmentId === undefined) return new Response(NOT_FOUND_BODY, { status: 404 });
    this.stats.refreshes++;
    return Response.json({
      server_id: body.data.server_id,
      environment_id: environmentId,
      ...this.#issue(body.data.server_id),
    });
  }

  /** null when the handshake may proceed, else the refusal. */
  #refuseHandshake(headers: Record<string, string>): Response | null {
    const rejection = this.#handshakeRejections.shift();
    if (rejection !== undefined) return new Response(rejection.body, { status: rejection.status });
    const serverId = headers["x-svc-server-id"] ?? "";
    if (this.#tokensOn) {
      if (headers["svc-account-id"] !== undefined) {
        return Response.json({ detail: "account headers are not accepted on the server socket" }, {
          status: 400,
        });
      }
      const auth = headers["authorization"] ?? "";
      const token = auth.startsWith("Bearer ") ? this.#tokens.get(auth.slice(7)) : undefined;
      if (!token || token.serverId !== serverId || token.expiresAt <= this.#clock.now()) {
        if (!this.#servers.has(serverId)) return new Response(NOT_FOUND_BODY, { status: 404 });
        return Response.json({ detail: "invalid or expired server token" }, { status: 401 });
      }
    } else {
      const auth = headers["authorization"] ?? "";
      if (!auth.startsWith("Bearer ") || !this.#acceptToken(auth.slice(7)) || !headers["svc-account-id"]) {
        return Response.json({ detail: "unauthorized" }, { status: 401 });
      }
    }
    if (!this.#servers.has(serverId)) return new Response(NOT_FOUND_BODY, { status: 404 });
    if (headers["x-svc-protocol-version"] !== "3") {
      return Response.json({ detail: "unsupported protocol" }, { status: 400 });
    }
    if (!headers["x-svc-installation-id"]) {
      return Response.json({ detail: "x-svc-installation-id is required" }, { status: 400 });
    }
    return null;
  }

  #serverHandshake(req: Request): Response {
    // Headers must be read before upgrading: the request is closed afterwards.
    const headers = Object.fromEntries(req.headers.entries());
    this.stats.handshakeHeaders.push(headers);
    const refusal = this.#refuseHandshake(headers);
    if (refusal) {
      this.stats.refusals.push(refusal.status);
      return refusal;
    }
    const cursorHeader = headers["x-svc-subscribe-cursor"];
    const { socket, response } = Deno.upgradeWebSocket(req, { idleTimeout: this.#idleTimeout });
    this.stats.handshakes++;
    socket.onopen = () => {
      this.#serverSocket?.close();
      this.#serverSocket = socket;
      this.#serverSocketId = headers["x-svc-server-id"];
      this.#seen(this.#servers.get(headers["x-svc-server-id"] ?? ""));
      this.#toServer.clear();
      const after = cursorHeader === undefined ? undefined : Number(cursorHeader);
      if (after !== undefined) this.#clientLog = this.#clientLog.filter((f) => f.cursor > after);
      for (const f of this.#clientLog) {
        if (after !== undefined || !f.written) this.#writeToServer(f);
      }
    };
    socket.onmessage = (ev) => {
      if (this.#serverSocket !== socket || typeof ev.data !== "string") return;
      this.#fromServer(ev.data);
    };
    socket.onclose = () => {
      if (this.#serverSocket === socket) {
        this.#serverSocket = undefined;
        this.#serverSocketId = undefined;
      }
    };
    socket.onerror = () => {};
    return response;
  }

  #fromServer(text: string): void {
    const env = parseServerEnvelope(text);
    if (!env) {
      this.stats.serverFramesRejected++;
      return;
    }
    if (env.type === "server_message_chunk") this.stats.chunkFramesForwarded++;
    const client = this.#clients.get(env.client_id);
    if (client?.readyState === WebSocket.OPEN) client.send(text);
    else {
      const queue = this.#toClients.get(env.client_id) ?? [];
      queue.push(text);
      this.#toClients.set(env.client_id, queue);
    }
  }

  #clientHandshake(req: Request, url: URL): Response {
    const clientId = url.searchParams.get("client_id");
    if (!clientId) return new Response("client_id is required", { status: 400 });
    const refusal = this.#refuseClient(clientId, req.headers.get("authorization"));
    if (refusal) return refusal;
    const device = this.#devices.get(clientId);
    this.#seen(device);
    const { socket, response } = Deno.upgradeWebSocket(req, { idleTimeout: this.#idleTimeout });
    /** Streams this socket opened or used: each gets `client_closed` when the socket goes away. */
    const streams = new Set<string>();
    socket.onopen = () => {
      this.#clients.get(clientId)?.close();
      this.#clients.set(clientId, socket);
      for (const text of this.#toClients.get(clientId) ?? []) socket.send(text);
      this.#toClients.delete(clientId);
    };
    socket.onmessage = (ev) => {
      if (typeof ev.data !== "string") return;
      if (device) {
        // A revoked device's socket is closed at revocation; nothing it still had in flight gets through, and
        // nothing reaches a machine it was not paired with.
        if (
          device.revoked || (this.#serverSocketId !== undefined && this.#serverSocketId !== device.serverId)
        ) {
          return;
        }
        this.#seen(device);
      }
      let json: unknown;
      try {
        json = JSON.parse(ev.data);
      } catch {
        return;
      }
      const sent = json as Record<string, unknown> | null;
      // A frame that already names this client (as RemoteClient's do) is validated as it is: stamping the id
      // would copy it into an object equal field for field.
      const named = typeof sent === "object" && sent !== null && sent.client_id === clientId;
      const stamped = named ? sent : { ...(json as object), client_id: clientId };
      const env = toClientEnvelope(stamped);
      if (!env) return;
      // The frame as the client wrote it already says everything but the cursor when it named this client
      // and carried every field through validation (the object is the one parsed from the text, so nothing
      // was stripped): the cursor is appended to the text instead of encoding the envelope again, which for
      // a 150 KiB segment cost the relay as much as parsing it.
      const verbatim = named && sent.cursor === undefined &&
          (env === sent || Object.keys(sent).length === Object.keys(env).length)
        ? ev.data
        : undefined;
      if (env.stream_id !== undefined) {
        if (env.type === "client_closed") streams.delete(env.stream_id);
        else streams.add(env.stream_id);
      }
      const frame = this.#record(env, verbatim);
      if (env.type === "ack" && this.#ackDelayMs > 0) {
        this.#clock.sleep(this.#ackDelayMs).then(() => this.#writeToServer(frame));
      } else {
        this.#writeToServer(frame);
      }
    };
    socket.onclose = () => {
      if (this.#clients.get(clientId) === socket) this.#clients.delete(clientId);
      for (const streamId of streams) {
        this.stats.clientClosedSent++;
        this.#writeToServer(
          this.#record({ type: "client_closed", client_id: clientId, stream_id: streamId }),
        );
      }
      streams.clear();
    };
    socket.onerror = () => {};
    return response;
  }

  #seconds(): number {
    return Math.floor(this.#clock.now() / 1000);
  }

  #seen(record: { lastSeenAt: number | null } | undefined): void {
    if (record) record.lastSeenAt = this.#seconds();
  }

  /**
   * null when a remote-client socket may open, else the refusal. Only a paired device presenting its token is
   * let in: a client id the relay never paired is refused as a revoked one is (403, no socket), since to the
   * relay neither is a device of this account (the by-hand `allowUnpaired` relay lets one in without a token).
   */
  #refuseClient(clientId: string, authorization: string | null): Response | null {
    const device = this.#devices.get(clientId);
    if (device === undefined) {
      if (this.#allowUnpaired && authorization === null) return null;
      return this.#refusedClient("client not paired");
    }
    if (device.revoked) return this.#refusedClient("client revoked");
    if (authorization !== `Bearer ${device.token}`) {
      return Response.json({ detail: "invalid client token" }, { status: 401 });
    }
    if (!this.#servers.has(device.serverId)) return this.#refusedClient("the paired machine is gone");
    return null;
  }

  #refusedClient(detail: string): Response {
    return Response.json({ detail }, { status: 403 });
  }

  /** The server a request's token stands for (or the account headers on a relay without tokens), else the refusal. */
  #serverOf(req: Request): ServerRecord | Response {
    const serverId = req.headers.get("x-svc-server-id") ?? "";
    const server = this.#servers.get(serverId);
    if (!server) return new Response(NOT_FOUND_BODY, { status: 404 });
    if (this.#tokensOn) {
      const auth = req.headers.get("authorization") ?? "";
      const token = auth.startsWith("Bearer ") ? this.#tokens.get(auth.slice(7)) : undefined;
      if (!token || token.serverId !== serverId || token.expiresAt <= this.#clock.now()) {
        return Response.json({ detail: "invalid or expired server token" }, { status: 401 });
      }
    } else if (!this.#accountAuthorized(req)) {
      return Response.json({ detail: "unauthorized" }, { status: 401 });
    }
    return server;
  }

  #code(length: number, alphabet: string): string {
    const bytes = crypto.getRandomValues(new Uint8Array(length));
    return [...bytes].map((b) => alphabet[b % alphabet.length]).join("");
  }

  async #pair(req: Request): Promise<Response> {
    const server = this.#serverOf(req);
    if (server instanceof Response) return server;
    const body = pairRequestSchema.safeParse(await req.json().catch(() => undefined));
    if (!body.success) return Response.json({ detail: body.error.message }, { status: 400 });
    const code = `${this.#code(4, CODE_ALPHABET)}-${this.#code(4, CODE_ALPHABET)}`;
    const manualCode = body.data.manual_code ? this.#code(6, "0123456789") : null;
    const expiresAt = this.#clock.now() + PAIRING_TTL_MS;
    this.#pairings.push({ serverId: server.serverId, code, manualCode, expiresAt });
    this.#log(`dev relay: pairing code issued for ${server.serverId}`);
    return Response.json({
      pairing_code: code,
      manual_pairing_code: manualCode,
      server_id: server.serverId,
      environment_id: server.environmentId,
      expires_at: new Date(expiresAt).toISOString(),
    });
  }

  #findPairing(code: { pairing_code?: string; manual_pairing_code?: string }): Pairing | undefined {
    return this.#pairings.find((p) =>
      (code.pairing_code !== undefined && p.code === code.pairing_code.toUpperCase()) ||
      (code.manual_pairing_code !== undefined && p.manualCode === code.manual_pairing_code)
    );
  }

  async #pairStatus(req: Request): Promise<Response> {
    const server = this.#serverOf(req);
    if (server instanceof Response) return server;
    const body = pairStatusRequestSchema.safeParse(await req.json().catch(() => undefined));
    if (!body.success) return Response.json({ detail: body.error.message }, { status: 400 });
    const pairing = this.#findPairing(body.data);
    if (!pairing || pairing.serverId !== server.serverId) {
      return Response.json({ detail: "pairing code not found" }, { status: 404 });
    }
    return Response.json({ claimed: pairing.claimedBy !== undefined });
  }

  async #redeem(req: Request): Promise<Response> {
    const body = redeemRequestSchema.safeParse(await req.json().catch(() => undefined));
    if (!body.success) return Response.json({ detail: body.error.message }, { status: 400 });
    const pairing = this.#findPairing(body.data);
    const server = pairing && this.#servers.get(pairing.serverId);
    if (!pairing || !server) return Response.json({ detail: "pairing code not found" }, { status: 404 });
    if (pairing.claimedBy !== undefined || pairing.expiresAt <= this.#clock.now()) {
      return Response.json({ detail: "pairing code already used or expired" }, { status: 410 });
    }
    const { pairing_code: _c, manual_pairing_code: _m, ...info } = body.data;
    const clientId = `cli_dev_${this.#nextDevice++}`;
    const token = `ct_dev_${crypto.randomUUID()}`;
    pairing.claimedBy = clientId;
    this.#devices.set(clientId, {
      clientId,
      token,
      serverId: server.serverId,
      environmentId: server.environmentId,
      pairedAt: this.#seconds(),
      lastSeenAt: null,
      revoked: false,
      info,
    });
    this.#log(`dev relay: ${clientId} paired with ${server.serverId}`);
    return Response.json({ client_id: clientId, client_token: token, environment_id: server.environmentId });
  }

  /** Revokes a device: refused from now on, and its socket closed at once (client_closed for its streams). */
  #revoke(device: DeviceRecord): void {
    device.revoked = true;
    this.#clients.get(device.clientId)?.close(4003, "client revoked");
    this.#log(`dev relay: ${device.clientId} revoked`);
  }

  #environments(req: Request, url: URL): Response {
    if (!this.#accountAuthorized(req)) return Response.json({ detail: "unauthorized" }, { status: 401 });
    const accountId = req.headers.get("svc-account-id") ?? "";
    const parts = url.pathname.slice(ENVIRONMENTS_PATH.length).split("/").filter(Boolean).map(
      decodeURIComponent,
    );
    const notFound = () => Response.json({ detail: "environment not found" }, { status: 404 });
    if (parts.length === 0) {
      if (req.method !== "GET") return Response.json({ detail: "method not allowed" }, { status: 405 });
      const data = [...this.#servers.values()].filter((s) => s.accountId === accountId).map((s) => ({
        environment_id: s.environmentId,
        server_id: s.serverId,
        name: s.name,
        os: s.os,
        arch: s.arch,
        online: this.serverConnected && this.#serverSocketId === s.serverId,
        last_seen_at: s.lastSeenAt,
        created_at: s.createdAt,
      }));
      return Response.json({ data });
    }
    const server = [...this.#servers.values()].find((s) =>
      s.environmentId === parts[0] && s.accountId === accountId
    );
    if (!server) return notFound();
    if (parts.length === 1 && req.method === "DELETE") {
      this.#servers.delete(server.serverId);
      for (const [token, t] of this.#tokens) if (t.serverId === server.serverId) this.#tokens.delete(token);
      for (const d of this.#devices.values()) {
        if (d.serverId === server.serverId && !d.revoked) this.#revoke(d);
      }
      if (this.#serverSocketId === server.serverId) this.#serverSocket?.close();
      this.#log(`dev relay: environment ${server.environmentId} deleted`);
      return Response.json({});
    }
    if (parts[1] !== "clients" || parts.length > 3) return notFound();
    const devices = [...this.#devices.values()].filter((d) => d.serverId === server.serverId && !d.revoked);
    if (parts.length === 3) {
      if (req.method !== "DELETE") return Response.json({ detail: "method not allowed" }, { status: 405 });
      const device = devices.find((d) => d.clientId === parts[2]);
      if (!device) return Response.json({ detail: "client not found" }, { status: 404 });
      this.#revoke(device);
      return Response.json({});
    }
    if (req.method !== "GET") return Response.json({ detail: "method not allowed" }, { status: 405 });
    if (url.searchParams.get("order") === "desc") devices.reverse();
    const from = Number(url.searchParams.get("cursor") ?? "0");
    const limit = Math.min(200, Math.max(1, Number(url.searchParams.get("limit") ?? "50") || 50));
    if (!Number.isSafeInteger(from) || from < 0) {
      return Response.json({ detail: "bad cursor" }, { status: 400 });
    }
    const page = devices.slice(from, from + limit);
    return Response.json({
      data: page.map((d) => ({
        client_id: d.clientId,
        display_name: d.info.display_name ?? null,
        device_type: d.info.device_type ?? null,
        platform: d.info.platform ?? null,
        os_version: d.info.os_version ?? null,
        device_model: d.info.device_model ?? null,
        app_version: d.info.app_version ?? null,
        last_seen_at: d.lastSeenAt,
      })),
      next_cursor: from + limit < devices.length ? String(from + limit) : null,
    });
  }

  /** Appends a client envelope to the log under the next cursor (`verbatim`: its text, already exact but for it). */
  #record(env: { client_id: string } & Record<string, unknown>, verbatim?: string): LoggedClientFrame {
    const frame = { cursor: this.#nextCursor++, clientId: env.client_id, text: "", written: false };
    const end = verbatim?.lastIndexOf("}") ?? -1;
    frame.text = verbatim !== undefined && end > 0
      ? `${verbatim.slice(0, end)},"cursor":"${frame.cursor}"}`
      : JSON.stringify({ ...env, cursor: String(frame.cursor) });
    this.#clientLog.push(frame);
    if (this.#clientLog.length >= this.#trimAt) {
      const log = this.#clientLog;
      const keepFrom = log.findIndex((f, i) => !f.written || i >= log.length - CLIENT_LOG_MAX);
      this.#clientLog = log.slice(keepFrom);
      // Frames that were never written stay; the next look waits until the log doubled again.
      this.#trimAt = Math.max(2 * CLIENT_LOG_MAX, 2 * this.#clientLog.length);
    }
    return frame;
  }

  #writeToServer(frame: LoggedClientFrame): void {
    const ws = this.#serverSocket;
    // Nothing waits and the socket has room (a one-at-a-time client's every frame): written at once, as the
    // pump below would, without passing through the queues.
    if (
      this.#toServer.size === 0 && ws?.readyState === WebSocket.OPEN && ws.bufferedAmount < SERVER_WRITE_AHEAD
    ) {
      ws.send(frame.text);
      frame.written = true;
      return;
    }
    const queue = this.#toServer.get(frame.clientId) ?? [];
    queue.push(frame);
    this.#toServer.set(frame.clientId, queue);
    this.#pumpToServer();
  }

  /** Writes queued frames one client at a time, in turn, while the server socket has room. */
  #pumpToServer(): void {
    const ws = this.#serverSocket;
    if (ws?.readyState !== WebSocket.OPEN) return;
    while (this.#toServer.size > 0 && ws.bufferedAmount < SERVER_WRITE_AHEAD) {
      // The client first in line sends one frame and goes to the back: no client waits for another's backlog.
      const [clientId, queue] = this.#toServer.entries().next().value as [string, LoggedClientFrame[]];
      this.#toServer.delete(clientId);
      const frame = queue.shift();
      if (frame) {
        ws.send(frame.text);
        frame.written = true;
      }
      if (queue.length > 0) this.#toServer.set(clientId, queue);
    }
    // The socket has no drain event: look again shortly while frames wait.
    if (this.#toServer.size > 0 && this.#pumpTimer === undefined) {
      this.#pumpTimer = setTimeout(() => {
        this.#pumpTimer = undefined;
        this.#pumpToServer();
      }, 1);
    }
  }
}
