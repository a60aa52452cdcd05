/**
 * The relay wire format: every WebSocket text frame is one JSON object whose snake_case `type` tag sits beside
 * the addressing fields (`client_id`, `stream_id`, `seq_id`, and the relay's `cursor`). Client envelopes flow
 * relay → local server, server envelopes local server → relay. Frames that do not parse are dropped by the
 * receiver without a reply, so the parsers here return `undefined` instead of throwing.
 */
import { z } from "zod";

const seqId = z.number().int().nonnegative();

const chunkFields = {
  segment_id: z.number().int().nonnegative(),
  segment_count: z.number().int().nonnegative(),
  message_size_bytes: z.number().int().nonnegative(),
  message_chunk_base64: z.string(),
};

const clientAddress = {
  client_id: z.string(),
  stream_id: z.string().optional(),
  seq_id: seqId.optional(),
  cursor: z.string().optional(),
};

export const clientEnvelopeSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("client_message"), message: z.unknown(), ...clientAddress }),
  z.object({ type: z.literal("client_message_chunk"), ...chunkFields, ...clientAddress }),
  z.object({
    type: z.literal("ack"),
    segment_id: z.number().int().nonnegative().optional(),
    ...clientAddress,
  }),
  z.object({ type: z.literal("ping"), ...clientAddress }),
  z.object({ type: z.literal("client_closed"), ...clientAddress }),
]);
export type ClientEnvelope = z.infer<typeof clientEnvelopeSchema>;
export type ClientChunkEnvelope = Extract<ClientEnvelope, { type: "client_message_chunk" }>;

const serverAddress = { client_id: z.string(), stream_id: z.string(), seq_id: seqId };

export const serverEnvelopeSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("server_message"), message: z.unknown(), ...serverAddress }),
  z.object({ type: z.literal("server_message_chunk"), ...chunkFields, ...serverAddress }),
  z.object({ type: z.literal("pong"), status: z.enum(["active", "unknown"]), ...serverAddress }),
]);
export type ServerEnvelope = z.infer<typeof serverEnvelopeSchema>;
export type ServerChunkEnvelope = Extract<ServerEnvelope, { type: "server_message_chunk" }>;

/** The four chunk fields shared by both directions' `*_message_chunk` kinds. */
export type ChunkFields = {
  segment_id: number;
  segment_count: number;
  message_size_bytes: number;
  message_chunk_base64: string;
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function parseClientEnvelope(text: string): ClientEnvelope | undefined {
  const parsed = clientEnvelopeSchema.safeParse(parseJson(text));
  return parsed.success ? parsed.data : undefined;
}

export function parseServerEnvelope(text: string): ServerEnvelope | undefined {
  const parsed = serverEnvelopeSchema.safeParse(parseJson(text));
  return parsed.success ? parsed.data : undefined;
}

/** Whether a JSON-RPC message (already parsed) is a request for `initialize`, the only opener of a stream. */
export function isInitializeRequest(message: unknown): boolean {
  return typeof message === "object" && message !== null && "method" in message && "id" in message &&
    (message as { method: unknown }).method === "initialize";
}
