/**
 * Segmentation (protocol v3): a message whose envelope would exceed 150 KiB on the wire travels as segments of
 * about 100 KiB of raw JSON bytes, each base64-encoded, all sharing the message's `seq_id`. The receiver
 * reassembles strictly in order and validates every limit; a violation drops the chunk and discards the
 * partial assembly, never the socket or other streams.
 */
import { Buffer, isAscii } from "node:buffer";
import { errors, type LarkitError } from "../cli/output/errors.ts";
import type { ChunkFields } from "./envelopes.ts";

export const SEGMENT_TARGET_BYTES = 100 * 1024;
export const SEGMENT_MAX_BYTES = 150 * 1024;
export const REASSEMBLED_MAX_BYTES = 100 * 1024 * 1024;
export const SEGMENT_COUNT_MAX = 1024;
/** Concurrent inbound assemblies kept; the least recently touched is evicted beyond this. */
export const ASSEMBLY_MAX_COUNT = 128;

/** One text frame ready for the socket, with the cursor an ack is matched against. */
export interface WireFrame {
  readonly seqId: number;
  /** Present on segments only; an ack without `segment_id` covers every segment of its `seq_id`. */
  readonly segmentId?: number;
  readonly text: string;
  /**
   * The frame's UTF-8 bytes built without its text (segments): a socket that takes bytes writes a 150 KiB
   * segment with no string of the frame or its base64. They are valid until the next call of any frame's
   * `bytes`: the socket must copy them before it returns (ws does, as it masks them into its frame buffer).
   */
  bytes?(): Uint8Array;
}

export type MessageKind = "server" | "client";

const encoder = new TextEncoder();

/** Address fields serialized after the variant fields (the order the reference emits). */
export interface Address {
  client_id: string;
  stream_id: string;
  seq_id: number;
}

function addressTail(address: Address): string {
  return JSON.stringify(address).slice(1);
}

/** Characters counted per step when measuring a large message's UTF-8 size (no copy of the message is made). */
const MEASURE_BLOCK = 1024 * 1024;
const measureScratch = new Uint8Array(3 * MEASURE_BLOCK + 4);

/** The UTF-8 byte length of `text`, measured block by block into a fixed scratch buffer. */
function utf8Size(text: string): number {
  let size = 0;
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + MEASURE_BLOCK);
    // Never split a surrogate pair: a lone half would be measured as U+FFFD.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    size += encoder.encodeInto(text.substring(at, end), measureScratch).written;
    at = end;
  }
  return size;
}

/**
 * One segment's frame, built when it is written (and again if it must be resent), never kept: a 100 MiB message
 * costs its source (the JSON text when it is ASCII, else its UTF-8 bytes), not 1.33× that again in base64.
 */
class SegmentFrame implements WireFrame {
  constructor(
    readonly seqId: number,
    readonly segmentId: number,
    readonly head: string,
    readonly tail: string,
    readonly base64: () => string,
    /** This segment's raw bytes, valid until the next call (they may sit in a shared scratch buffer). */
    readonly raw: () => Uint8Array,
  ) {}

  get text(): string {
    return `${this.head}${this.base64()}${this.tail}`;
  }

  bytes(): Uint8Array {
    const raw = this.raw();
    const b64Length = 4 * Math.ceil(raw.length / 3);
    // Head and tail are short: at most 3 bytes per UTF-16 unit.
    const need = 3 * (this.head.length + this.tail.length) + b64Length;
    const out = need <= frameScratch.length ? frameScratch : new Uint8Array(need);
    let at = encoder.encodeInto(this.head, out).written;
    at = base64Into(raw, out, at);
    at += encoder.encodeInto(this.tail, out.subarray(at)).written;
    return out.subarray(0, at);
  }
}

