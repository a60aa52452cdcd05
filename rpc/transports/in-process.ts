/**
 * The in-process transport: a client object in the same process, for tests and for embedding. Messages are
 * handed over as JSON texts exactly as a socket would carry them, so the same parsing and limits apply.
 */
import type { AppServer, Connection, Origin } from "../connection.ts";
import { RpcError } from "../errors.ts";

export interface ServerMessage {
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export interface InProcessOptions {
  origin?: Origin;
  label?: string;
  /** The remote device a `RemoteControl` client stands for (the relay's client id). */
  device?: string;
  /** Answers server->client requests (approvals); without it they stay pending. */
  onServerRequest?: (method: string, params: unknown, id: number | string) => unknown | Promise<unknown>;
}

export class InProcessClient {
  readonly connection: Connection;
  /** Every message received, in order (notifications, responses, server requests, batches flattened). */
  readonly received: ServerMessage[] = [];
  #nextId = 1;
  #waiters: { test: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];
  #opts: InProcessOptions;
  #closed = false;

  constructor(server: AppServer, opts: InProcessOptions = {}) {
    this.#opts = opts;
    this.connection = server.connect(
      opts.origin ?? "InProcess",
      {
        send: (message) => {
          this.#deliver(message);
          return Promise.resolve();
        },
        close: () => {
          this.#closed = true;
        },
      },
      opts.label ?? "in-process",
      opts.device === undefined ? undefined : { device: opts.device },
    );
  }

  get closed(): boolean {
    return this.#closed;
  }

  #deliver(text: string): void {
    const value: unknown = JSON.parse(text);
    for (const m of (Array.isArray(value) ? value : [value]) as ServerMessage[]) {
      this.received.push(m);
      this.#waiters = this.#waiters.filter((w) => {
        if (!w.test(m)) return true;
        w.resolve(m);
        return false;
      });
      if (m.method !== undefined && m.id !== undefined && m.id !== null && this.#opts.onServerRequest) {
        this.#answer(m.id, m.method, m.params);
      }
    }
  }

  async #answer(id: number | string, method: string, params: unknown): Promise<void> {
    const handler = this.#opts.onServerRequest;
    if (!handler) return;
    const result = await handler(method, params, id);
    await this.send({ id, result });
  }

  /** The next message (already received or future) that matches. */
  waitFor(test: (m: ServerMessage) => boolean, from = 0): Promise<ServerMessage> {
    const seen = this.received.slice(from).find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.#waiters.push({ test, resolve }));
  }

  waitForNotification(method: string, from = 0): Promise<ServerMessage> {
    return this.waitFor((m) => m.method === method && m.id === undefined, from);
  }

  send(message: unknown): Promise<void> {
    return this.connection.receive(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** Sends a request and resolves with its result; an error response rejects with an RpcError. */
  async request(method: string, params?: unknown): Promise<unknown> {
    const id = this.#nextId++;
    const reply = this.waitFor((m) => m.id === id && m.method === undefined, this.received.length);
    await this.send(params === undefined ? { id, method } : { id, method, params });
    const m = await reply;
    if (m.error) throw new RpcError(m.error.code, m.error.message, m.error.data);
    return m.result;
  }

  notify(method: string, params?: unknown): Promise<void> {
    return this.send(params === undefined ? { method } : { method, params });
  }

  async initialize(name = "test-client", capabilities: Record<string, unknown> = {}): Promise<unknown> {
    const result = await this.request("initialize", { clientInfo: { name, version: "0.0.0" }, capabilities });
    await this.notify("initialized");
    return result;
  }

  close(): void {
    this.connection.close();
  }
}
