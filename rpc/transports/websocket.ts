/**
 * The experimental local WebSocket listener: one JSON-RPC message per text frame. Off unless asked for, and
 * only on a loopback address — remote clients come through the relay, never through an open port.
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
  onListen?: (addr: { hostname: string; port: number }) => void;
}

export interface WebSocketListener {
  readonly port: number;
  close(): Promise<void>;
  readonly finished: Promise<void>;
}

export function isLoopback(hostname: string): boolean {
  return LOOPBACK.has(hostname);
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
  }, (req) => {
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