/**
 * Raw bytes per native `toBase64` call while a segment is written: a multiple of 3 (no padding inside the
 * segment), and small enough that each piece's string stays out of V8's large-object space. Native base64
 * is about 8x faster than a JS loop writing into the frame (bench/relay_bench.ts, server CPU for 100 MiB).
 */
const BASE64_PIECE_BYTES = 48 * 1024;

/** Writes `src` as padded base64 into `out` from `at`; returns the end. */
function base64Into(src: Uint8Array, out: Uint8Array, at: number): number {
  for (let from = 0; from < src.length; from += BASE64_PIECE_BYTES) {
    const piece = src.subarray(from, Math.min(src.length, from + BASE64_PIECE_BYTES)).toBase64();
    at += encoder.encodeInto(piece, out.subarray(at)).written;
  }
  return at;
}

/** Where an ASCII message's segment is encoded before its base64 is written (segments are written one at a time). */
const segmentScratch = new Uint8Array(SEGMENT_MAX_BYTES);

/**
 * Where every segment frame's bytes are built, instead of a fresh 136 KiB array allocated and zeroed for each
 * segment's one use: the socket copies the bytes as it sends them, so one buffer serves every frame.
 */
const frameScratch = new Uint8Array(SEGMENT_MAX_BYTES + 1024);

/**
 * Wraps one JSON-RPC message (its JSON text, inserted verbatim so a 100 MB result is not parsed again) into
 * the frames that carry it: one `*_message` frame when it fits, otherwise `*_message_chunk` frames whose text is
 * produced on demand. Messages over the reassembly limit or needing more than 1024 segments are an error value.
 */
export function frameMessage(
  kind: MessageKind,
  messageJson: string,
  address: Address,
): WireFrame[] | LarkitError {
  const tail = addressTail(address);
  const whole = `{"type":"${kind}_message","message":${messageJson},${tail}`;
  // UTF-8 needs 1 to 3 bytes per UTF-16 unit: short texts fit without counting, long ones cannot fit.
  if (whole.length * 3 <= SEGMENT_MAX_BYTES) return [{ seqId: address.seq_id, text: whole }];
  if (whole.length <= SEGMENT_MAX_BYTES && encoder.encode(whole).length <= SEGMENT_MAX_BYTES) {
    return [{ seqId: address.seq_id, text: whole }];
  }
  const size = utf8Size(messageJson);
  if (size > REASSEMBLED_MAX_BYTES) {
    return errors.validation(
      `remote-control message of ${size} bytes exceeds the ${REASSEMBLED_MAX_BYTES}-byte reassembly limit`,
    );
  }
  const overhead = encoder.encode(tail).length + 200;
  let count = Math.max(2, Math.ceil(size / SEGMENT_TARGET_BYTES));
  let chunk = Math.ceil(size / count);
  while (overhead + 4 * Math.ceil(chunk / 3) > SEGMENT_MAX_BYTES) {
    count++;
    chunk = Math.ceil(size / count);
  }
  count = Math.ceil(size / chunk);
  if (count > SEGMENT_COUNT_MAX) {
    return errors.validation(`remote-control message of ${size} bytes needs ${count} segments (max 1024)`);
  }
  // ASCII text is its own UTF-8 (and Latin-1, which `btoa` encodes): segments are cut from the string itself.
  const ascii = size === messageJson.length;
  const bytes = ascii ? undefined : encoder.encode(messageJson);
  const slice = (id: number) => () => {
    const from = id * chunk;
    const to = Math.min(size, from + chunk);
    return bytes ? bytes.subarray(from, to).toBase64() : btoa(messageJson.substring(from, to));
  };
  const raw = (id: number) => () => {
    const from = id * chunk;
    const to = Math.min(size, from + chunk);
    if (bytes) return bytes.subarray(from, to);
    return segmentScratch.subarray(
      0,
      encoder.encodeInto(messageJson.substring(from, to), segmentScratch).written,
    );
  };
  const frames: WireFrame[] = [];
  for (let id = 0; id < count; id++) {
    const head = `{"type":"${kind}_message_chunk","segment_id":${id},"segment_count":${count},` +
      `"message_size_bytes":${size},"message_chunk_base64":"`;
    frames.push(new SegmentFrame(address.seq_id, id, head, `",${tail}`, slice(id), raw(id)));
  }
  return frames;
}

