/**
 * The relay wire format: every WebSocket text frame is one JSON object whose snake_case `type` tag sits beside
 * the addressing fields (`client_id`, `stream_id`, `seq_id`, and the relay's `cursor`). Client envelopes flow
 * relay -> local server, server envelopes local server -> relay. Frames that do not parse are dropped by the
 * receiver without a reply, so the parsers here return `undefined` instead of throwing.
 */
import * as z from "zod";
import { SEGMENT_MAX_BYTES } from "./segments.ts";

const seqId = z.number().check(z.int(), z.nonnegative());

const chunkFields = {
  segment_id: z.number().check(z.int(), z.nonnegative()),
  segment_count: z.number().check(z.int(), z.nonnegative()),
  message_size_bytes: z.number().check(z.int(), z.nonnegative()),
  message_chunk_base64: z.string(),
};

const clientAddress = {
  client_id: z.string(),
  stream_id: z.optional(z.string()),
  seq_id: z.optional(seqId),
  cursor: z.optional(z.string()),
};

export const clientEnvelopeSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("client_message"), message: z.unknown(), ...clientAddress }),
  z.object({ type: z.literal("client_message_chunk"), ...chunkFields, ...clientAddress }),
  z.object({
    type: z.literal("ack"),
    segment_id: z.optional(z.number().check(z.int(), z.nonnegative())),
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

/**
 * The hot path of envelope validation, checked by hand: every frame in each of the three processes used to
 * go through zod (about a tenth of a small round trip's CPU). Each kind lists its fields as [check, required].
 * An object the hand check accepts is exactly what zod would return (the same fields, nothing stripped); any
 * other value (an unknown field, a wrong type, a missing field) goes to zod, which decides. So the fast path
 * never accepts what zod rejects, and zod stays the boundary for everything unusual
 * (`envelopes_test.ts` compares both on generated envelopes).
 */
type FieldCheck = readonly [check: (v: unknown) => boolean, required: boolean];
type KindFields = Readonly<Record<string, FieldCheck>>;

const isString = (v: unknown) => typeof v === "string";
const isU64 = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isPresent = (v: unknown) => v !== undefined;

const fastChunk: KindFields = {
  segment_id: [isU64, true],
  segment_count: [isU64, true],
  message_size_bytes: [isU64, true],
  message_chunk_base64: [isString, true],
};
const fastClientAddress: KindFields = {
  type: [isString, true],
  client_id: [isString, true],
  stream_id: [isString, false],
  seq_id: [isU64, false],
  cursor: [isString, false],
};
const fastClientKinds = fastKinds({
  client_message: { ...fastClientAddress, message: [isPresent, true] },
  client_message_chunk: { ...fastClientAddress, ...fastChunk },
  ack: { ...fastClientAddress, segment_id: [isU64, false] },
  ping: fastClientAddress,
  client_closed: fastClientAddress,
});
const fastServerAddress: KindFields = {
  type: [isString, true],
  client_id: [isString, true],
  stream_id: [isString, true],
  seq_id: [isU64, true],
};
const fastServerKinds = fastKinds({
  server_message: { ...fastServerAddress, message: [isPresent, true] },
  server_message_chunk: { ...fastServerAddress, ...fastChunk },
  pong: { ...fastServerAddress, status: [(v) => v === "active" || v === "unknown", true] },
});

interface FastKind {
  fields: KindFields;
  required: number;
}

function fastKinds(kinds: Record<string, KindFields>): ReadonlyMap<string, FastKind> {
  return new Map(
    Object.entries(kinds).map(([type, fields]) => [
      type,
      { fields, required: Object.values(fields).filter(([, required]) => required).length },
    ]),
  );
}

/** Whether `value` is a plain object holding only valid fields of its kind, every required one included. */
function fastValid(value: unknown, kinds: ReadonlyMap<string, FastKind>): boolean {
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) {
    return false;
  }
  const kind = kinds.get((value as { type?: unknown }).type as string);
  if (!kind) return false;
  let required = 0;
  for (const key in value) {
    if (!Object.hasOwn(kind.fields, key)) return false;
    const [check, isRequired] = kind.fields[key];
    if (!check((value as Record<string, unknown>)[key])) return false;
    if (isRequired) required++;
  }
  return required === kind.required;
}

/** Whether the hand check alone accepts `value` (tests compare it with zod). */
export function acceptedByFastPath(value: unknown, direction: "client" | "server"): boolean {
  return fastValid(value, direction === "client" ? fastClientKinds : fastServerKinds);
}

/** A client envelope from an already parsed value (the dev relay stamps `client_id` before validating). */
export function toClientEnvelope(value: unknown): ClientEnvelope | undefined {
  if (fastValid(value, fastClientKinds)) return value as ClientEnvelope;
  const parsed = clientEnvelopeSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export function toServerEnvelope(value: unknown): ServerEnvelope | undefined {
  if (fastValid(value, fastServerKinds)) return value as ServerEnvelope;
  const parsed = serverEnvelopeSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export function parseClientEnvelope(text: string): ClientEnvelope | undefined {
  return toClientEnvelope(parseJson(text));
}

export function parseServerEnvelope(text: string): ServerEnvelope | undefined {
  return scanServerChunk(text) ?? toServerEnvelope(parseJson(text));
}

/** A u64 as JSON writes it (no sign, no leading zero), capped at 16 digits: checked for safety after. */
const U64 = "(0|[1-9][0-9]{0,15})";
const CHUNK_HEAD = new RegExp(
  `^\\{"type":"server_message_chunk","segment_id":${U64},"segment_count":${U64},"message_size_bytes":${U64},` +
    `"message_chunk_base64":"`,
);
/** Ids made of plain-token characters, which JSON writes as they are (no escape can hide in them). */
const PLAIN_ID = "([A-Za-z0-9._~:@+/=-]{1,256})";
const CHUNK_TAIL = new RegExp(`^","client_id":"${PLAIN_ID}","stream_id":"${PLAIN_ID}","seq_id":${U64}\\}$`);
/** Where a scanned segment's base64 is decoded to check it: a frame within the segment limit always fits. */
const scanScratch = new Uint8Array(SEGMENT_MAX_BYTES);

/**
 * Padded base64 and nothing else (no whitespace, which the decoder would skip): characters JSON writes as they
 * are. Decoding is the check: natively, about a third of the time a JSON.parse of the frame takes.
 */
function strictBase64(text: string): boolean {
  if (text.length % 4 !== 0 || (text.length / 4) * 3 > scanScratch.length) return false;
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  try {
    const { read, written } = scanScratch.setFromBase64(text);
    // Every skipped whitespace character would make the output shorter than the text's length implies.
    return read === text.length && written === (text.length / 4) * 3 - padding;
  } catch {
    return false;
  }
}

/**
 * A segment frame as the local server writes it (fields in its order, plain ids, strict base64), read without
 * JSON.parse: the relay and the remote client handle about 700 of these 136 KiB frames per 100 MiB message, and
 * parsing each copied its base64 into a new string (bench big: ~40 ms of CPU in each). Only a frame whose text
 * is exactly that form is taken, and what it gives is what the parse and validation below would; anything
 * else (another field order, an escape, a space, an unsafe number) is left to them.
 */
function scanServerChunk(text: string): ServerChunkEnvelope | undefined {
  const head = CHUNK_HEAD.exec(text.length > 256 ? text.slice(0, 256) : text);
  if (!head) return undefined;
  const from = head[0].length;
  const to = text.indexOf('"', from);
  if (to < 0) return undefined;
  const tail = CHUNK_TAIL.exec(text.slice(to));
  if (!tail) return undefined;
  const numbers = [head[1], head[2], head[3], tail[3]].map(Number);
  if (!numbers.every(Number.isSafeInteger)) return undefined;
  const base64 = text.slice(from, to);
  if (!strictBase64(base64)) return undefined;
  return {
    type: "server_message_chunk",
    segment_id: numbers[0],
    segment_count: numbers[1],
    message_size_bytes: numbers[2],
    message_chunk_base64: base64,
    client_id: tail[1],
    stream_id: tail[2],
    seq_id: numbers[3],
  };
}

const MESSAGE_HEAD = '{"type":"client_message","message":';
const ADDRESS_TAIL = new RegExp(
  `^,"client_id":"${PLAIN_ID}","stream_id":"${PLAIN_ID}","seq_id":${U64}(?:,"cursor":"${PLAIN_ID}")?\\}$`,
);

/** A `client_message` envelope with its JSON-RPC message's own text. */
export interface ScannedClientMessage {
  env: Extract<ClientEnvelope, { type: "client_message" }>;
  messageText: string;
}

/**
 * A `client_message` frame as larkit's remote client writes it and the dev relay passes it on (the message
 * first, then plain ids, a u64 seq_id and maybe the relay's cursor), read without parsing the envelope: only the
 * message's text is parsed, and that text is what the app server gets, instead of the parsed message encoded
 * again (bench rtt: a JSON.parse of the frame and a JSON.stringify of its message on every request). The
 * message text parsing as one JSON value is what makes the frame exactly these fields (no duplicate key, no
 * other field can hide in it); anything else (another order, a space, an escape in an id) is left to
 * `parseClientEnvelope`.
 */
export function scanClientMessage(text: string): ScannedClientMessage | undefined {
  if (!text.startsWith(MESSAGE_HEAD)) return undefined;
  const at = text.lastIndexOf(',"client_id":"');
  if (at <= MESSAGE_HEAD.length) return undefined;
  const tail = ADDRESS_TAIL.exec(text.slice(at));
  if (!tail) return undefined;
  const seqId = Number(tail[3]);
  if (!Number.isSafeInteger(seqId)) return undefined;
  const messageText = text.slice(MESSAGE_HEAD.length, at);
  let message: unknown;
  try {
    message = JSON.parse(messageText);
  } catch {
    return undefined;
  }
  const env: ScannedClientMessage["env"] = {
    type: "client_message",
    message,
    client_id: tail[1],
    stream_id: tail[2],
    seq_id: seqId,
  };
  if (tail[4] !== undefined) env.cursor = tail[4];
  return { env, messageText };
}

/**
 * A plain token: what a relay-supplied id or cursor may be. The cursor goes back to the relay as the
 * `x-svc-subscribe-cursor` header of every later handshake and ids appear in logs, so relay input is data and
 * never header syntax: no CR/LF, spaces, control or non-ASCII characters, at most 256 characters.
 */
const PLAIN_TOKEN = /^[A-Za-z0-9._~:@+\/=-]{1,256}$/;

export function isPlainToken(value: string): boolean {
  return PLAIN_TOKEN.test(value);
}

/** The first of a client envelope's relay-supplied ids and cursor that is not a plain token, or undefined. */
export function badToken(env: ClientEnvelope): "client_id" | "stream_id" | "cursor" | undefined {
  if (!isPlainToken(env.client_id)) return "client_id";
  if (env.stream_id !== undefined && !isPlainToken(env.stream_id)) return "stream_id";
  if (env.cursor !== undefined && !isPlainToken(env.cursor)) return "cursor";
  return undefined;
}

/** Whether a JSON-RPC message (already parsed) is a request for `initialize`, the only opener of a stream. */
export function isInitializeRequest(message: unknown): boolean {
  return typeof message === "object" && message !== null && "method" in message && "id" in message &&
    (message as { method: unknown }).method === "initialize";
}
