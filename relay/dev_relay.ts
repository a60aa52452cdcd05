/**
 * The dev relay: a loopback stand-in for the cloud relay, for tests and for driving a turn by hand. It serves
 *  - `POST /backend-api/wham/remote/control/server/enroll` (hands out server and environment ids),
 *  - the server WebSocket `GET /backend-api/wham/remote/control/server` (one local server at a time),
 *  - a remote-client WebSocket `GET /dev/client?client_id=…` whose frames are client envelopes (the relay
 *    stamps `client_id` and a `cursor`), and which receives the server envelopes addressed to that client,
 *  - `POST /dev/faults` to inject faults by hand (the same switches tests call on `faults`).
 * Client envelopes are logged with their cursor, so a server that reconnects with `x-svc-subscribe-cursor`
 * gets everything after it; envelopes never written to any server socket are replayed on the next one.
 */
import { z } from "zod";
import { abortableSleep, type Clock } from "../cli/provider.ts";
import { clientEnvelopeSchema, parseKeepAlive, parseServerEnvelope } from "./envelopes.ts";

const SERVER_PATH = "/backend-api/wham/remote/control/server";
const ENROLL_PATH = `${SERVER_PATH}/enroll`;
const NOT_FOUND_BODY = JSON.stringify({ detail: "Remote app server not found" });

const enrollRequestSchema = z.object({
  name: z.string(),
  os: z.string(),
  arch: z.string(),
  app_server_version: z.string(),
  installation_id: z.string(),
});

