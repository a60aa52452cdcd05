/**
 * The emulator's side of the event long connection. `POST /callback/ws/endpoint` checks the app credentials
 * and hands out a one-time WebSocket URL plus the client config; the socket at `/callback/ws/connect` carries
 * protobuf frames (`wire.ts`): pings are answered with pongs holding the client config, events go out as data
 * frames (split into `sum` fragments when asked), and the client's response frame with `{"code":200}`
 * acknowledges one. Unacknowledged events are sent again on the next connection, as the suite redelivers.
 * A new socket gets events only once the client has sent its first frame (clients ping as soon as the socket
 * opens) or after a short grace: a client whose `connect` resolves before it attaches its message handler (the
 * official SDK) would otherwise miss what was waiting, until a redelivery seconds later.
 * A refused endpoint request answers HTTP 200 with the suite's code in the body, as the SDK expects.
 *
 * Events come from state changes: `observe` looks at each successful request the emulator served (a message
 * sent, a calendar event written, a task changed) and publishes what the suite would push to the app.
 */
import * as z from "zod";
import { one } from "../db.ts";
import { TENANT_KEY } from "../fixtures.ts";
import { json, ok, type Reply } from "../reply.ts";
import type { RequestCtx, Route } from "../router.ts";
import type { EmulatorState } from "../state.ts";
import { decodeWire, encodeWire, wireHeader } from "./wire.ts";
import { reactionRoutes } from "./reactions.ts";

export const ENDPOINT_PATH = "/callback/ws/endpoint";
export const SOCKET_PATH = "/callback/ws/connect";
const SERVICE_ID = 7;
const DATA = 1;
const CONTROL = 0;
const REDELIVERY_TICK_MS = 25;
/** The suite's codes at the event endpoint (the SDK's `ErrorCode`): bad request body, and wrong app or secret. */
const ENDPOINT_BAD_REQUEST = 1000040346;
const AUTH_FAILED = 514;

/** The client config in the suite's units (seconds); tests shorten the reconnect waits. */
export interface ClientConfig {
  PingInterval: number;
  ReconnectCount: number;
  ReconnectInterval: number;
  ReconnectNonce: number;
}

export interface EmulatorEvents {
  /** Closes every open long-connection socket now; the client is expected to reconnect. */
  dropSocket(): void;
  /** Ignore acknowledgements: events stay unacknowledged and are redelivered on the next connection. */
  loseAcks: boolean;
  /** Apply acknowledgements only after this many milliseconds. */
  ackDelayMs: number;
  /** Send each event's payload in this many fragments (1: whole). */
  splitInto: number;
  /** An event still unacknowledged this long after it was sent is sent again (default 10 s). */
  redeliverAfterMs: number;
  /** A new socket whose client has sent no frame yet gets events after this long anyway (default 500 ms). */
  readyGraceMs: number;
  clientConfig: ClientConfig;
  /** Pushes an event of any type to the app; returns its event_id. */
  publish(eventType: string, event: Record<string, unknown>): string;
  /** Sends every unacknowledged event again on the open connection. */
  redeliver(): void;
  /** Events not acknowledged yet. */
  unacked(): number;
  /** Sockets accepted so far. */
  connections(): number;
  /** Event frames sent so far (first deliveries and redeliveries, counted once per event, not per fragment). */
  sent(): number;
  /** Acknowledgements received so far, applied or lost (`loseAcks`). */
  acks(): number;
}

interface Pending {
  id: string;
  payload: Uint8Array;
  socket?: WebSocket;
  /** performance.now() of the last send: redelivery is transport timing, not the emulated clock. */
  sentAt?: number;
}

/** A refusal as the gateway sends it: HTTP 200, the code in the body and an empty `data` (the SDK
 * destructures `data` before it looks at `code`, so an absent one would read as a network failure and retry). */
function refused(code: number, msg: string): Reply {
  return json({ code, msg, data: {} });
}