/**
 * ASCII bytes as a string: their UTF-8 decoding is their Latin-1 one, which copies without decoding (a 100 KiB
 * segment: 0.03 ms instead of 0.1 ms for `TextDecoder`, 700 times per 100 MiB).
 */
export function asciiText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
}

/** A character that cannot stand as it is inside a JSON string literal (JSON.parse refuses it raw). */
// deno-lint-ignore no-control-regex -- control characters are exactly what this finds
const CONTROL_CHARACTER = /[\u0000-\u001f]/;

/** Whether `text` can stand inside a JSON string literal as it is: no quote, backslash or control character. */
function plainStringContent(text: string): boolean {
  // Nothing is allocated (JSON.stringify built an escaped copy of each 1 MiB run to compare lengths). `includes`
  // of one character is a vectorized search; the class test is one pass, made only when neither is there.
  return !text.includes('"') && !text.includes("\\") && !CONTROL_CHARACTER.test(text);
}

/**
 * Stands in for the long string while the rest of a message is parsed. It begins with a letter no JSON token
 * begins with, so it parses only inside a string literal.
 */
const LITERAL_MARK = "larkit:long-string-literal";

/**
 * Parses a reassembled message from its parts (as `JSON.parse(parts.join(""))` would, throwing as it does).
 * A large message is most often one long string (a file, a command's output) inside a small object: when
 * every part but the first and the last is plain string content, and the first part's last quote and the last
 * part's first quote enclose only plain content, the text is parsed with a short stand-in for that stretch
 * and the string is the parts themselves, concatenated without a copy (a 100 MiB result's join and parse were
 * the remote client's last ~150 ms after the last segment, bench big). Anything else, or a stand-in that does
 * not come back exactly once as a value (the stretch was not one string value), is parsed whole. `plain` may
 * say for each part whether it is plain string content, as `Reassembler`'s `plainRuns` found it.
 */
export function parseParts(parts: readonly string[], plain?: readonly boolean[]): unknown {
  const last = parts.length - 1;
  if (last >= 2) {
    const first = parts[0];
    const end = parts[last];
    const open = first.lastIndexOf('"');
    const close = end.indexOf('"');
    const before = first.slice(0, open);
    const after = end.slice(close + 1);
    // Without escapes around it, the stand-in's text can appear only where it was put.
    const fast = open >= 0 && close >= 0 && !before.includes("\\") && !after.includes("\\") &&
      !before.includes(LITERAL_MARK) && !after.includes(LITERAL_MARK) &&
      plainStringContent(first.slice(open + 1)) && plainStringContent(end.slice(0, close)) &&
      parts.every((p, i) => i === 0 || i === last || (plain?.[i] ?? plainStringContent(p)));
    if (fast) {
      let literal = first.slice(open + 1);
      for (let i = 1; i < last; i++) literal += parts[i];
      literal += end.slice(0, close);
      let found = 0;
      try {
        const value = JSON.parse(
          `${before}"${LITERAL_MARK}"${after}`,
          (_key, v) => v === LITERAL_MARK ? (found++, literal) : v,
        );
        if (found === 1) return value;
      } catch {
        // Not JSON with the stand-in there: the stretch was no string literal; the whole text decides.
      }
    }
  }
  return JSON.parse(parts.join(""));
}

/** Where each inbound segment's base64 is decoded; a frame within the limit always fits. */
const decodeScratch = new Uint8Array(SEGMENT_MAX_BYTES);