const faultRequestSchema = z.discriminatedUnion("fault", [
  z.object({ fault: z.literal("drop") }),
  z.object({ fault: z.literal("forget") }),
  z.object({
    fault: z.literal("reject_handshakes"),
    status: z.number().int(),
    count: z.number().int().min(1),
  }),
  z.object({ fault: z.literal("delay_acks"), ms: z.number().int().nonnegative() }),
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
  /** Bearer tokens the relay accepts; any non-empty token when absent. */
  acceptToken?: (token: string) => boolean;
}

/** What the relay saw, for assertions and for the by-hand log. */
export interface DevRelayStats {
  enrollments: number;
  handshakes: number;
  /** Headers of every handshake request, in order (tokens included: this is a loopback test double). */
  handshakeHeaders: Record<string, string>[];
  serverFramesRejected: number;
  /** Server chunk frames forwarded to remote clients (shows that a message travelled segmented). */
  chunkFramesForwarded: number;
}

interface LoggedClientFrame {
  cursor: number;
  text: string;
  written: boolean;
}

export class DevRelay {
  readonly stats: DevRelayStats = {
    enrollments: 0,
    handshakes: 0,
    handshakeHeaders: [],
    serverFramesRejected: 0,
    chunkFramesForwarded: 0,
  };
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  readonly #clock: Clock;
  readonly #log: (line: string) => void;
  readonly #acceptToken: (token: string) => boolean;
  readonly #servers = new Set<string>();
  readonly #clients = new Map<string, WebSocket>();
  /** Server envelopes for clients not connected yet, in order. */
  readonly #toClients = new Map<string, string[]>();
  #clientLog: LoggedClientFrame[] = [];
  #nextCursor = 1;
  #nextServer = 1;
  #serverSocket: WebSocket | undefined;
  #handshakeRejections: number[] = [];
  #ackDelayMs = 0;

  private constructor(options: DevRelayOptions) {
    this.#clock = options.clock ?? { now: () => Date.now(), sleep: abortableSleep };
    this.#log = options.log ?? (() => {});
    this.#acceptToken = options.acceptToken ?? ((t) => t.length > 0);
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

  clientUrl(clientId: string): string {
    const { hostname, port } = this.#server.addr;
    return `ws://${hostname}:${port}/dev/client?client_id=${encodeURIComponent(clientId)}`;
  }

  get serverConnected(): boolean {
    return this.#serverSocket?.readyState === WebSocket.OPEN;
  }

  /** Fault switches (tests call these directly; `POST /dev/faults` reaches the same code). */
  readonly faults = {
    /** Closes the local server's socket as if the network dropped it. */
    dropServerSocket: () => this.fault({ fault: "drop" }),
    /** Forgets every enrolled server: the next handshake is answered 404 "Remote app server not found". */
    forgetServers: () => this.fault({ fault: "forget" }),
    rejectHandshakes: (status: number, count = 1) =>
      this.fault({ fault: "reject_handshakes", status, count }),
    delayAcks: (ms: number) => this.fault({ fault: "delay_acks", ms }),
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
        return;
      case "reject_handshakes":
        for (let i = 0; i < f.count; i++) this.#handshakeRejections.push(f.status);
        return;
      case "delay_acks":
        this.#ackDelayMs = f.ms;
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
    this.#serverSocket?.close();
    for (const ws of this.#clients.values()) ws.close();
    await this.#server.shutdown();
  }

  async #route(req: Request): Promise<Response> {
    const url = new URL(req.url);
    if (req.method === "POST" && url.pathname === ENROLL_PATH) return await this.#enroll(req);
    if (req.method === "GET" && url.pathname === SERVER_PATH) return this.#serverHandshake(req);
    if (req.method === "GET" && url.pathname === "/dev/client") return this.#clientHandshake(req, url);
    if (req.method === "POST" && url.pathname === "/dev/faults") {
      const parsed = faultRequestSchema.safeParse(await req.json().catch(() => undefined));
      if (!parsed.success) return Response.json({ error: parsed.error.message }, { status: 400 });
      this.fault(parsed.data);
      return Response.json({ ok: true });
    }
    return new Response("not found", { status: 404 });
  }

  #authorized(req: Request): boolean {
    const auth = req.headers.get("authorization") ?? "";
    return auth.startsWith("Bearer ") && this.#acceptToken(auth.slice(7)) &&
      !!req.headers.get("svc-account-id") &&
      !!req.headers.get("x-svc-installation-id");
  }

  async #enroll(req: Request): Promise<Response> {
    if (!this.#authorized(req)) return Response.json({ detail: "unauthorized" }, { status: 401 });
    const body = enrollRequestSchema.safeParse(await req.json().catch(() => undefined));
    if (!body.success) return Response.json({ detail: body.error.message }, { status: 400 });
    const n = this.#nextServer++;
    const serverId = `srv_dev_${n}`;
    this.#servers.add(serverId);
    this.stats.enrollments++;
    this.#log(`dev relay: enrolled ${body.data.name} as ${serverId}`);
    return Response.json({ server_id: serverId, environment_id: `env_dev_${n}` });
  }

  #serverHandshake(req: Request): Response {
    // Headers must be read before upgrading: the request is closed afterwards.
    const headers = Object.fromEntries(req.headers.entries());
    this.stats.handshakeHeaders.push(headers);
    const rejection = this.#handshakeRejections.shift();
    if (rejection !== undefined) return new Response(NOT_FOUND_BODY, { status: rejection });
    if (!this.#authorized(req)) return Response.json({ detail: "unauthorized" }, { status: 401 });
    if (!this.#servers.has(headers["x-svc-server-id"] ?? "")) {
      return new Response(NOT_FOUND_BODY, { status: 404 });
    }
    if (headers["x-svc-protocol-version"] !== "3") {
      return new Response("unsupported protocol", { status: 400 });
    }
    const cursorHeader = headers["x-svc-subscribe-cursor"];
    const { socket, response } = Deno.upgradeWebSocket(req);
    this.stats.handshakes++;
    socket.onopen = () => {
      this.#serverSocket?.close();
      this.#serverSocket = socket;
      const after = cursorHeader === undefined ? undefined : Number(cursorHeader);
      if (after !== undefined) this.#clientLog = this.#clientLog.filter((f) => f.cursor > after);
      for (const f of this.#clientLog) {
        if (after !== undefined || !f.written) this.#writeToServer(f);
      }
    };
    socket.onmessage = (ev) => {
      if (this.#serverSocket !== socket || typeof ev.data !== "string") return;
      this.#fromServer(socket, ev.data);
    };
    socket.onclose = () => {
      if (this.#serverSocket === socket) this.#serverSocket = undefined;
    };
    socket.onerror = () => {};
    return response;
  }

  #fromServer(socket: WebSocket, text: string): void {
    const keepAlive = parseKeepAlive(text);
    if (keepAlive) return socket.send(text);
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
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onopen = () => {
      this.#clients.get(clientId)?.close();
      this.#clients.set(clientId, socket);
      for (const text of this.#toClients.get(clientId) ?? []) socket.send(text);
      this.#toClients.delete(clientId);
    };
    socket.onmessage = (ev) => {
      if (typeof ev.data !== "string") return;
      let json: unknown;
      try {
        json = JSON.parse(ev.data);
      } catch {
        return;
      }
      const env = clientEnvelopeSchema.safeParse({ ...(json as object), client_id: clientId });
      if (!env.success) return;
      const frame = { cursor: this.#nextCursor++, text: "", written: false };
      frame.text = JSON.stringify({ ...env.data, cursor: String(frame.cursor) });
      this.#clientLog.push(frame);
      if (env.data.type === "ack" && this.#ackDelayMs > 0) {
        this.#clock.sleep(this.#ackDelayMs).then(() => this.#writeToServer(frame));
      } else {
        this.#writeToServer(frame);
      }
    };
    socket.onclose = () => {
      if (this.#clients.get(clientId) === socket) this.#clients.delete(clientId);
    };
    socket.onerror = () => {};
    return response;
  }

  #writeToServer(frame: LoggedClientFrame): void {
    const ws = this.#serverSocket;
    if (ws?.readyState !== WebSocket.OPEN) return;
    ws.send(frame.text);
    frame.written = true;
  }
}
