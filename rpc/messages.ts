/**
 * The JSON-RPC 2.0 frame shapes, parsed with zod at the boundary. Input may omit `"jsonrpc"` (clients of the
 * reference server do); output always carries `"jsonrpc": "2.0"`.
 */
import * as z from "zod";
import type { RpcErrorBody } from "./errors.ts";

export const RequestIdSchema = z.union([z.number().check(z.int()), z.string()]);
export type RequestId = z.infer<typeof RequestIdSchema>;

const Version = z.optional(z.literal("2.0"));
const Params = z.optional(z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]));

export const RequestSchema = z.object({
  jsonrpc: Version,
  id: RequestIdSchema,
  method: z.string().check(z.minLength(1)),
  params: Params,
});
export const NotificationSchema = z.object({
  jsonrpc: Version,
  method: z.string().check(z.minLength(1)),
  params: Params,
});
export const ErrorObjectSchema = z.object({
  code: z.number().check(z.int()),
  message: z.string(),
  data: z.optional(z.unknown()),
});
export const ResponseSchema = z.union([
  z.object({ jsonrpc: Version, id: RequestIdSchema, result: z.unknown() }).check(
    z.refine((r) => "result" in r),
  ),
  z.object({ jsonrpc: Version, id: z.union([RequestIdSchema, z.null()]), error: ErrorObjectSchema }),
]);

export type Request = z.infer<typeof RequestSchema>;
export type Notification = z.infer<typeof NotificationSchema>;
export type Response = z.infer<typeof ResponseSchema>;

/** One element of a frame, classified. `invalid` keeps whatever id could be salvaged for the error reply. */
export type Incoming =
  | { kind: "request"; msg: Request }
  | { kind: "notification"; msg: Notification }
  | { kind: "response"; msg: Response }
  | { kind: "invalid"; id: RequestId | null; reason: string };

function salvageId(value: unknown): RequestId | null {
  if (typeof value !== "object" || value === null || !("id" in value)) return null;
  const id = RequestIdSchema.safeParse((value as { id: unknown }).id);
  return id.success ? id.data : null;
}

/** The fields a request or notification may carry; any other one is zod's to strip. */
const REQUEST_FIELDS = new Set(["jsonrpc", "id", "method", "params"]);

/**
 * The hot shape, a request or notification as clients write it, checked by hand: `value` itself when it is a
 * plain object holding only valid request fields, which is exactly what zod returns for it (nothing to strip,
 * no default to add); undefined sends it to zod, which decides. The check accepts a subset of what the schemas
 * accept (`messages_test.ts` compares both), so zod stays the boundary for everything unusual.
 */
export function fastRequest(value: object): Request | Notification | undefined {
  if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const m = value as Record<string, unknown>;
  for (const key in m) if (!REQUEST_FIELDS.has(key)) return undefined;
  if (m.jsonrpc !== undefined && m.jsonrpc !== "2.0") return undefined;
  if (typeof m.method !== "string" || m.method.length === 0) return undefined;
  if ("id" in m && typeof m.id !== "string" && !Number.isSafeInteger(m.id)) return undefined;
  const params = m.params;
  if (
    params !== undefined &&
    (typeof params !== "object" || params === null ||
      // An own "__proto__" key (JSON.parse makes one) is copied differently by zod's record: left to it.
      (!Array.isArray(params) &&
        (Object.getPrototypeOf(params) !== Object.prototype || Object.hasOwn(params, "__proto__"))))
  ) {
    return undefined;
  }
  return m as Request | Notification;
}

/** Classifies one parsed JSON value (not a batch array) as request, notification, response or invalid. */
export function classify(value: unknown): Incoming {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { kind: "invalid", id: null, reason: "a message must be a JSON object" };
  }
  const fast = fastRequest(value);
  if (fast) {
    return "id" in fast ? { kind: "request", msg: fast as Request } : { kind: "notification", msg: fast };
  }
  if ("method" in value) {
    const schema = "id" in value ? RequestSchema : NotificationSchema;
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      return { kind: "invalid", id: salvageId(value), reason: z.prettifyError(parsed.error) };
    }
    return "id" in parsed.data
      ? { kind: "request", msg: parsed.data as Request }
      : { kind: "notification", msg: parsed.data };
  }
  if ("result" in value || "error" in value) {
    const parsed = ResponseSchema.safeParse(value);
    if (parsed.success) return { kind: "response", msg: parsed.data };
    return { kind: "invalid", id: salvageId(value), reason: z.prettifyError(parsed.error) };
  }
  return {
    kind: "invalid",
    id: salvageId(value),
    reason: "neither a request, a notification nor a response",
  };
}

/** An outgoing message as a plain object; the session serialises it once, as a single message or in a batch. */
export type OutMessage = Record<string, unknown>;

export function resultObject(id: RequestId, result: unknown): OutMessage {
  return { jsonrpc: "2.0", id, result: result ?? null };
}

export function errorObject(id: RequestId | null, error: RpcErrorBody): OutMessage {
  return { jsonrpc: "2.0", id, error };
}

export function notificationObject(method: string, params?: unknown): OutMessage {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}

export function requestObject(id: RequestId, method: string, params?: unknown): OutMessage {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}