export type ChunkObservation =
  | { kind: "pending" }
  /** The message's JSON text in order, in runs of about `RUN_CHARS` (`parseParts` reads it without a join). */
  | {
    kind: "complete";
    seqId: number;
    parts: readonly string[];
    /** With `plainRuns`: whether each part is plain string content (see `parseParts`). */
    plain?: readonly boolean[];
  }
  | { kind: "ignored"; reason: string }
  | { kind: "rejected"; reason: string };

export interface ObservedChunk extends ChunkFields {
  stream_id?: string;
  seq_id?: number;
}

interface Assembly {
  streamId: string;
  seqId: number;
  count: number;
  size: number;
  /** Segments accepted so far (the next must have this id). */
  segments: number;
  received: number;
  /** Each segment is decoded as it arrives (UTF-8, streaming): no copy of the whole message's bytes is made. */
  decoder: TextDecoder;
  /** Every segment so far was ASCII (the decoder holds no partial sequence): the next may skip it. */
  ascii: boolean;
  /**
   * While every segment is ASCII, each is decoded from base64 straight into this buffer, which becomes one
   * run's text (Latin-1) once it holds `RUN_CHARS` bytes: no string per segment, no join of them.
   */
  run: Uint8Array;
  runLength: number;
  /** The text so far in runs of at least `RUN_CHARS` (each one string) ... */
  pieces: string[];
  /** ... and the segments decoded since the last run. */
  recent: string[];
  recentChars: number;
  /** With `plainRuns`: each run's plainness, and whether every recent segment is plain. */
  plain: boolean[];
  recentPlain: boolean;
}

/**
 * Decoded segments (about 100 KiB each) are joined into runs of this many characters as they arrive. A run is
 * past V8's large-object size, so it is never copied by a scavenge; kept as segments, a 100 MiB message's text
 * was copied from the young to the old generation piece by piece, in 100-150 ms pauses of the whole server
 * (`--trace-gc` during the head-of-line bench), which another client's small request had to wait out.
 */
const RUN_CHARS = 1024 * 1024;

/**
 * Reassembles inbound chunks. One assembly per key (the relay client id on the local server: a valid chunk on
 * a new stream of the same client resets it), at most `ASSEMBLY_MAX_COUNT` keys. Each segment is decoded as it
 * arrives, so the message ends as its text without a copy of all its bytes, and finishing it is quick. A rejected message is
 * reported once: its later segments are ignored quietly.
 */
export class Reassembler {
  /**
   * Whether each run is checked for plain string content as its segments arrive (the remote client, which
   * parses with `parseParts`): the check runs while the network brings the next segment instead of after the
   * last one (bench big: ~40 ms less between the last segment and the message).
   */
  readonly #plainRuns: boolean;
  readonly #assemblies = new Map<string, Assembly>();
  /** Last completed seq per key+stream: replays of completed messages are ignored. */
  readonly #completed = new Map<string, number>();
  /** The last rejected (stream, seq) per key, whose remaining segments are ignored without a report. */
  readonly #rejected = new Map<string, string>();

  constructor(opts: { plainRuns?: boolean } = {}) {
    this.#plainRuns = opts.plainRuns ?? false;
  }

