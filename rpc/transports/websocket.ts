/**
 * The experimental local WebSocket listener: one JSON-RPC message per text frame. Off unless asked for, and
 * only on a loopback address -- remote clients come through the relay, never through an open port.
 * Loopback alone does not keep a web page out (any page the user visits can open `ws://127.0.0.1:PORT`, and DNS
 * rebinding makes a foreign name resolve to loopback), so a handshake is refused with 403 when its `Host` is not
 * a loopback name or address, or its `Origin` is present and not explicitly allowed; and, unless turned off, it
 * must present the per-start secret token (`Authorization: Bearer <token>`, or `?token=<token>` for browsers,
 * which cannot set headers on a WebSocket) or get 401.
 */
import { errors } from "../../cli/output/errors.ts";
import type { Clock } from "../../cli/provider.ts";
import type { LarkitAppServer } from "../server.ts";

const LOOPBACK = new Set(["127.0.0.1", "::1", "[::1]", "localhost"]);

export interface WebSocketListenOptions {
  hostname: string;
  /** 0 picks a free port. */
  port: number;
  clock: Clock;
  /** Frames larger than this are answered with -32700 and not parsed. */
  maxMessageBytes?: number;
  /** Sending pauses while the socket holds more than this many unsent bytes. */
  highWaterBytes?: number;
  /** Exact `Origin` values (scheme://host[:port]) a handshake may carry; a handshake without Origin is not a browser's. */
  allowedOrigins?: string[];
  /** The secret every handshake must present; undefined only when the operator turned the token off. */
  token?: string;
  onListen?: (addr: { hostname: string; port: number }) => void;
  /** Told about each refused handshake (for the server log). */
  onRefused?: (reason: string) => void;
}

export interface WebSocketListener {
  readonly port: number;
  close(): Promise<void>;
  readonly finished: Promise<void>;
}

export function isLoopback(hostname: string): boolean {
  return LOOPBACK.has(hostname);
}

/**
 * The hostname of a well-formed `Host` header value (`127.0.0.1:8765`, `[::1]:8765`, `localhost`), or undefined
 * for anything else (a port that is not a port, spaces, `%`, a bracket left open): such a request is malformed.
 */
function hostnameOf(host: string): string | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec(host);
  if (!m || (m[2] !== undefined && Number(m[2]) > 65535)) return undefined;
  return m[1].toLowerCase();
}

/** Compares in time independent of where the strings differ, so the token cannot be guessed byte by byte. */
function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/** Why a handshake is refused (status and reason), or undefined to accept it. */
export function handshakeRefusal(
  req: Request,
  opts: Pick<WebSocketListenOptions, "allowedOrigins" | "token">,
): { status: 400 | 401 | 403; reason: string } | undefined {
  const host = req.headers.get("host");
  const hostname = host === null ? undefined : hostnameOf(host);
  if (host !== null && hostname === undefined) return { status: 400, reason: "malformed Host header" };
  if (hostname === undefined || !isLoopback(hostname)) {
    return { status: 403, reason: "Host is not a loopback name or address" };
  }
  const origin = req.headers.get("origin");
  if (origin !== null && !(opts.allowedOrigins ?? []).includes(origin)) {
    return { status: 403, reason: "Origin is not allowed (see --ws-allow-origin)" };
  }
  if (opts.token !== undefined) {
    const auth = req.headers.get("authorization");
    let presented: string | null | undefined;
    try {
      presented = auth?.startsWith("Bearer ")
        ? auth.slice("Bearer ".length).trim()
        : new URL(req.url).searchParams.get("token");
    } catch {
      return { status: 400, reason: "malformed request URL" };
    }
    if (presented === null || presented === undefined || !sameSecret(presented, opts.token)) {
      return { status: 401, reason: "missing or wrong token" };
    }
  }
  return undefined;
}

export function listenWebSocket(server: LarkitAppServer, opts: WebSocketListenOptions): WebSocketListener {
  if (!isLoopback(opts.hostname)) {
    throw errors.validation(`the WebSocket listener binds loopback only, not ${opts.hostname}`, {
      hint: "use ws://127.0.0.1:PORT; remote clients connect through remote control",
    });
  }
  const maxMessageBytes = opts.maxMessageBytes ?? 16 * 1024 * 1024;
  const highWater = opts.highWaterBytes ?? 1024 * 1024;
  const sockets = new Set<WebSocket>();
  const http = Deno.serve({
    hostname: opts.hostname.replace(/^\[|\]$/g, ""),
    port: opts.port,
    onListen: (addr) => opts.onListen?.({ hostname: addr.hostname, port: addr.port }),
    // Whatever a malformed request still breaks is answered as one, without Deno's stack trace on stderr.
    onError: (e) => {
      opts.onRefused?.(`malformed request (${e instanceof Error ? e.name : "error"})`);
      return new Response("larkit app-server: malformed request\n", { status: 400 });
    },
  }, (req) => {
    const refusal = handshakeRefusal(req, opts);
    if (refusal) {
      opts.onRefused?.(refusal.reason);
      return new Response(`larkit app-server: ${refusal.reason}\n`, { status: refusal.status });
    }
    if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("larkit app-server: WebSocket upgrade required\n", { status: 426 });
    }
    const { socket, response } = Deno.upgradeWebSocket(req);
    sockets.add(socket);
    socket.onopen = () => {
      const connection = server.connect("WebSocket", {
        async send(message) {
          while (socket.readyState === WebSocket.OPEN && socket.bufferedAmount > highWater) {
            await opts.clock.sleep(5);
          }
          if (socket.readyState !== WebSocket.OPEN) throw new Error("socket closed");
          socket.send(message);
        },
        close() {
          if (socket.readyState === WebSocket.OPEN) socket.close(1000);
        },
      }, "websocket");
      // Frames are handled one after another: the next waits until the connection took the previous one.
      let chain = Promise.resolve();
      socket.onmessage = (ev) => {
        chain = chain.then(() => {
          const text = typeof ev.data === "string" ? ev.data : new TextDecoder().decode(ev.data);
          return text.length > maxMessageBytes
            ? connection.rejectFrame(
              `message of ${text.length} bytes exceeds the ${maxMessageBytes}-byte limit`,
            )
            : connection.receive(text);
        });
      };
      socket.onclose = () => {
        sockets.delete(socket);
        connection.close();
      };
    };
    return response;
  });
  return {
    port: http.addr.port,
    finished: http.finished,
    async close() {
      for (const s of sockets) s.close(1001);
      await http.shutdown();
    },
  };
}