const EndpointBody = z.object({ AppID: z.string(), AppSecret: z.string() });

const registry = new WeakMap<EmulatorState, EventPush>();

class EventPush implements EmulatorEvents {
  loseAcks = false;
  ackDelayMs = 0;
  splitInto = 1;
  redeliverAfterMs = 10_000;
  readyGraceMs = 500;
  clientConfig: ClientConfig = {
    PingInterval: 120,
    ReconnectCount: -1,
    ReconnectInterval: 2,
    ReconnectNonce: 1,
  };
  readonly #st: EmulatorState;
  readonly #tickets = new Set<string>();
  readonly #sockets = new Set<WebSocket>();
  /** Open sockets that have sent a frame or outlived the grace: only these are pushed events. */
  readonly #ready = new WeakSet<WebSocket>();
  /** Unacknowledged events in publish order (Map keeps insertion order). */
  readonly #pending = new Map<string, Pending>();
  #counter = 0;
  #seq = 0n;
  #accepted = 0;
  #sent = 0;
  #acks = 0;
  #redeliveryTimer: ReturnType<typeof setInterval> | undefined;

  constructor(st: EmulatorState) {
    this.#st = st;
  }

  endpoint(ctx: RequestCtx): Reply {
    let body: z.infer<typeof EndpointBody>;
    try {
      body = EndpointBody.parse(JSON.parse(new TextDecoder().decode(ctx.bytes)));
    } catch {
      return refused(ENDPOINT_BAD_REQUEST, "invalid request: AppID and AppSecret are required");
    }
    if (body.AppID !== this.#st.app.appId || body.AppSecret !== this.#st.app.appSecret) {
      return refused(AUTH_FAILED, "auth failed: unknown app or wrong secret");
    }
    const ticket = crypto.randomUUID();
    this.#tickets.add(ticket);
    const ws = this.#st.origin.replace(/^http/, "ws");
    return ok({
      URL: `${ws}${SOCKET_PATH}?device_id=emu-${
        ticket.slice(0, 8)
      }&service_id=${SERVICE_ID}&ticket=${ticket}`,
      ClientConfig: this.clientConfig,
    });
  }