  observe(key: string, chunk: ObservedChunk, frameBytes: number): ChunkObservation {
    const { stream_id: streamId, seq_id: seqId } = chunk;
    if (streamId === undefined || seqId === undefined) {
      return { kind: "rejected", reason: "missing stream_id or seq_id" };
    }
    const completedKey = `${key}\u0000${streamId}`;
    const lastDone = this.#completed.get(completedKey);
    if (lastDone !== undefined && seqId <= lastDone) {
      return { kind: "ignored", reason: "replay of a completed message" };
    }
    const messageKey = `${streamId}\u0000${seqId}`;
    // Segment 0 starts the message over (a replay after a rejection is allowed); later ones stay quiet.
    if (this.#rejected.get(key) === messageKey && chunk.segment_id !== 0) {
      return { kind: "ignored", reason: "segment of a rejected message" };
    }
    // Checked before anything else: an oversized frame, even on another stream, never disturbs the assembly.
    if (frameBytes > SEGMENT_MAX_BYTES) {
      const inProgress = this.#assemblies.get(key);
      if (inProgress?.streamId !== streamId || inProgress.seqId !== seqId) {
        this.#rejected.set(key, messageKey);
      }
      return { kind: "rejected", reason: `frame of ${frameBytes} bytes exceeds ${SEGMENT_MAX_BYTES}` };
    }
    let current = this.#assemblies.get(key);
    if (current && current.streamId !== streamId) {
      this.#assemblies.delete(key);
      current = undefined;
    }
    const sameMessage = current !== undefined && current.seqId === seqId;
    if (sameMessage && current && chunk.segment_id < current.segments) {
      return { kind: "ignored", reason: "duplicate segment" };
    }
    const reject = (reason: string): ChunkObservation => {
      if (sameMessage) this.#assemblies.delete(key);
      this.#rejected.set(key, messageKey);
      return { kind: "rejected", reason };
    };
    if (chunk.segment_count === 0 || chunk.segment_count > SEGMENT_COUNT_MAX) {
      return reject(`segment_count ${chunk.segment_count} out of range`);
    }
    if (chunk.segment_id >= chunk.segment_count) return reject("segment_id beyond segment_count");
    if (chunk.message_size_bytes === 0 || chunk.message_size_bytes > REASSEMBLED_MAX_BYTES) {
      return reject(`message_size_bytes ${chunk.message_size_bytes} out of range`);
    }
    if (chunk.message_chunk_base64 === "") return reject("empty segment");
    if (current && sameMessage) {
      if (current.count !== chunk.segment_count || current.size !== chunk.message_size_bytes) {
        return reject("segment metadata differs from the assembly");
      }
      if (chunk.segment_id !== current.segments) return reject("segment out of order");
    } else {
      if (chunk.segment_id !== 0) return reject("segment out of order");
      current = {
        streamId,
        seqId,
        count: chunk.segment_count,
        size: chunk.message_size_bytes,
        segments: 0,
        received: 0,
        decoder: new TextDecoder("utf-8", { fatal: true }),
        ascii: true,
        // Room for a run and one more segment: a segment's base64 always decodes in place (as in decodeScratch).
        // Pages are only touched as bytes arrive, so a relay that claims 100 MiB and sends little costs little.
        run: new Uint8Array(Math.min(chunk.message_size_bytes, RUN_CHARS) + SEGMENT_MAX_BYTES),
        runLength: 0,
        pieces: [],
        recent: [],
        recentChars: 0,
        plain: [],
        recentPlain: this.#plainRuns,
      };
    }
    let part: Uint8Array;
    try {
      // Into the run while the message is ASCII, else into a scratch buffer (its text is copied out at once).
      const into = current.ascii ? current.run.subarray(current.runLength) : decodeScratch;
      const { read, written } = into.setFromBase64(chunk.message_chunk_base64);
      if (read !== chunk.message_chunk_base64.length) throw new Error("segment larger than a frame");
      part = into.subarray(0, written);
    } catch {
      this.#assemblies.delete(key);
      this.#rejected.set(key, messageKey);
      return { kind: "rejected", reason: "invalid base64" };
    }
    if (current.received + part.length > current.size) {
      this.#assemblies.delete(key);
      this.#rejected.set(key, messageKey);
      return { kind: "rejected", reason: "segments exceed message_size_bytes" };
    }
    if (current.ascii && isAscii(part)) {
      current.runLength += part.length;
      if (current.runLength >= RUN_CHARS) this.#endAsciiRun(current);
      return this.#accepted(key, current, part.length);
    }
    // The first segment that is not ASCII: the ASCII text before it is a run, the decoder takes it from here.
    if (current.ascii && current.runLength > 0) this.#endAsciiRun(current);
    current.ascii = false;
    try {
      const text = current.decoder.decode(part, { stream: true });
      current.recent.push(text);
      current.recentChars += text.length;
      if (current.recentPlain) current.recentPlain = plainStringContent(text);
      if (current.recentChars >= RUN_CHARS) this.#endRun(current);
    } catch {
      this.#assemblies.delete(key);
      this.#rejected.set(key, messageKey);
      return { kind: "rejected", reason: "segment is not UTF-8" };
    }
    return this.#accepted(key, current, part.length);
  }

