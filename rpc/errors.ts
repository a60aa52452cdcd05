/**
 * JSON-RPC error values. The five standard codes come from the JSON-RPC 2.0 spec; the server codes
 * (-32000..-32099, reserved by the spec for implementations) are this server's own and are listed in
 * docs/rpc.md. Handlers throw `RpcError`; anything else thrown becomes -32603 so a bug never kills a connection.
 */

export const RPC_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** The thread or turn named in params does not exist. */
  notFound: -32000,
  /** The thread already runs a turn; interrupt it or wait for turn/completed. */
  threadBusy: -32001,
  /** The connection has too many requests in flight; retry after some responses arrive. */
  overloaded: -32002,
  /** A server->client request got no response in time. */
  requestTimeout: -32003,
  /** The server is shutting down or the connection closed before the answer. */
  closed: -32004,
} as const;

export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

export class RpcError extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }
  toBody(): RpcErrorBody {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export const rpcErrors = {
  parse: (detail?: string) =>
    new RpcError(RPC_CODES.parseError, detail ? `Parse error: ${detail}` : "Parse error"),
  invalidRequest: (message = "Invalid request", data?: unknown) =>
    new RpcError(RPC_CODES.invalidRequest, message, data),
  methodNotFound: (method: string) => new RpcError(RPC_CODES.methodNotFound, `Method not found: ${method}`),
  invalidParams: (message: string, data?: unknown) =>
    new RpcError(RPC_CODES.invalidParams, `Invalid params: ${message}`, data),
  internal: (message: string) => new RpcError(RPC_CODES.internalError, `Internal error: ${message}`),
  notFound: (message: string) => new RpcError(RPC_CODES.notFound, message),
  threadBusy: (threadId: string, turnId: string) =>
    new RpcError(RPC_CODES.threadBusy, `thread ${threadId} is running turn ${turnId}`, { threadId, turnId }),
  overloaded: (limit: number) =>
    new RpcError(RPC_CODES.overloaded, `too many requests in flight on this connection (limit ${limit})`),
  requestTimeout: (method: string, ms: number) =>
    new RpcError(RPC_CODES.requestTimeout, `no response to ${method} within ${ms} ms`),
  closed: (why: string) => new RpcError(RPC_CODES.closed, why),
};

/** Anything a handler threw, as an RpcError; non-RpcErrors are bugs and say so without leaking a stack. */
export function toRpcError(e: unknown): RpcError {
  if (e instanceof RpcError) return e;
  return rpcErrors.internal(e instanceof Error ? e.message : String(e));
}