  upgrade(req: Request, url: URL): Response {
    const ticket = url.searchParams.get("ticket") ?? "";
    if (!this.#tickets.delete(ticket) || req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response(null, {
        status: 403,
        headers: { "handshake-status": "403", "handshake-msg": "bad ticket" },
      });
    }
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.binaryType = "arraybuffer";
    let grace: ReturnType<typeof setTimeout> | undefined;
    socket.onopen = () => {
      this.#sockets.add(socket);
      this.#accepted++;
      this.#redeliveryTimer ??= setInterval(() => this.#redeliverStale(), REDELIVERY_TICK_MS);
      grace = setTimeout(() => this.#markReady(socket), this.readyGraceMs);
    };
    socket.onclose = () => {
      clearTimeout(grace);
      this.#sockets.delete(socket);
      this.#stopTimerWhenIdle();
    };
    socket.onerror = () => {};
    socket.onmessage = (m) => {
      clearTimeout(grace);
      this.#markReady(socket);
      if (m.data instanceof ArrayBuffer) this.#onFrame(socket, new Uint8Array(m.data));
    };
    return response;
  }

  /** The socket is listening: what is waiting (left unacknowledged by an earlier connection, or published
   * since this one opened) goes out now, in the original order. */
  #markReady(socket: WebSocket): void {
    if (this.#ready.has(socket) || !this.#sockets.has(socket)) return;
    this.#ready.add(socket);
    for (const p of this.#pending.values()) {
      if (!p.socket || !this.#sockets.has(p.socket) || !this.#ready.has(p.socket)) this.#send(p, socket);
    }
  }

  #onFrame(socket: WebSocket, bytes: Uint8Array): void {
    let f;
    try {
      f = decodeWire(bytes);
    } catch {
      return socket.close(1002, "undecodable frame");
    }
    if (f.method === CONTROL && wireHeader(f, "type") === "ping") {
      return this.#write(socket, {
        seqId: 0n,
        logId: 0n,
        service: SERVICE_ID,
        method: CONTROL,
        headers: [["type", "pong"]],
        payload: new TextEncoder().encode(JSON.stringify(this.clientConfig)),
      });
    }
    if (f.method !== DATA) return;
    const id = wireHeader(f, "message_id");
    let code: unknown;
    try {
      code = (JSON.parse(new TextDecoder().decode(f.payload)) as { code?: unknown }).code;
    } catch {
      return;
    }
    if (!id || code !== 200) return;
    this.#acks++;
    if (this.loseAcks) return;
    if (this.ackDelayMs > 0) setTimeout(() => this.#pending.delete(id), this.ackDelayMs);
    else this.#pending.delete(id);
  }

  #write(socket: WebSocket, f: Parameters<typeof encodeWire>[0]): void {
    if (socket.readyState === WebSocket.OPEN) socket.send(encodeWire(f));
  }

  #send(p: Pending, socket: WebSocket): void {
    p.socket = socket;
    p.sentAt = performance.now();
    this.#sent++;
    const parts = Math.max(1, Math.min(this.splitInto, p.payload.length));
    const size = Math.ceil(p.payload.length / parts);
    const trace = `trace-${p.id}`;
    for (let seq = 0; seq < parts; seq++) {
      this.#write(socket, {
        seqId: ++this.#seq,
        logId: this.#seq,
        service: SERVICE_ID,
        method: DATA,
        headers: [
          ["type", "event"],
          ["message_id", p.id],
          ["sum", String(parts)],
          ["seq", String(seq)],
          ["trace_id", trace],
        ],
        payload: p.payload.subarray(seq * size, (seq + 1) * size),
      });
    }
  }

  /** The newest open, listening socket: the suite hands each event to one connection of the app. */
  #target(): WebSocket | undefined {
    let last: WebSocket | undefined;
    for (const s of this.#sockets) if (s.readyState === WebSocket.OPEN && this.#ready.has(s)) last = s;
    return last;
  }

  publish(eventType: string, event: Record<string, unknown>): string {
    const id = `ev_${(++this.#counter).toString(16).padStart(8, "0")}${crypto.randomUUID().slice(0, 8)}`;
    const envelope = {
      schema: "2.0",
      header: {
        event_id: id,
        event_type: eventType,
        create_time: String(this.#st.clock.now()),
        token: "",
        app_id: this.#st.app.appId,
        tenant_key: TENANT_KEY,
      },
      event,
    };
    const p: Pending = { id, payload: new TextEncoder().encode(JSON.stringify(envelope)) };
    this.#pending.set(id, p);
    const socket = this.#target();
    if (socket) this.#send(p, socket);
    return id;
  }

  /** Unacknowledged events sent longer than `redeliverAfterMs` ago go out again, as the suite retries. */
  #redeliverStale(): void {
    const socket = this.#target();
    if (!socket) return;
    const due = performance.now() - this.redeliverAfterMs;
    for (const p of this.#pending.values()) {
      if (p.sentAt !== undefined && p.sentAt <= due) this.#send(p, socket);
    }
  }

  #stopTimerWhenIdle(): void {
    if (this.#sockets.size > 0 || this.#redeliveryTimer === undefined) return;
    clearInterval(this.#redeliveryTimer);
    this.#redeliveryTimer = undefined;
  }

  dropSocket(): void {
    for (const s of this.#sockets) {
      try {
        s.close(1001, "emulator: dropped on purpose");
      } catch {
        // Already closing.
      }
    }
    this.#sockets.clear();
    this.#stopTimerWhenIdle();
  }

  redeliver(): void {
    const socket = this.#target();
    if (!socket) return;
    for (const p of this.#pending.values()) this.#send(p, socket);
  }

  unacked(): number {
    return this.#pending.size;
  }

  connections(): number {
    return this.#accepted;
  }

  acks(): number {
    return this.#acks;
  }

  sent(): number {
    return this.#sent;
  }

  /** What the suite pushes for a request the emulator just served successfully. */
  observe(method: string, path: string, reply: Reply): void {
    if (reply.kind !== "suite" || reply.code !== 0) return;
    const data = (reply.data ?? {}) as Record<string, unknown>;
    if (method === "POST" && /^\/open-apis\/im\/v1\/messages(\/[^/]+\/reply)?$/.test(path)) {
      return this.#messageReceived(data);
    }
    const cal = /^\/open-apis\/calendar\/v4\/calendars\/([^/]+)\/events(\/[^/]+)?$/.exec(path);
    if (cal && method !== "GET" && cal[1] !== "instance_view") {
      const calendarId = decodeURIComponent(cal[1]);
      return void this.publish("calendar.calendar.event.changed_v4", {
        calendar_id: calendarId,
        user_id_list: [],
      });
    }
    const task = /^\/open-apis\/task\/v2\/tasks(\/([^/]+))?$/.exec(path);
    if (task && (method === "POST" || method === "PATCH" || method === "DELETE") && !task[2]?.includes("/")) {
      const guid = task[2] ?? String((data.task as Record<string, unknown> | undefined)?.guid ?? "");
      if (guid) this.publish("task.task.updated_v1", { task_id: guid, obj_type: 1 });
    }
  }

  /** A message from someone else into a chat the bot is in reaches the bot as `im.message.receive_v1`. */
  #messageReceived(m: Record<string, unknown>): void {
    const chatId = String(m.chat_id ?? "");
    const sender = (m.sender ?? {}) as Record<string, unknown>;
    if (!chatId || sender.sender_type === "app") return;
    const db = this.#st.db;
    const inChat = one(
      db,
      "SELECT 1 AS x FROM chat_members WHERE chat_id = ? AND member_id = ?",
      chatId,
      this.#st.app.botOpenId,
    );
    if (!inChat) return;
    const chat = one<{ chat_mode: string }>(db, "SELECT chat_mode FROM chats WHERE chat_id = ?", chatId);
    const user = one<{ open_id: string; union_id: string; user_id: string }>(
      db,
      "SELECT open_id, union_id, user_id FROM users WHERE open_id = ?",
      String(sender.id ?? ""),
    );
    const body = (m.body ?? {}) as Record<string, unknown>;
    this.publish("im.message.receive_v1", {
      sender: {
        sender_id: user ?? { open_id: String(sender.id ?? "") },
        sender_type: "user",
        tenant_key: TENANT_KEY,
      },
      message: {
        message_id: m.message_id,
        ...(m.root_id ? { root_id: m.root_id } : {}),
        ...(m.parent_id ? { parent_id: m.parent_id } : {}),
        create_time: m.create_time,
        update_time: m.update_time,
        chat_id: chatId,
        chat_type: chat?.chat_mode === "p2p" ? "p2p" : "group",
        message_type: m.msg_type,
        content: body.content,
        mentions: [],
      },
    });
  }
}

/** Attaches the long connection to an emulator's state; the server calls this once at start. */
export function attachEvents(st: EmulatorState): EventPush {
  const push = new EventPush(st);
  registry.set(st, push);
  return push;
}

export function pushOf(st: EmulatorState): EventPush {
  const push = registry.get(st);
  if (!push) throw new Error("emulator: the event long connection is not attached");
  return push;
}

export const eventRoutes: Route[] = [
  { method: "POST", path: ENDPOINT_PATH, auth: "none", handle: (ctx) => pushOf(ctx.st).endpoint(ctx) },
  ...reactionRoutes,
];