  /** A segment was taken into its assembly: the message is pending, or complete with it. */
  #accepted(key: string, current: Assembly, bytes: number): ChunkObservation {
    const { streamId, seqId } = current;
    const messageKey = `${streamId}\u0000${seqId}`;
    current.segments++;
    current.received += bytes;
    this.#touch(key, current);
    if (current.segments < current.count) return { kind: "pending" };
    this.#assemblies.delete(key);
    if (current.received !== current.size) {
      this.#rejected.set(key, messageKey);
      return { kind: "rejected", reason: "reassembled size differs from message_size_bytes" };
    }
    if (current.ascii) {
      this.#endAsciiRun(current);
    } else {
      let last: string;
      try {
        last = current.decoder.decode();
      } catch {
        this.#rejected.set(key, messageKey);
        return { kind: "rejected", reason: "message ends inside a UTF-8 sequence" };
      }
      current.recent.push(last);
      if (current.recentPlain) current.recentPlain = plainStringContent(last);
      this.#endRun(current);
    }
    this.#completed.set(`${key}\u0000${streamId}`, seqId);
    return {
      kind: "complete",
      seqId,
      parts: current.pieces,
      ...(this.#plainRuns ? { plain: current.plain } : {}),
    };
  }

  /** Forgets a stream's partial assembly and completion record (client closed, stream invalidated). */
  invalidate(key: string, streamId: string): void {
    if (this.#assemblies.get(key)?.streamId === streamId) this.#assemblies.delete(key);
    this.#completed.delete(`${key}\u0000${streamId}`);
    if (this.#rejected.get(key)?.startsWith(`${streamId}\u0000`)) this.#rejected.delete(key);
  }

  /**
   * A re-`initialize` on the stream starts its numbering afresh: completions before it no longer make a
   * chunked message a replay. `seqId` is the initialize's own seq when it travelled in chunks.
   */
  restart(key: string, streamId: string, seqId?: number): void {
    const completedKey = `${key}\u0000${streamId}`;
    if (seqId === undefined) this.#completed.delete(completedKey);
    else this.#completed.set(completedKey, seqId);
  }

  /** Bytes held by partial assemblies (tests and the benchmark check that memory is released). */
  pendingBytes(): number {
    let n = 0;
    for (const a of this.#assemblies.values()) n += a.received;
    return n;
  }

  /** The ASCII bytes in the run buffer become one part; the buffer is reused for the next run. */
  #endAsciiRun(assembly: Assembly): void {
    const text = asciiText(assembly.run.subarray(0, assembly.runLength));
    assembly.pieces.push(text);
    assembly.plain.push(this.#plainRuns && plainStringContent(text));
    assembly.runLength = 0;
  }

  #endRun(assembly: Assembly): void {
    assembly.pieces.push(assembly.recent.join(""));
    assembly.plain.push(assembly.recentPlain);
    assembly.recent = [];
    assembly.recentChars = 0;
    assembly.recentPlain = this.#plainRuns;
  }

  #touch(key: string, assembly: Assembly): void {
    this.#assemblies.delete(key);
    this.#assemblies.set(key, assembly);
    if (this.#assemblies.size > ASSEMBLY_MAX_COUNT) {
      const oldest = this.#assemblies.keys().next().value;
      if (oldest !== undefined) this.#assemblies.delete(oldest);
    }
  }
}
